package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OneArgumentCall;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.VirtualTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code circuit_breaker.cooldown_multiplier}, {@code max_cooldown_ms} and {@code cooldown_jitter} on a running
 * engine (virtual time): how long an open breaker stops calls after a failed probe, and how much that varies.
 */
@DisplayName("circuit_breaker cooldown keys change how long an open breaker stops calls")
class BreakerCooldownKeysTest {

  private final VirtualTime time = new VirtualTime();

  private Hfr engine(String breaker) {
    return Hfr.builder().clock(time).sleeper(time).seed(42).ledger(new InMemoryLedger())
        .decisionSink(DecisionSink.discarding())
        .config(HfrConfigLoader.parse("hfr:\n  circuit_breaker:\n" + breaker.indent(4), "hfr.yaml")).build();
  }

  private static ToolDescriptor tool(String name) {
    return ToolDescriptor.builder("com.acme.Search", name, Risk.R0).parameters("q")
        .retry(RetrySpec.of(1, 100, 1000, Fault.T1)).resultType(String.class).build();
  }

  private static final ToolDescriptor FLAKY = tool("find");

  /** One call; {@code fail}: the tool answers 503. Returns whether the tool was called (false: the breaker refused). */
  private static boolean call(Hfr hfr, ToolDescriptor tool, boolean fail) {
    AtomicInteger calls = new AtomicInteger();
    ToolInvocation<String> invocation = OneArgumentCall.of("q", () -> {
      calls.incrementAndGet();
      if (fail) {
        throw new HttpCallException(503, Map.of(), "{\"error\":{\"type\":\"service_unavailable\"}}");
      }
      return "ok";
    });
    catchThrowableOfType(ToolCallException.class, () -> hfr.execute(tool, invocation));
    return calls.get() == 1;
  }

  private void advanceMillis(long millis) {
    time.advance(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  /** Opens the breaker, waits out its first cooldown (1 s) and fails the probe: the breaker opens again. */
  private void openThenFailTheProbe(Hfr hfr) {
    assertThat(call(hfr, FLAKY, true)).isTrue();
    advanceMillis(1_001);
    assertThat(call(hfr, FLAKY, true)).as("the probe after the first cooldown").isTrue();
  }

  private static final String BASE = "consecutive_failures: 1\ncooldown_ms: 1000\nhalf_open_probes: 1\ncooldown_jitter: 0\n";

  @Test
  @DisplayName("cooldown_multiplier: after a failed probe the cooldown is multiplied by it (1 keeps it at 1 s)")
  void cooldownMultiplier() {
    Hfr steady = engine(BASE + "cooldown_multiplier: 1");
    openThenFailTheProbe(steady);
    advanceMillis(1_001);
    assertThat(call(steady, FLAKY, false)).as("×1: open again for 1 s").isTrue();

    Hfr growing = engine(BASE + "cooldown_multiplier: 4");
    openThenFailTheProbe(growing);
    advanceMillis(1_001);
    assertThat(call(growing, FLAKY, false)).as("×4 at 1 s").isFalse();
    advanceMillis(3_000);
    assertThat(call(growing, FLAKY, false)).as("×4 at 4 s").isTrue();
  }

  @Test
  @DisplayName("max_cooldown_ms: the grown cooldown stops at it")
  void maxCooldownMs() {
    Hfr capped = engine(BASE + "cooldown_multiplier: 4\nmax_cooldown_ms: 1500");
    openThenFailTheProbe(capped);
    advanceMillis(1_501);
    assertThat(call(capped, FLAKY, false)).as("4 s capped at 1.5 s").isTrue();
  }

  @Test
  @DisplayName("cooldown_jitter: 0 opens every breaker for exactly its cooldown; 0.9 spreads them (some reopen earlier)")
  void cooldownJitter() {
    for (double jitter : new double[] {0, 0.9}) {
      Hfr hfr = engine("consecutive_failures: 1\ncooldown_ms: 1000\ncooldown_jitter: " + jitter);
      long startNanos = time.nanoTime();
      for (int i = 0; i < 10; i++) {
        assertThat(call(hfr, tool("t" + i), true)).isTrue();
      }
      advanceMillis(990 - TimeUnit.NANOSECONDS.toMillis(time.nanoTime() - startNanos));
      int early = 0;
      for (int i = 0; i < 10; i++) {
        if (call(hfr, tool("t" + i), false)) {
          early++;
        }
      }
      if (jitter == 0) {
        assertThat(early).as("no jitter: every cooldown lasts 1 s").isZero();
      } else {
        assertThat(early).as("jitter 0.9: some of 10 cooldowns, drawn in 0.1-1.9 s, end before 1 s").isPositive();
      }
    }
  }
}
