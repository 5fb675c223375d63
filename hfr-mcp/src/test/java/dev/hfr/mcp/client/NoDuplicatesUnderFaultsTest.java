package dev.hfr.mcp.client;

import dev.hfr.mcp.testing.McpConfigs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.LoopbackTracker;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guarantee, through the path a user takes: 500 creates against the SDK's server on loopback, a third
 * of them hit by a fault (commit-then-drop, 503, 429, an expired session, an overloaded isError answer),
 * the reconcile tool failing now and then too — and the server counts no duplicate issue. The same faults
 * (same seed) against a plain SDK client that retries a failed call up to 3 times, as agent loops do,
 * produce duplicates: the test counts them too.
 *
 * <p>About 40 s on 2 cores: 2 × 500 real HTTP calls plus their retries; the issue asks for at least 500.
 */
class NoDuplicatesUnderFaultsTest {

  static final int CALLS = 500;
  static final long SEED = 42;

  /** Short backoffs keep the run short; breakers and budgets loose enough that every call is tried. */
  static final String HFR_CONFIG = """
      hfr:
        retry:
          base_delay_ms: 2
          max_delay_ms: 10
          max_retries_per_tenant_per_min: 100000
        circuit_breaker:
          error_rate_threshold: 1.0
          rate_limit_threshold: 1.0
          consecutive_failures: 1000
      """;

  @TempDir Path dir;

  static void plan(FaultPlan faults) {
    faults.random("create_issue", SEED, 0.33, new McpFault.DropAfterCommit(), new McpFault.Unavailable(),
        new McpFault.RateLimited(0), new McpFault.SessionExpired(),
        new McpFault.ErrorResult("The service is overloaded, try again later"));
    faults.random("search_issues", SEED + 1, 0.10, new McpFault.Unavailable());
  }

  @Test
  void hfrCommitsEveryIssueAtMostOnceWhereAPlainRetryingClientDuplicates() throws Exception {
    Warmup.once();
    Result hfr = withHfr();
    Result plain = withoutHfr();
    System.out.printf("MCP duplicates over %d creates, fault rate 0.33 (seed %d):%n", CALLS, SEED);
    System.out.printf("  with HFR:    %d faults injected, %d dropped answers, %d committed, %d duplicates, %d failed%n",
        hfr.faults, hfr.dropped, hfr.committed, hfr.duplicates, hfr.failed);
    System.out.printf("  without HFR: %d faults injected, %d dropped answers, %d committed, %d duplicates, %d failed%n",
        plain.faults, plain.dropped, plain.committed, plain.duplicates, plain.failed);
    assertThat(hfr.faults).isGreaterThan(CALLS / 5);
    assertThat(hfr.duplicates).isZero();
    assertThat(plain.duplicates).isPositive();
  }

  record Result(long faults, long dropped, long committed, long duplicates, long failed) {}

  private Result withHfr() throws Exception {
    IssueTracker tracker = new IssueTracker();
    FaultPlan faults = new FaultPlan();
    long failed = 0;
    try (FaultyMcpServer server = FaultyMcpServer.start(faults, tracker.tools(IssueTracker.HONEST_CREATE));
         EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
         Hfr hfr = Hfr.builder().ledger(ledger).config(HfrConfigLoader.parse(HFR_CONFIG, "hfr.yaml")).seed(SEED).build();
         HfrMcpClient client = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(
                 McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
                 .requestTimeout(Duration.ofSeconds(10)))
             .config(McpConfigs.parse(LoopbackTracker.CONFIG))
             .build()) {
      plan(faults);
      for (int i = 0; i < CALLS; i++) {
        // one task per issue, as an agent run would have; the ledger key is derived in it
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "issue-" + i).build());
        try {
          client.callTool("create_issue", Map.of("title", "issue-" + i));
        } catch (ToolCallException e) {
          failed++;
        } finally {
          task.close();
        }
      }
      faults.clearRandom();
      return new Result(faults.injected(), server.dropped(), tracker.distinctCreated(), tracker.duplicates(), failed);
    }
  }

  /** The same faults against the SDK client alone, retried up to 3 attempts on any failure. */
  private Result withoutHfr() throws Exception {
    IssueTracker tracker = new IssueTracker();
    FaultPlan faults = new FaultPlan();
    long failed = 0;
    try (FaultyMcpServer server = FaultyMcpServer.start(faults, tracker.tools(IssueTracker.HONEST_CREATE))) {
      McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.url())
          .endpoint(FaultyMcpServer.ENDPOINT).build()).requestTimeout(Duration.ofSeconds(10)).build();
      client.initialize();
      plan(faults);
      for (int i = 0; i < CALLS; i++) {
        boolean done = false;
        for (int attempt = 1; attempt <= 3 && !done; attempt++) {
          try {
            McpSchema.CallToolResult r = client.callTool(
                new McpSchema.CallToolRequest("create_issue", Map.of("title", "issue-" + i), null));
            done = !Boolean.TRUE.equals(r.isError());
          } catch (RuntimeException e) {
            done = false;
          }
        }
        failed += done ? 0 : 1;
      }
      faults.clearRandom();
      client.close();
      return new Result(faults.injected(), server.dropped(), tracker.distinctCreated(), tracker.duplicates(), failed);
    }
  }
}
