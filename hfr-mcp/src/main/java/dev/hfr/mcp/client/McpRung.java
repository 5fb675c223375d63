package dev.hfr.mcp.client;

import dev.hfr.annotations.DegradeLevel;
import java.util.Map;
import java.util.Objects;

/**
 * One rung of an MCP tool's degradation ladder: a tool on the same or another MCP server that the engine may
 * call instead when the tool itself cannot give an answer ({@code mcp.servers.<server>.tools.<tool>.degrade_to}).
 * The engine walks these rungs like the {@code @Degrade} rungs of an annotated method: in order, only at the
 * levels the call's criticality allows automatically, never to a riskier tool, never after a write whose
 * outcome is unknown.
 *
 * <pre>{@code
 * degrade_to:
 *   - {tool: archive.search_archive, level: L2, arguments: {text: query}}
 * }</pre>
 *
 * @param server the rung tool's server, as HFR names it (its client is given to the builder as a peer)
 * @param tool the rung tool's MCP name on that server
 * @param level the ladder level of the rung
 * @param arguments the rung tool's argument name → the name of this call's argument that supplies it; empty:
 *     the rung takes this call's arguments as they are
 */
public record McpRung(String server, String tool, DegradeLevel level, Map<String, String> arguments) {

  public McpRung {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(level, "level");
    arguments = Map.copyOf(arguments);
  }

  /** {@code server.tool}, the name HFR gives the rung tool. */
  public String qualified() {
    return server + "." + tool;
  }
}
