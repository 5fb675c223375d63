package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.VirtualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Proposition 1: with a per-step budget B_s and a per-task budget B_t, a task of n steps makes at most
 * {@code min(n(1+B_s), n+B_t)} physical attempts — whatever the faults and the risks. A ladder of L rungs
 * has its own allowance (each rung at most once per call, still charged to B_t), so with a ladder the
 * per-step term is {@code 1+B_s+L}: {@code min(n(1+B_s+L), n+B_t)}.
 */
@SuppressWarnings("try") // scopes opened only so the calls join a task
class AttemptBoundProperties {

  /** What one attempt does: succeed, or fail with one of the real-format signals. */
  enum Outcome {
    OK, T1_503, T2_429, T3_TIMEOUT, T4_OVERLOADED, T6_OVERFLOW, T7_FORBIDDEN, T8_REFUSED, UNCLASSIFIED;

    Exception exception() {
      switch (this) {
        case T1_503: return Fixtures.unavailable();
        case T2_429: return Fixtures.http(429, "retry-after-ms", "5", "{\"error\":{\"type\":\"rate_limit_error\"}}");
        case T3_TIMEOUT: return Fixtures.timeout();
        case T4_OVERLOADED: return Fixtures.overloaded();
        case T6_OVERFLOW: return Fixtures.http(400, "{\"error\":{\"code\":\"context_length_exceeded\"}}");
        case T7_FORBIDDEN: return Fixtures.http(403, "{\"error\":{\"type\":\"permission_error\"}}");
        case T8_REFUSED: return Fixtures.refused();
        default: return new IllegalStateException("something odd");
      }
    }
  }

  @Provide
  Arbitrary<List<Outcome>> script() {
    return Arbitraries.of(Outcome.class).list().ofMinSize(1).ofMaxSize(12);
  }

  @Property(tries = 150)
  @Label("total attempts never exceed min(n(1+Bs+L), n+Bt)")
  void attemptsAreBounded(
      @ForAll @Size(min = 1, max = 6) List<@net.jqwik.api.From("script") List<Outcome>> steps,
      @ForAll @IntRange(min = 1, max = 5) int maxAttemptsPerStep,
      @ForAll @IntRange(min = 0, max = 8) int taskRetries,
      @ForAll("risks") Risk risk,
      @ForAll boolean withLadder) {
    VirtualTime time = new VirtualTime();
    Hfr hfr = Hfr.builder().clock(time).sleeper(time).seed(7).ledger(new InMemoryLedger(time))
        .meterRegistry(new SimpleMeterRegistry()).decisionSink(DecisionSink.discarding()).build();
    ToolDescriptor.Builder b = ToolDescriptor.builder("com.acme.Tool", "call", risk).parameters("arg")
        .retry(RetrySpec.of(maxAttemptsPerStep, 1, 10, Fault.T1, Fault.T2, Fault.T3)).resultType(String.class);
    if (risk == Risk.R1) {
      b = ToolDescriptor.builder("com.acme.Tool", "call", risk).parameters("arg", "key").idempotencyKeyParameter(1)
          .retry(RetrySpec.of(maxAttemptsPerStep, 1, 10, Fault.T1, Fault.T2, Fault.T3)).resultType(String.class);
    }
    if (risk == Risk.R2) {
      b.reconcile("find");
    }
    if (withLadder) {
      b.degradeTo("alt", DegradeLevel.L2, Risk.R0).degradeTo("cheap", DegradeLevel.L3, Risk.R0);
    }
    ToolDescriptor tool = b.build();

    List<ScriptedTool<String>> calls = new ArrayList<>();
    TaskLimits limits = TaskLimits.builder().maxRetries(taskRetries).maxSameToolCalls(100).build();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("t", "task").limits(limits).build())) {
      int i = 0;
      for (List<Outcome> script : steps) {
        ScriptedTool<String> call = risk == Risk.R1 ? new ScriptedTool<>("a" + i, null) : new ScriptedTool<>("a" + i);
        for (Outcome o : script) {
          if (o == Outcome.OK) {
            call.returns("r");
          } else {
            call.fails(o.exception());
          }
          call.rungReturns(0, "alt").rungFails(0, Fixtures.overloaded()).rungReturns(1, "cheap");
        }
        call.reconcileFindsNothing();
        calls.add(call);
        try {
          hfr.execute(tool, call);
        } catch (ToolCallException expected) {
          // failures are fine: only the number of attempts matters here
        }
        i++;
      }
    }
    int attempts = 0;
    for (ScriptedTool<String> c : calls) {
      attempts += c.methodCalls;
      for (int r : c.rungCalls) {
        attempts += r;
      }
    }
    int n = steps.size();
    int rungs = withLadder ? 2 : 0;
    assertThat(attempts).isLessThanOrEqualTo(Math.min(n * (maxAttemptsPerStep + rungs), n + taskRetries));
  }

  @Provide
  Arbitrary<Risk> risks() {
    return Arbitraries.of(Risk.R0, Risk.R1, Risk.R2);
  }
}
