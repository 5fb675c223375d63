package dev.hfr.mcp.client;

import dev.hfr.mcp.internal.HttpFailureCapture;
import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * An MCP client whose every {@code tools/call} runs through HFR: classified (F2D-9), retried, reconciled or
 * refused by the tool's risk, under the ledger, budgets and breakers of the engine — with the decision
 * events and meters of an annotated tool. The tool is named {@code <server>.<tool>} there.
 *
 * <pre>{@code
 * var transport = McpHttpTransports.streamableHttp("http://127.0.0.1:8080").endpoint("/mcp").build();
 * try (HfrMcpClient tracker = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(transport))
 *         .config(HfrConfigLoader.load(Path.of("hfr.yaml")))   // its hfr.mcp section
 *         .build()) {
 *   CallToolResult issue = tracker.callTool("create_issue", Map.of("title", "Disk full"));
 * }
 * }</pre>
 *
 * <p>The risk of each tool comes from the server's hints, untrusted by default (see {@link McpToolRisk});
 * the mapping is rebuilt when the server announces {@code notifications/tools/list_changed}.
 *
 * <p>A call that ends without an accepted result throws {@link ToolCallException}, whose outcome is the
 * article's execution contract. An expired session (the server answered 404 for it) is re-initialized by
 * the SDK and the request sent once more within the same attempt: the server ran nothing for it.
 *
 * <p>A tool may degrade to a tool of another server ({@code degrade_to} in the configuration): give that
 * server's client to the builder with {@link McpClientBuilder#peer(HfrMcpClient)}. {@link HfrMcpAsyncClient} is the
 * same over the SDK's asynchronous client.
 */
public final class HfrMcpClient implements AutoCloseable {

  private final RecoveryEngine engine;
  private final String server;
  private final McpSyncClient client;
  private final ThreadLocal<HttpFailureCapture> capture;
  private final Wire wire = new Wire();
  private final McpToolMapping mapping;

  private HfrMcpClient(RecoveryEngine engine, McpClientSetup setup, McpServerSettings settings, McpSyncClient client,
      ThreadLocal<HttpFailureCapture> capture) {
    this.engine = engine;
    this.server = setup.server();
    this.client = client;
    this.capture = capture;
    this.mapping = setup.mapping(wire, settings);
  }

  /**
   * Starts a client named {@code server} (the name the configuration's {@code mcp.servers} uses, and the
   * class part of its tools' names) from the SDK's client spec; {@link Builder#build()} registers HFR's
   * hooks on the spec, builds and initializes the client and lists the tools.
   */
  public static Builder builder(RecoveryEngine engine, String server, McpClient.SyncSpec spec) {
    return new Builder(engine, server, spec);
  }

  /**
   * Wraps a client the application built itself. Tool list changes then reach HFR only through
   * {@link #refreshTools()}, and failed HTTP responses are read from the SDK's exceptions (no Retry-After).
   * Its tools cannot degrade to other servers (use the builder for that).
   */
  public static HfrMcpClient wrap(RecoveryEngine engine, String server, McpSyncClient client, McpClientConfig config) {
    McpClientSetup setup = new McpClientSetup(server);
    setup.config(config);
    HfrMcpClient c = new HfrMcpClient(engine, setup, setup.settings(), client, new ThreadLocal<>());
    if (!client.isInitialized()) {
      client.initialize();
    }
    c.refreshTools();
    return c;
  }

  /** The server's name in HFR. */
  public String server() {
    return server;
  }

  /** The engine the calls run through. */
  public RecoveryEngine engine() {
    return engine;
  }

  /** The SDK client underneath, for everything but tool calls. */
  public McpSyncClient delegate() {
    return client;
  }

  /** Calls {@code tool} with {@code arguments} through HFR. */
  public McpSchema.CallToolResult callTool(String tool, Map<String, Object> arguments) {
    return callTool(new McpSchema.CallToolRequest(tool, arguments, null));
  }

  /**
   * Calls the request's tool through HFR.
   *
   * @return the accepted result ({@code isError} results are failures, never returned)
   * @throws ToolCallException when no accepted result could be had safely
   */
  public McpSchema.CallToolResult callTool(McpSchema.CallToolRequest request) {
    Objects.requireNonNull(request, "request");
    if (mapping.entry(request.name()) == null) {
      // unknown here: the list may have changed without a notification; the server decides otherwise
      refreshTools();
    }
    McpCallSpec call = mapping.call(request);
    return engine.execute(call.descriptor(), new McpToolCall(call));
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

  /** Lists the server's tools again and rebuilds the mapping (all pages). */
  public void refreshTools() {
    List<McpSchema.Tool> all = new ArrayList<>();
    String cursor = null;
    do {
      McpSchema.ListToolsResult page = cursor == null ? client.listTools() : client.listTools(cursor);
      all.addAll(page.tools());
      cursor = page.nextCursor();
    } while (cursor != null);
    mapping.onToolsChanged(all);
  }

  /** This client as a rung's or a reconcile's way to its server. */
  McpWire wire() {
    return wire;
  }

  /**
   * Sends one request; an expired session is sent once more (the SDK re-initializes, the server ran
   * nothing); other failures are translated for the classifier.
   */
  private McpSchema.CallToolResult send(McpSchema.CallToolRequest request) {
    try {
      return sendOnce(request, true);
    } catch (McpFailures.SessionExpired expired) {
      return sendOnce(request, false);
    }
  }

  private McpSchema.CallToolResult sendOnce(McpSchema.CallToolRequest request, boolean mayReconnect) {
    HttpFailureCapture c = HttpFailureCapture.open();
    capture.set(c);
    try {
      return client.callTool(request);
    } catch (RuntimeException e) {
      throw McpFailures.ofCall(server, request, e, c, mayReconnect);
    } finally {
      capture.remove();
      c.close();
    }
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

    @Override
    public McpSchema.CallToolResult send(McpSchema.CallToolRequest request) {
      return HfrMcpClient.this.send(request);
    }

    /**
     * Sends on a thread of Reactor's bounded elastic scheduler, never on the caller's. The caller is an
     * asynchronous client's rung, running on the thread that completed the failed call: a pooled thread
     * (JDK 25 completes HTTP responses on the common fork-join pool, one worker on 2 cores), where the SDK's
     * blocking wait would hold the very thread this server's answer is queued for — the rung stalled until
     * the request timeout — or a Reactor timer thread, where that wait refuses to run at all.
     */
    @Override
    public CompletableFuture<McpSchema.CallToolResult> sendAsync(McpSchema.CallToolRequest request) {
      return Mono.fromCallable(() -> HfrMcpClient.this.send(request))
          .subscribeOn(Schedulers.boundedElastic())
          .toFuture();
    }
  }

  @Override
  public void close() {
    client.close();
  }

  /** Builds an {@link HfrMcpClient} around the SDK's client spec. */
  public static final class Builder extends McpClientBuilder<Builder> {
    private final McpClient.SyncSpec spec;

    private Builder(RecoveryEngine engine, String server, McpClient.SyncSpec spec) {
      super(engine, server);
      this.spec = Objects.requireNonNull(spec, "spec");
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * Registers HFR's hooks on the spec, builds and initializes the client, lists the tools. When initializing or
     * listing fails, the client is closed (its transport's threads, a stdio server's process) before the failure is
     * thrown.
     *
     * @throws IllegalStateException when a rung names a server that is neither this one nor a peer
     */
    public HfrMcpClient build() {
      McpServerSettings settings = setup.settings();
      ThreadLocal<HttpFailureCapture> capture = new ThreadLocal<>();
      spec.transportContextProvider(() -> {
        HttpFailureCapture c = capture.get();
        return c == null ? McpTransportContext.EMPTY : McpTransportContext.create(Map.of(HttpFailureCapture.CONTEXT_KEY, c));
      });
      spec.toolsChangeConsumer(setup::onToolsChanged);
      McpSyncClient client = spec.build();
      HfrMcpClient c = new HfrMcpClient(engine, setup, settings, client, capture);
      try {
        client.initialize();
        c.refreshTools();
      } catch (RuntimeException e) {
        throw FailedStart.closeAfter(e, client::closeGracefully, client::close);
      }
      return c;
    }
  }
}
