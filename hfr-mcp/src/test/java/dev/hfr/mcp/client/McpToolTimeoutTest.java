package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.LoopbackTracker;
import dev.hfr.mcp.testing.McpConfigs;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An MCP tool's attempts are bounded by the engine's per-tool {@code timeout_ms}, set under the tool's HFR name
 * ({@code hfr.tools."tracker.search_issues"}), as {@code @Timeout} bounds an annotated tool's — well before the
 * SDK's own request timeout (30 s here). A timed-out read is a T3 and sent again.
 */
class McpToolTimeoutTest {

  static final String HFR_YAML = """
      hfr:
        tools:
          "tracker.search_issues":
            timeout_ms: 400
      """;

  /** How late the first answer comes: a call that took this long waited for it instead of timing out. */
  static final long SLOW_MS = 8_000;

  @TempDir Path dir;
  final List<DecisionEvent> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void warmUp() {
    Warmup.once();
  }

  private LoopbackTracker tracker() {
    return new LoopbackTracker(dir, IssueTracker.HONEST_CREATE, LoopbackTracker.CONFIG, Duration.ofSeconds(30),
        engine -> engine.config(HfrConfigLoader.parse(HFR_YAML, "hfr.yaml")).decisionSink(events::add));
  }

  @Test
  void theToolsTimeoutBoundsAnAttemptOfTheBlockingClient() throws Exception {
    try (LoopbackTracker mcp = tracker()) {
      mcp.faults().next("search_issues", new McpFault.SlowAfterCommit(SLOW_MS));
      long start = System.nanoTime();
      McpSchema.CallToolResult r = mcp.client().callTool("search_issues", Map.of("query", "q"));
      assertAnsweredBySecondAttempt(mcp, r, start);
    }
  }

  @Test
  void theToolsTimeoutBoundsAnAttemptOfTheAsynchronousClient() throws Exception {
    try (LoopbackTracker mcp = tracker();
        HfrMcpAsyncClient client = HfrMcpAsyncClient.builder(mcp.hfr(), "tracker", mcp.asyncSpec())
            .config(McpConfigs.parse(LoopbackTracker.CONFIG)).build()) {
      mcp.faults().next("search_issues", new McpFault.SlowAfterCommit(SLOW_MS));
      long start = System.nanoTime();
      McpSchema.CallToolResult r = client.callTool("search_issues", Map.of("query", "q")).get(30, TimeUnit.SECONDS);
      assertAnsweredBySecondAttempt(mcp, r, start);
    }
  }

  private void assertAnsweredBySecondAttempt(LoopbackTracker mcp, McpSchema.CallToolResult r, long start) {
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(r.structuredContent()).isEqualTo(Map.of("items", List.of()));
    assertThat(millis).as("answered without waiting for the late answer").isLessThan(SLOW_MS);
    assertThat(mcp.tracker().searchCalls()).isEqualTo(2);
    DecisionEvent first = events.stream().filter(e -> e.tool().equals("tracker.search_issues")).findFirst().orElseThrow();
    assertThat(first.fault()).isEqualTo(Fault.T3);
    assertThat(first.action()).isEqualTo(Action.RETRY);
  }
}
