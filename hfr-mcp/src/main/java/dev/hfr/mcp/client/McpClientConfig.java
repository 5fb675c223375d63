package dev.hfr.mcp.client;

import dev.hfr.runtime.config.HfrConfig;
import java.util.Map;

/**
 * The {@code hfr.mcp} section of {@code hfr.yaml}: settings per MCP server, by the name the application gives
 * the server when it wraps its client. Read by {@link McpConfigSection} with the rest of the file; immutable.
 */
public record McpClientConfig(Map<String, McpServerSettings> servers) {

  /** No server configured: every server untrusted, every tool R3 unless its hints make it more careful. */
  public static final McpClientConfig EMPTY = new McpClientConfig(Map.of());

  public McpClientConfig {
    servers = Map.copyOf(servers);
  }

  /** The {@code hfr.mcp} section of {@code config} ({@link #EMPTY} when it has none). */
  public static McpClientConfig from(HfrConfig config) {
    return config.section(new McpConfigSection());
  }

  /** The settings of {@code server}, {@link McpServerSettings#UNCONFIGURED} when it has none. */
  public McpServerSettings server(String server) {
    return servers.getOrDefault(server, McpServerSettings.UNCONFIGURED);
  }
}
