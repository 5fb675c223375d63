package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of the breaker under random interleavings of calls, outcomes and time. */
class CircuitBreakerProperties {

  private static final Duration COOLDOWN = Duration.ofSeconds(10);
  private static final Duration MAX_COOLDOWN = Duration.ofSeconds(40);
  private static final double JITTER = 0.2;

  @Property(tries = 300)
  @Label("open refuses until its cooldown ends, half-open never has more probes out than configured, cooldowns stay in bounds")
  void invariantsHold(
      @ForAll @Size(min = 1, max = 400) List<@IntRange(min = 0, max = 99) Integer> script,
      @ForAll @IntRange(min = 1, max = 4) int probes,
      @ForAll @IntRange(min = 1, max = 6) int consecutive) {
    VirtualTime time = new VirtualTime();
    CircuitBreaker b = new CircuitBreaker(TargetKind.TOOL, "t",
        CircuitBreakerConfig.builder().windowSize(20).minimumCalls(5).consecutiveFailures(consecutive).cooldown(COOLDOWN)
            .cooldownJitter(JITTER).maxCooldown(MAX_COOLDOWN).halfOpenProbes(probes).build(),
        time, new SplittableRandom(script.size()));
    Deque<Long> outstanding = new ArrayDeque<>();
    CircuitState before = b.state();
    for (int op : script) {
      if (op < 40) {
        boolean openAndCooling = b.state() == CircuitState.OPEN && time.nanoTime() < b.openUntilNanos();
        boolean granted = b.tryAcquire();
        if (openAndCooling) {
          assertThat(granted).as("an open breaker refuses during its cooldown").isFalse();
        }
        if (granted) {
          outstanding.add(time.nanoTime());
        }
      } else if (op < 75) {
        if (!outstanding.isEmpty()) {
          outstanding.poll();
          if (op < 55) {
            b.onFailure(op % 2 == 0 ? Fault.T1 : Fault.T2, 1_000);
          } else {
            b.onSuccess(1_000);
          }
        }
      } else {
        time.advance((op - 74) * 1_000_000_000L);
      }
      CircuitState now = b.state();
      if (before != CircuitState.OPEN && now == CircuitState.OPEN) {
        long cooldown = b.openUntilNanos() - time.nanoTime();
        assertThat(cooldown).isBetween((long) (COOLDOWN.toNanos() * (1 - JITTER)) - 1, (long) (MAX_COOLDOWN.toNanos() * (1 + JITTER)) + 1);
      }
      before = now;
    }
  }

  @Property(tries = 200)
  @Label("a target that only succeeds never opens")
  void successesNeverTrip(@ForAll @IntRange(min = 1, max = 2_000) int calls) {
    VirtualTime time = new VirtualTime();
    CircuitBreaker b = new CircuitBreaker(TargetKind.MODEL, "m", CircuitBreakerConfig.defaults(), time, new SplittableRandom(1));
    for (int i = 0; i < calls; i++) {
      assertThat(b.tryAcquire()).isTrue();
      b.onSuccess(5_000_000L);
      time.advance(1_000_000L);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(b.openedCount()).isZero();
  }
}
