package dev.hfr.mcp.client;

import dev.hfr.runtime.config.HfrConfig;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the builders of {@link HfrMcpClient} and {@link HfrMcpAsyncClient} collect before the client exists —
 * the {@code mcp} configuration and the clients of the servers that rungs reach — and the tool-list hook,
 * which is registered on the SDK's spec before the mapping it feeds can be made.
 */
final class McpClientSetup {

  private final String server;
  private McpClientConfig config = McpClientConfig.EMPTY;
  private final List<McpWire> peers = new ArrayList<>();
  private volatile McpToolMapping mapping;

  McpClientSetup(String server) {
    this.server = McpServerNames.check(server);
  }

  String server() {
    return server;
  }

  void config(McpClientConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  void config(HfrConfig config) {
    config(McpClientConfig.from(config));
  }

  void peer(McpWire other) {
    peers.add(other);
  }

  /**
   * This server's settings, every rung checked against the peers.
   *
   * @throws IllegalStateException when a rung names a server that is neither this one nor a peer
   */
  McpServerSettings settings() {
    McpServerSettings settings = config.server(server);
    McpToolMapping.checkRungs(server, settings, peers);
    return settings;
  }

  /** The mapping of the client sending through {@code self}: it reaches the peers and gets the hook's lists. */
  McpToolMapping mapping(McpWire self, McpServerSettings settings) {
    McpToolMapping m = new McpToolMapping(self, settings);
    peers.forEach(m::addPeer);
    mapping = m;
    return m;
  }

  /** The SDK's {@code toolsChangeConsumer}: a list announced before the mapping exists is listed again at build. */
  void onToolsChanged(List<McpSchema.Tool> tools) {
    McpToolMapping m = mapping;
    if (m != null) {
      m.onToolsChanged(tools);
    }
  }
}
