package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.config.HfrConfigLoader;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The ladder comes after retry and has its own allowance: spent retries never make a rung unreachable. */
@DisplayName("A rung is always reachable")
class DegradationAllowanceTest {

  private final Fixtures f = new Fixtures();

  private static ToolDescriptor.Builder quote(RetrySpec retry, Criticality.Level criticality) {
    return ToolDescriptor.builder("com.acme.Quotes", "quote", Risk.R0).parameters("sku").retry(retry)
        .criticality(criticality).resultType(String.class).degradeTo("cachedQuote", DegradeLevel.L4, Risk.R0);
  }

  @Test
  @DisplayName("@Retry(maxAttempts = 1) with an L4 rung at LOW criticality: the rung answers (before: FAIL"
      + " step_budget_exhausted, the rung never called)")
  void singleAttemptStillReachesTheRung() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("sku-1").fails(Fixtures.http(500, "")).rungReturns(0, "cached");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "q-1").build())) {
      String result = hfr.execute(quote(RetrySpec.of(1, 100, 1000, Fault.T1), Criticality.Level.LOW).build(), tool);

      assertThat(result).isEqualTo("cached");
      assertThat(tool.methodCalls).isEqualTo(1);
      assertThat(tool.rungCalls[0]).isEqualTo(1);
      assertThat(task.lastOutcome().degraded()).isTrue();
      assertThat(task.lastOutcome().degradeLevel()).isEqualTo(DegradeLevel.L4);
    }
  }

  @Test
  @DisplayName("YAML max_attempts_per_step: 2, both attempts fail: the rung answers")
  void configuredAttemptsSpentStillReachTheRung() {
    Hfr hfr = f.builder().config(HfrConfigLoader.parse("""
        hfr:
          retry:
            max_attempts_per_step: 2
        """, "hfr.yaml")).build();
    ScriptedTool<String> tool = new ScriptedTool<String>("sku-2").failsTimes(5, Fixtures.http(500, ""))
        .rungReturns(0, "cached");

    String result = hfr.execute(quote(RetrySpec.DEFAULT, Criticality.Level.LOW).build(), tool);

    assertThat(result).isEqualTo("cached");
    assertThat(tool.methodCalls).isEqualTo(2);
    assertThat(tool.rungCalls[0]).isEqualTo(1);
  }

  @Test
  @DisplayName("the allowance does not widen criticality: at HIGH an L4 rung still needs a human")
  void criticalityStillBindsTheLadder() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("sku-3").fails(Fixtures.http(500, "")).rungReturns(0, "cached");

    Throwable thrown = catchThrowable(
        () -> hfr.execute(quote(RetrySpec.of(1, 100, 1000, Fault.T1), Criticality.Level.HIGH).build(), tool));

    assertThat(thrown).isInstanceOf(CallEscalatedException.class);
    assertThat(tool.rungCalls[0]).isZero();
  }
}
