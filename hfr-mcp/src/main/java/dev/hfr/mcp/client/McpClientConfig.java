package dev.hfr.mcp.client;

import java.util.Map;

/**
 * The {@code mcp} section of the configuration: settings per MCP server, by the name the application gives
 * the server when it wraps its client. Read with {@link McpConfigLoader}; immutable.
 */
public record McpClientConfig(Map<String, McpServerSettings> servers) {

  /** No server configured: every server untrusted, every tool R3 unless its hints make it more careful. */
  public static final McpClientConfig EMPTY = new McpClientConfig(Map.of());

  public McpClientConfig {
    servers = Map.copyOf(servers);
  }

  /** The settings of {@code server}, {@link McpServerSettings#UNCONFIGURED} when it has none. */
  public McpServerSettings server(String server) {
    return servers.getOrDefault(server, McpServerSettings.UNCONFIGURED);
  }
}
