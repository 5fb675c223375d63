package dev.hfr.mcp.internal.model;

import dev.hfr.mcp.client.HfrMcpClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tools of one or more MCP servers, as a model sees them; see {@link McpModelTool}. */
public final class McpModelTools {

  private McpModelTools() {}

  /**
   * The tools the clients' servers list now (a {@code tools/list_changed} is seen on the next call of this).
   *
   * @throws IllegalStateException when two servers offer a tool of the same name: the model could not tell
   *     them apart
   */
  public static List<McpModelTool> of(List<HfrMcpClient> clients) {
    Map<String, McpModelTool> byName = new LinkedHashMap<>();
    for (HfrMcpClient client : clients) {
      for (McpSchema.Tool tool : client.tools()) {
        McpModelTool previous = byName.putIfAbsent(tool.name(), new McpModelTool(client, tool));
        if (previous != null) {
          throw new IllegalStateException("the MCP servers " + previous.qualifiedName().substring(0,
              previous.qualifiedName().length() - tool.name().length() - 1) + " and " + client.server()
              + " both offer a tool named \"" + tool.name() + "\": the model could not tell them apart; give the"
              + " model the tools of one of them only");
        }
      }
    }
    return new ArrayList<>(byName.values());
  }
}
