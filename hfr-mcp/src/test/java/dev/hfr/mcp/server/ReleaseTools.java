package dev.hfr.mcp.server;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A tool served over MCP that needs a person's approval: publishing a release cannot be taken back. */
public class ReleaseTools {

  final List<String> published = new CopyOnWriteArrayList<>();

  @SideEffect(value = Risk.R3, requiresApproval = true)
  public String publish(String version) {
    published.add(version);
    return "published " + version;
  }
}
