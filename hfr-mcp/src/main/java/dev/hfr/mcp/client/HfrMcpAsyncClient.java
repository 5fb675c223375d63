package dev.hfr.mcp.client;

import dev.hfr.mcp.internal.HttpFailureCapture;
import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * {@link HfrMcpClient} over the SDK's asynchronous client: every {@code tools/call} runs through the
 * engine's asynchronous path ({@code Hfr.executeAsync}) — the same risk mapping, F2D-9 classification,
 * ledger, reconcile, budgets, breakers and rungs — and no thread waits while a call or its backoff does.
 *
 * <pre>{@code
 * var transport = McpHttpTransports.streamableHttp("http://127.0.0.1:8080").endpoint("/mcp").build();
 * try (HfrMcpAsyncClient tracker = HfrMcpAsyncClient.builder(hfr, "tracker", McpClient.async(transport))
 *         .config(mcpConfig)
 *         .build()) {
 *   tracker.callTool("create_issue", Map.of("title", "Disk full"))
 *       .thenAccept(issue -> ...);
 * }
 * }</pre>
 *
 * <p>An attempt continues on the thread that completes the SDK's request; a backoff is a timer on the
 * engine's scheduler. The reconcile tool is a blocking query (the engine's contract for reconcile): it is
 * sent through this client and waited for on the thread that completed the failed attempt. Building the
 * client (initialize, first tool listing) waits for the server.
 */
public final class HfrMcpAsyncClient implements AutoCloseable {

  /** How long a client that failed to start may take to close. */
  private static final java.time.Duration CLOSE_TIMEOUT = java.time.Duration.ofSeconds(10);

  private final RecoveryEngine engine;
  private final String server;
  private final McpAsyncClient client;
  private final Wire wire = new Wire();
  private final McpToolMapping mapping;

  private HfrMcpAsyncClient(RecoveryEngine engine, McpClientSetup setup, McpServerSettings settings, McpAsyncClient client) {
    this.engine = engine;
    this.server = setup.server();
    this.client = client;
    this.mapping = setup.mapping(wire, settings);
  }

  /**
   * Starts a client named {@code server} (the name the configuration's {@code mcp.servers} uses) from the
   * SDK's asynchronous client spec.
   */
  public static Builder builder(RecoveryEngine engine, String server, McpClient.AsyncSpec spec) {
    return new Builder(engine, server, spec);
  }

  /** The server's name in HFR. */
  public String server() {
    return server;
  }

  /** The SDK client underneath, for everything but tool calls. */
  public McpAsyncClient delegate() {
    return client;
  }

  /** Calls {@code tool} with {@code arguments} through HFR. */
  public CompletableFuture<McpSchema.CallToolResult> callTool(String tool, Map<String, Object> arguments) {
    return callTool(new McpSchema.CallToolRequest(tool, arguments, null));
  }

  /**
   * Calls the request's tool through HFR.
   *
   * @return the accepted result ({@code isError} results are failures, never returned), or a future failed
   *     with {@link ToolCallException} when no accepted result could be had safely
   */
  public CompletableFuture<McpSchema.CallToolResult> callTool(McpSchema.CallToolRequest request) {
    Objects.requireNonNull(request, "request");
    if (mapping.entry(request.name()) == null) {
      // unknown here: the list may have changed without a notification; the server decides otherwise
      return refreshToolsAsync().thenCompose(listed -> run(request));
    }
    return run(request);
  }

  private CompletableFuture<McpSchema.CallToolResult> run(McpSchema.CallToolRequest request) {
    McpCallSpec call = mapping.call(request);
    return engine.executeAsync(call.descriptor(), new McpAsyncToolCall(call));
  }

  /** The risk HFR recovers {@code tool} at, or {@code null} when the server does not list it. */
  public McpToolRisk risk(String tool) {
    return mapping.risk(tool);
  }

  /** The HFR descriptor of {@code tool}, or {@code null} when the server does not list it. */
  public ToolDescriptor descriptor(String tool) {
    return mapping.descriptor(tool);
  }

  /** The tools as last listed, with their hints. */
  public List<McpSchema.Tool> tools() {
    return mapping.tools();
  }

  /** Lists the server's tools again (all pages) and rebuilds the mapping. */
  public CompletableFuture<Void> refreshToolsAsync() {
    return listFrom(null, new ArrayList<>()).thenAccept(mapping::onToolsChanged);
  }

  private CompletableFuture<List<McpSchema.Tool>> listFrom(String cursor, List<McpSchema.Tool> all) {
    Mono<McpSchema.ListToolsResult> page = cursor == null ? client.listTools() : client.listTools(cursor);
    return page.toFuture().thenCompose(p -> {
      all.addAll(p.tools());
      return p.nextCursor() == null ? CompletableFuture.completedFuture(all) : listFrom(p.nextCursor(), all);
    });
  }

  McpWire wire() {
    return wire;
  }

  /** Sends one request; an expired session is sent once more, other failures are translated for the classifier. */
  private CompletableFuture<McpSchema.CallToolResult> send(McpSchema.CallToolRequest request) {
    return sendOnce(request, true).exceptionallyCompose(t -> unwrap(t) instanceof McpFailures.SessionExpired
        ? sendOnce(request, false) : CompletableFuture.failedFuture(t));
  }

  private CompletableFuture<McpSchema.CallToolResult> sendOnce(McpSchema.CallToolRequest request, boolean mayReconnect) {
    HttpFailureCapture c = HttpFailureCapture.open();
    CompletableFuture<McpSchema.CallToolResult> answer;
    try {
      answer = client.callTool(request)
          .contextWrite(Context.of(McpTransportContext.KEY,
              McpTransportContext.create(Map.of(HttpFailureCapture.CONTEXT_KEY, c))))
          .toFuture();
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    return answer.handle((result, failure) -> {
      c.close();
      if (failure == null) {
        return result;
      }
      throw McpFailures.ofCall(server, request, unwrap(failure), c, mayReconnect);
    });
  }

  /** The failure itself, without the wrappers of futures. */
  private static RuntimeException unwrap(Throwable t) {
    Throwable cause = t;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause instanceof RuntimeException r ? r : new CompletionException(cause);
  }

  private final class Wire implements McpWire {
    @Override
    public String server() {
      return server;
    }

    @Override
    public McpToolRisk risk(String tool) {
      return mapping.risk(tool);
    }

    /** Waits without Reactor's {@code block()}, which refuses to run on Reactor's own non-blocking threads. */
    @Override
    public McpSchema.CallToolResult send(McpSchema.CallToolRequest request) {
      try {
        return HfrMcpAsyncClient.this.send(request).get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + server + "." + request.name(), e);
      } catch (ExecutionException e) {
        throw unwrap(e.getCause());
      }
    }

    @Override
    public CompletableFuture<McpSchema.CallToolResult> sendAsync(McpSchema.CallToolRequest request) {
      return HfrMcpAsyncClient.this.send(request);
    }
  }

  @Override
  public void close() {
    client.close();
  }

  /** Builds an {@link HfrMcpAsyncClient} around the SDK's asynchronous client spec. */
  public static final class Builder extends McpClientBuilder<Builder> {
    private final McpClient.AsyncSpec spec;

    private Builder(RecoveryEngine engine, String server, McpClient.AsyncSpec spec) {
      super(engine, server);
      this.spec = Objects.requireNonNull(spec, "spec");
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * Registers HFR's hook for tool list changes, builds the client, initializes it and lists the tools
     * (waiting for both). When initializing or listing fails, the client is closed (its transport's threads, a
     * stdio server's process) before the failure is thrown.
     *
     * @throws IllegalStateException when a rung names a server that is neither this one nor a peer
     */
    public HfrMcpAsyncClient build() {
      McpServerSettings settings = setup.settings();
      spec.toolsChangeConsumer(list -> {
        setup.onToolsChanged(list);
        return Mono.empty();
      });
      McpAsyncClient client = spec.build();
      HfrMcpAsyncClient c = new HfrMcpAsyncClient(engine, setup, settings, client);
      try {
        client.initialize().block();
        c.refreshToolsAsync().join();
      } catch (RuntimeException e) {
        throw FailedStart.closeAfter(e, () -> client.closeGracefully().block(CLOSE_TIMEOUT), client::close);
      }
      return c;
    }
  }
}
