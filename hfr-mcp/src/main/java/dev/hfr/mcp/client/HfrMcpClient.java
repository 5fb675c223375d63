package dev.hfr.mcp.client;

import dev.hfr.annotations.Risk;
import dev.hfr.mcp.internal.HttpFailureCapture;
import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An MCP client whose every {@code tools/call} runs through HFR: classified (F2D-9), retried, reconciled or
 * refused by the tool's risk, under the ledger, budgets and breakers of the engine — with the decision
 * events and meters of an annotated tool. The tool is named {@code <server>.<tool>} there.
 *
 * <pre>{@code
 * var transport = McpHttpTransports.streamableHttp("http://127.0.0.1:8080").endpoint("/mcp").build();
 * try (HfrMcpClient tracker = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(transport))
 *         .config(McpConfigLoader.load(Path.of("mcp.yaml")))
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
 */
public final class HfrMcpClient implements AutoCloseable {

  private final RecoveryEngine engine;
  private final String server;
  private final McpSyncClient client;
  private final McpServerSettings settings;
  private final ThreadLocal<HttpFailureCapture> capture;
  private volatile Map<String, Entry> tools = Map.of();
  /** Descriptors by tool name and risk: the engine keeps its per-tool state by descriptor. */
  private final Map<String, ToolDescriptor> descriptors = new ConcurrentHashMap<>();

  /** What HFR knows about one tool of the server. */
  private record Entry(McpSchema.Tool tool, McpToolRisk risk, ToolDescriptor descriptor) {}

  private HfrMcpClient(RecoveryEngine engine, String server, McpSyncClient client, McpServerSettings settings,
      ThreadLocal<HttpFailureCapture> capture) {
    this.engine = engine;
    this.server = server;
    this.client = client;
    this.settings = settings;
    this.capture = capture;
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
   */
  public static HfrMcpClient wrap(RecoveryEngine engine, String server, McpSyncClient client, McpClientConfig config) {
    HfrMcpClient c = new HfrMcpClient(engine, server, client, config.server(server), new ThreadLocal<>());
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
    Entry e = tools.get(request.name());
    if (e == null) {
      // unknown here: the list may have changed without a notification; the server decides otherwise
      refreshTools();
      e = tools.get(request.name());
    }
    ToolDescriptor descriptor = e != null ? e.descriptor() : unlisted(request.name());
    McpReconcile reconcile = e != null ? e.risk().reconcile() : null;
    return engine.execute(descriptor, new McpToolCall(this, request.name(), request.arguments(), request.meta(), reconcile));
  }

  /** The risk HFR recovers {@code tool} at, or {@code null} when the server does not list it. */
  public McpToolRisk risk(String tool) {
    Entry e = tools.get(tool);
    return e == null ? null : e.risk();
  }

  /** The HFR descriptor of {@code tool}, or {@code null} when the server does not list it. */
  public ToolDescriptor descriptor(String tool) {
    Entry e = tools.get(tool);
    return e == null ? null : e.descriptor();
  }

  /** The tools as last listed, with their hints. */
  public List<McpSchema.Tool> tools() {
    List<McpSchema.Tool> out = new ArrayList<>();
    tools.values().forEach(e -> out.add(e.tool()));
    return out;
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
    onToolsChanged(all);
  }

  /** Rebuilds the mapping from a tool list (the SDK calls this on {@code tools/list_changed}). */
  void onToolsChanged(List<McpSchema.Tool> list) {
    Map<String, Entry> next = new LinkedHashMap<>();
    for (McpSchema.Tool t : list) {
      McpToolRisk risk = McpToolRisk.resolve(t, settings);
      next.put(t.name(), new Entry(t, risk, descriptor(t.name(), risk)));
    }
    tools = java.util.Collections.unmodifiableMap(next);  // in the server's listing order
  }

  private ToolDescriptor unlisted(String tool) {
    return descriptor(tool, new McpToolRisk(Risk.R3, Risk.R3, null, "not listed by the server: R3"));
  }

  private ToolDescriptor descriptor(String tool, McpToolRisk risk) {
    McpToolSettings s = settings.tool(tool);
    String cacheKey = tool + '\u0000' + risk.effective() + '\u0000' + (risk.reconcile() != null);
    return descriptors.computeIfAbsent(cacheKey, k -> {
      ToolDescriptor.Builder b = ToolDescriptor.builder("mcp." + server, tool, risk.effective())
          .parameters("arguments")
          .resultType(McpSchema.CallToolResult.class);
      if (risk.effective() == Risk.R3) {
        b.retry(RetrySpec.NONE);
      }
      if (risk.reconcile() != null) {
        b.reconcile(risk.reconcile().tool());
      }
      if (s.approval() != null) {
        b.requiresApproval(s.approval());
      }
      if (s.criticality() != null) {
        b.criticality(s.criticality());
      }
      return b.build();
    });
  }

  /** {@code server.tool}, the name HFR gives the tool. */
  String qualified(String tool) {
    return server + "." + tool;
  }

  /**
   * Sends one request; an expired session is sent once more (the SDK re-initializes, the server ran
   * nothing); other failures are translated for the classifier.
   */
  McpSchema.CallToolResult send(McpSchema.CallToolRequest request) {
    try {
      return sendOnce(request, true);
    } catch (SessionExpired expired) {
      return sendOnce(request, false);
    }
  }

  private McpSchema.CallToolResult sendOnce(McpSchema.CallToolRequest request, boolean mayReconnect) {
    HttpFailureCapture c = HttpFailureCapture.open();
    capture.set(c);
    try {
      return client.callTool(request);
    } catch (RuntimeException e) {
      if (mayReconnect && McpFailures.sessionExpired(e, c)) {
        throw new SessionExpired();
      }
      throw McpFailures.translate(qualified(request.name()), "mcp:" + server + "/" + request.name(), e, c);
    } finally {
      capture.remove();
      c.close();
    }
  }

  /** The server did not know the session: nothing ran, the SDK re-initializes, the request goes again. */
  private static final class SessionExpired extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SessionExpired() {
      super(null, null, false, false);
    }
  }

  @Override
  public void close() {
    client.close();
  }

  /** Builds an {@link HfrMcpClient} around the SDK's client spec. */
  public static final class Builder {
    private final RecoveryEngine engine;
    private final String server;
    private final McpClient.SyncSpec spec;
    private McpClientConfig config = McpClientConfig.EMPTY;

    private Builder(RecoveryEngine engine, String server, McpClient.SyncSpec spec) {
      this.engine = Objects.requireNonNull(engine, "engine");
      this.server = Objects.requireNonNull(server, "server");
      this.spec = Objects.requireNonNull(spec, "spec");
      if (!server.matches("[A-Za-z0-9_-]+")) {
        throw new IllegalArgumentException("server must hold only letters, digits, '_' and '-' (it names the tools"
            + " <server>.<tool>), was \"" + server + "\"");
      }
    }

    /** The {@code mcp} configuration; its {@code servers.<server>} entry applies. */
    public Builder config(McpClientConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /** Registers HFR's hooks on the spec, builds and initializes the client, lists the tools. */
    public HfrMcpClient build() {
      ThreadLocal<HttpFailureCapture> capture = new ThreadLocal<>();
      HfrMcpClient[] self = new HfrMcpClient[1];
      spec.transportContextProvider(() -> {
        HttpFailureCapture c = capture.get();
        return c == null ? McpTransportContext.EMPTY : McpTransportContext.create(Map.of(HttpFailureCapture.CONTEXT_KEY, c));
      });
      spec.toolsChangeConsumer(list -> {
        if (self[0] != null) {
          self[0].onToolsChanged(list);
        }
      });
      McpSyncClient client = spec.build();
      HfrMcpClient c = new HfrMcpClient(engine, server, client, config.server(server), capture);
      self[0] = c;
      client.initialize();
      c.refreshTools();
      return c;
    }
  }
}
