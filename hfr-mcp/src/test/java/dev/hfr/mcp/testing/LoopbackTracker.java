package dev.hfr.mcp.testing;

import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpHttpTransports;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * What a test of HFR's MCP client, or of an adapter over it, starts with: the {@link IssueTracker} served on
 * loopback with the {@link FaultPlan}'s faults, an engine with an embedded ledger, and an {@link HfrMcpClient}
 * of the tracker named {@code tracker} through that engine, set up by the test's own {@code mcp:} block.
 */
public final class LoopbackTracker implements AutoCloseable {

  /** What the tracker's operator vouches for: the create is R2 (reconciled by a search), the search R0, the label R1. */
  public static final String CONFIG = """
      mcp:
        servers:
          tracker:
            tools:
              create_issue:
                risk: R2
                reconcile: {tool: search_issues, arguments: {query: title}, found_at: /items}
              search_issues:
                risk: R0
              label_issue:
                risk: R1
      """;

  private static final Duration INITIALIZATION_TIMEOUT = Duration.ofSeconds(60);

  private final IssueTracker tracker = new IssueTracker();
  private final FaultPlan faults = new FaultPlan();
  private final Duration requestTimeout;
  private final FaultyMcpServer server;
  private final EmbeddedFileLedger ledger;
  private final Hfr hfr;
  private final HfrMcpClient client;

  /**
   * Starts the server (its create tool with {@code createHints}), an engine on a ledger in {@code dir} built by
   * {@code engine} from a builder that has the ledger, and the client (configured by {@code mcpConfig}, each
   * request bounded by {@code requestTimeout}).
   */
  public LoopbackTracker(Path dir, McpSchema.ToolAnnotations createHints, String mcpConfig, Duration requestTimeout,
      UnaryOperator<Hfr.Builder> engine) {
    this.requestTimeout = requestTimeout;
    server = FaultyMcpServer.start(faults, tracker.tools(createHints));
    ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
    hfr = engine.apply(Hfr.builder().ledger(ledger)).build();
    client = HfrMcpClient.builder(hfr, "tracker", syncSpec()).config(McpConfigs.parse(mcpConfig)).build();
  }

  /** The honest tracker, a plain engine, requests bounded by 30 s. */
  public static LoopbackTracker start(Path dir, String mcpConfig) {
    return new LoopbackTracker(dir, IssueTracker.HONEST_CREATE, mcpConfig, Duration.ofSeconds(30), b -> b);
  }

  /** A new SDK client spec of the tracker, with this fixture's timeouts and a transport HFR can read failures from. */
  public McpClient.SyncSpec syncSpec() {
    return McpClient.sync(McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
        .requestTimeout(requestTimeout).initializationTimeout(INITIALIZATION_TIMEOUT);
  }

  /** The same as {@link #syncSpec()} for the SDK's asynchronous client. */
  public McpClient.AsyncSpec asyncSpec() {
    return McpClient.async(McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
        .requestTimeout(requestTimeout).initializationTimeout(INITIALIZATION_TIMEOUT);
  }

  /** The issues as the server keeps them: what committed, how often. */
  public IssueTracker tracker() {
    return tracker;
  }

  public FaultPlan faults() {
    return faults;
  }

  public FaultyMcpServer server() {
    return server;
  }

  public EmbeddedFileLedger ledger() {
    return ledger;
  }

  public Hfr hfr() {
    return hfr;
  }

  public HfrMcpClient client() {
    return client;
  }

  @Override
  public void close() throws java.io.IOException {
    client.close();
    hfr.close();
    ledger.close();
    server.close();
  }
}
