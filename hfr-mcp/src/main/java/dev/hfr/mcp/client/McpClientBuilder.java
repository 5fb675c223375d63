package dev.hfr.mcp.client;

import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.config.HfrConfig;
import java.util.Objects;

/**
 * The options {@link HfrMcpClient.Builder} and {@link HfrMcpAsyncClient.Builder} share: the {@code mcp}
 * configuration, and the clients of the other servers that {@code degrade_to} rungs reach.
 *
 * @param <B> the builder itself, returned by each option
 */
public abstract class McpClientBuilder<B extends McpClientBuilder<B>> {

  final RecoveryEngine engine;
  final McpClientSetup setup;

  McpClientBuilder(RecoveryEngine engine, String server) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.setup = new McpClientSetup(server);
  }

  abstract B self();

  /** The {@code mcp} configuration; its {@code servers.<server>} entry applies. */
  public B config(McpClientConfig config) {
    setup.config(config);
    return self();
  }

  /** The {@code hfr.mcp} section of {@code config}; its {@code servers.<server>} entry applies. */
  public B config(HfrConfig config) {
    setup.config(config);
    return self();
  }

  /** The client of another server whose tools this server's tools degrade to ({@code degrade_to}). */
  public B peer(HfrMcpClient other) {
    setup.peer(other.wire());
    return self();
  }

  /**
   * The client of another server whose tools this server's tools degrade to ({@code degrade_to}). An
   * asynchronous client's own calls never wait for a synchronous peer: its blocking calls run on Reactor's
   * bounded elastic scheduler.
   */
  public B peer(HfrMcpAsyncClient other) {
    setup.peer(other.wire());
    return self();
  }
}
