package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.LoopbackTracker;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An idempotent (R1) MCP write whose answer was lost is resent under its idempotency key, whatever engine runs it:
 * built without a config, with the paper's default {@code retry_on} (which names {@code T3_readonly}), or with a
 * config loaded as docs/MCP.md shows. No R1 call is left unknown when the server answers the resend.
 */
class IdempotentWriteResentTest {

  static final int CALLS = 30;

  /** The paper's defaults (§5.2) spelled out, beside the tracker's mcp section; short backoffs for loopback. */
  static final String PAPER_DEFAULTS = """
      hfr:
        retry:
          base_delay_ms: 2
          max_delay_ms: 10
          retry_on: [T1, T2, T3_readonly, T6_after_compress]
          never_retry_on: [T7, T8, T3_write_without_idempotency]
      """;

  @TempDir Path dir;

  @ParameterizedTest(name = "engine {0}")
  @ValueSource(strings = {"without a config", "with the paper's default config", "with HfrConfig.defaults()"})
  @DisplayName("every label whose answer dropped after it committed is resent under its key and answered")
  void aLostAnswerOfAnIdempotentWriteIsResent(String engine) throws Exception {
    Warmup.once();
    Supplier<HfrConfig> config = switch (engine) {
      case "with the paper's default config" -> () -> HfrConfigLoader.parse(PAPER_DEFAULTS, "hfr.yaml");
      case "with HfrConfig.defaults()" -> HfrConfig::defaults;
      default -> null;
    };
    try (LoopbackTracker t = new LoopbackTracker(dir, IssueTracker.HONEST_CREATE, LoopbackTracker.CONFIG,
        Duration.ofSeconds(60), b -> config == null ? b : b.config(config.get()))) {
      t.faults().random("label_issue", 7, 0.3, new McpFault.DropAfterCommit());
      int unknown = 0;
      for (int i = 0; i < CALLS; i++) {
        try (TaskScope task = t.hfr().openTask(TaskSpec.builder("acme", "label-" + i).build())) {
          t.client().callTool("label_issue", Map.of("title", "issue-" + i, "label", "p1"));
        } catch (ToolCallException e) {
          unknown++;
        }
      }
      t.faults().clearRandom();
      assertThat(t.server().dropped()).as("answers dropped after the label committed").isPositive();
      assertThat(unknown).as("R1 calls left unknown").isZero();
      assertThat(t.tracker().labelCalls()).as("each dropped label sent once more").isEqualTo(CALLS + t.server().dropped());
    }
  }
}
