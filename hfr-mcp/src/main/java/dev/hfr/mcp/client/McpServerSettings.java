package dev.hfr.mcp.client;

import dev.hfr.annotations.Risk;
import java.util.Map;
import java.util.Objects;

/**
 * What the configuration says about one MCP server ({@code mcp.servers.<server>}).
 *
 * @param trusted whether the server's tool hints are believed as they are; by default they are not (the MCP
 *     specification calls them untrusted), and a hint may then only make recovery more conservative
 * @param defaultRisk the risk of a tool of this server nobody configured, before hints raise it; R3 by
 *     default: a tool whose effects nobody vouched for is never resent after an unknown outcome
 * @param tools per-tool settings by the tool's MCP name
 */
public record McpServerSettings(boolean trusted, Risk defaultRisk, Map<String, McpToolSettings> tools) {

  /** A server nobody configured: untrusted, R3 by default. */
  public static final McpServerSettings UNCONFIGURED = new McpServerSettings(false, Risk.R3, Map.of());

  public McpServerSettings {
    Objects.requireNonNull(defaultRisk, "defaultRisk");
    tools = Map.copyOf(tools);
  }

  /** The settings of {@code tool}, {@link McpToolSettings#NONE} when it has none. */
  public McpToolSettings tool(String tool) {
    return tools.getOrDefault(tool, McpToolSettings.NONE);
  }
}
