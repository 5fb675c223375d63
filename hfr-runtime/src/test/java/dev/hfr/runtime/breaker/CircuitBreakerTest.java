package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@DisplayName("CircuitBreaker: trips on error rate, 429 rate, p95 latency or consecutive failures (§4.7)")
class CircuitBreakerTest {

  private static final long MS = 1_000_000L;
  private final VirtualTime time = new VirtualTime();

  private CircuitBreaker breaker(CircuitBreakerConfig config) {
    return new CircuitBreaker(TargetKind.TOOL, "Orders.find", config, time, new SplittableRandom(1));
  }

  private static CircuitBreakerConfig.Builder quiet() {
    // Only the condition under test can trip: the others are set out of reach.
    return CircuitBreakerConfig.builder().windowSize(20).minimumCalls(10).errorRateThreshold(1.0)
        .rateLimitedRateThreshold(1.0).consecutiveFailures(1_000).cooldownJitter(0);
  }

  private static void call(CircuitBreaker b, Fault fault, long latencyNanos) {
    assertThat(b.tryAcquire()).isTrue();
    if (fault == null) {
      b.onSuccess(latencyNanos);
    } else {
      b.onFailure(fault, latencyNanos);
    }
  }

  @Test
  @DisplayName("K consecutive failures trip it; a success in between restarts the count")
  void consecutiveFailures() {
    CircuitBreaker b = breaker(quiet().consecutiveFailures(3).build());
    call(b, Fault.T1, MS);
    call(b, Fault.T3, MS);
    call(b, null, MS);
    call(b, Fault.T1, MS);
    call(b, Fault.T2, MS);
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    call(b, Fault.T4, MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
    assertThat(b.lastTripReason()).isEqualTo(TripReason.CONSECUTIVE_FAILURES);
    assertThat(b.tryAcquire()).isFalse();
    assertThat(b.allowsRetries()).isFalse();
  }

  @Test
  @DisplayName("the error rate trips only above the threshold and with the minimum number of calls")
  void errorRate() {
    CircuitBreaker b = breaker(quiet().errorRateThreshold(0.5).build());
    for (int i = 0; i < 5; i++) {
      call(b, Fault.T1, MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED); // 5 calls < minimumCalls 10
    for (int i = 0; i < 5; i++) {
      call(b, null, MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED); // 5/10 = 0.5, not above
    call(b, Fault.T1, MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN); // 6/11
    assertThat(b.lastTripReason()).isEqualTo(TripReason.ERROR_RATE);
  }

  @Test
  @DisplayName("429s have their own rate and do not count as errors")
  void rateLimitedRate() {
    CircuitBreaker b = breaker(quiet().errorRateThreshold(0.3).rateLimitedRateThreshold(0.6).build());
    for (int i = 0; i < 6; i++) {
      call(b, Fault.T2, MS);
    }
    for (int i = 0; i < 4; i++) {
      call(b, null, MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    call(b, Fault.T2, MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
    assertThat(b.lastTripReason()).isEqualTo(TripReason.RATE_LIMITED_RATE);
  }

  @Test
  @DisplayName("p95 latency: trips when more than 5% of the window is slower than the threshold")
  void p95Latency() {
    CircuitBreaker b = breaker(quiet().windowSize(20).minimumCalls(20).latencyThreshold(0.95, Duration.ofMillis(500)).build());
    // 20 calls, one slow: p95 (nearest rank, the 19th smallest) is fast.
    call(b, null, 900 * MS);
    for (int i = 0; i < 19; i++) {
      call(b, null, 100 * MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    // A second slow call in the last 20: the 19th smallest is now slow.
    call(b, null, 600 * MS);
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED); // the first slow one slid out of the window
    call(b, null, 700 * MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
    assertThat(b.lastTripReason()).isEqualTo(TripReason.SLOW_CALLS);
  }

  @Test
  @DisplayName("caller faults (T6, T7, T8, V1) say nothing about the target's health")
  void callerFaultsAreHealthy() {
    CircuitBreaker b = breaker(quiet().consecutiveFailures(2).errorRateThreshold(0.1).build());
    for (int i = 0; i < 20; i++) {
      call(b, i % 4 == 0 ? Fault.T6 : i % 4 == 1 ? Fault.T7 : i % 4 == 2 ? Fault.T8 : Fault.V1, MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
  }

  @Test
  @DisplayName("calls older than the window's duration no longer count")
  void windowDuration() {
    CircuitBreaker b = breaker(quiet().windowDuration(Duration.ofSeconds(10)).errorRateThreshold(0.5).build());
    for (int i = 0; i < 9; i++) {
      call(b, Fault.T1, MS);
    }
    time.advance(Duration.ofSeconds(11).toNanos());
    for (int i = 0; i < 9; i++) {
      call(b, null, MS);
    }
    call(b, Fault.T1, MS);
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED); // 1 error in 10 recent calls
  }

  @Test
  @DisplayName("under contention, lock-free successes still dilute rare failures: the breaker stays closed")
  void contentionWithRareFailures() throws Exception {
    CircuitBreaker b = breaker(CircuitBreakerConfig.builder().windowSize(100).minimumCalls(50).errorRateThreshold(0.5)
        .consecutiveFailures(1_000).build());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < 20_000; i++) {
          assertThat(b.tryAcquire()).isTrue();
          if ((i + thread) % 10 == 0) {
            b.onFailure(Fault.T1, MS);
          } else {
            b.onSuccess(MS, time.nanoTime());
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    assertThat(b.openedCount()).isZero();
  }

  @Test
  @DisplayName("successes are counted without the lock, yet weigh in the window in the order they came")
  void lockFreeSuccessesKeepTheirPlace() {
    CircuitBreaker b = breaker(quiet().windowSize(10).errorRateThreshold(0.5).build());
    for (int i = 0; i < 6; i++) {
      call(b, null, MS);
    }
    for (int i = 0; i < 5; i++) {
      call(b, Fault.T1, MS);
    }
    // The window is the last 10: 5 successes and 5 errors, not above half.
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    call(b, Fault.T1, MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN); // 6 errors in the last 10
    assertThat(b.lastTripReason()).isEqualTo(TripReason.ERROR_RATE);
  }

  @Test
  @DisplayName("successes counted in a caller's shared counter weigh in the window exactly like the breaker's own, and only those")
  void sharedSuccessCount() {
    CircuitBreaker b = breaker(quiet().windowSize(10).errorRateThreshold(0.5).build());
    LongAdder meter = new LongAdder();
    meter.add(1_000); // counted before it was shared: not the breaker's successes
    b.shareSuccessCount(meter);
    for (int i = 0; i < 3; i++) {
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.onSuccessCountedIn(MS, time.nanoTime(), meter)).as("counted in the shared counter").isTrue();
    }
    for (int i = 0; i < 3; i++) {
      call(b, null, MS);
    }
    assertThat(meter.sum()).as("one increment per success counted there, none for the breaker's own").isEqualTo(1_003);
    for (int i = 0; i < 5; i++) {
      call(b, Fault.T1, MS);
    }
    // The same as lockFreeSuccessesKeepTheirPlace: the last 10 are 5 successes and 5 errors, not above half.
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    call(b, Fault.T1, MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
    assertThat(b.lastTripReason()).isEqualTo(TripReason.ERROR_RATE);
  }

  @Test
  @DisplayName("a success the breaker records under its lock (slow, or not closed) is left to the caller to count")
  void sharedCountOnlyForLockFreeSuccesses() {
    CircuitBreaker b = breaker(quiet().latencyThreshold(0.5, Duration.ofMillis(10)).build());
    LongAdder meter = new LongAdder();
    b.shareSuccessCount(meter);
    assertThat(b.tryAcquire()).isTrue();
    assertThat(b.onSuccessCountedIn(20 * MS, time.nanoTime(), meter)).as("slow: recorded under the lock").isFalse();
    assertThat(meter.sum()).isZero();
    b.holdOpen(time.nanoTime() + Duration.ofSeconds(1).toNanos());
    assertThat(b.onSuccessCountedIn(MS, time.nanoTime(), meter)).as("open: a late success").isFalse();
    assertThat(meter.sum()).isZero();
  }

  @Test
  @DisplayName("shared successes not yet in the window are forgotten with it when the breaker opens, like its own")
  void sharedCountClearedOnOpen() {
    CircuitBreaker b = breaker(quiet().errorRateThreshold(0.5).build());
    LongAdder meter = new LongAdder();
    b.shareSuccessCount(meter);
    for (int i = 0; i < 5; i++) {
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.onSuccessCountedIn(MS, time.nanoTime(), meter)).isTrue();
    }
    long until = time.nanoTime() + Duration.ofSeconds(1).toNanos();
    b.holdOpen(until);
    time.advance(Duration.ofSeconds(2).toNanos());
    for (int i = 0; i < b.config().halfOpenProbes(); i++) {
      call(b, null, MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    for (int i = 0; i < 9; i++) {
      call(b, Fault.T1, MS);
    }
    // Nine calls since it closed, under minimumCalls (10); the five successes from before it opened would make 14.
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    call(b, Fault.T1, MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
  }

  @Test
  @DisplayName("a success reported with the caller's clock reading leaves the window when that reading is too old")
  void successesAtTheCallersReading() {
    CircuitBreaker b = breaker(quiet().windowDuration(Duration.ofSeconds(10)).errorRateThreshold(0.5).build());
    long start = time.nanoTime();
    for (int i = 0; i < 10; i++) {
      assertThat(b.tryAcquire()).isTrue();
      b.onSuccess(0, start);
    }
    time.advance(Duration.ofSeconds(11).toNanos());
    for (int i = 0; i < 9; i++) {
      call(b, Fault.T1, MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED); // only 9 recent calls: below minimumCalls
    call(b, Fault.T1, MS);
    assertThat(b.state()).isEqualTo(CircuitState.OPEN); // the ten old successes no longer dilute the rate
  }

  @Nested
  @DisplayName("open and half-open")
  class OpenAndHalfOpen {

    private CircuitBreaker tripped(CircuitBreakerConfig config) {
      CircuitBreaker b = breaker(config);
      call(b, Fault.T1, MS);
      assertThat(b.state()).isEqualTo(CircuitState.OPEN);
      return b;
    }

    @Test
    @DisplayName("refuses every call until the cooldown ends, then lets exactly the configured probes through")
    void cooldownThenBoundedProbes() {
      CircuitBreaker b = tripped(quiet().consecutiveFailures(1).cooldown(Duration.ofSeconds(30)).halfOpenProbes(2).build());
      time.advance(Duration.ofSeconds(29).toNanos());
      assertThat(b.tryAcquire()).isFalse();
      time.advance(Duration.ofSeconds(1).toNanos());
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.state()).isEqualTo(CircuitState.HALF_OPEN);
      assertThat(b.allowsRetries()).isFalse();
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.tryAcquire()).isFalse();
      b.onSuccess(MS);
      assertThat(b.state()).isEqualTo(CircuitState.HALF_OPEN);
      b.onSuccess(MS);
      assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
      assertThat(b.tryAcquire()).isTrue();
    }

    @Test
    @DisplayName("a failed probe reopens with a longer cooldown, capped at the maximum")
    void failedProbeExtendsCooldown() {
      CircuitBreaker b = tripped(quiet().consecutiveFailures(1).halfOpenProbes(1).cooldown(Duration.ofSeconds(10))
          .cooldownMultiplier(2).maxCooldown(Duration.ofSeconds(30)).build());
      long[] expected = {20, 30, 30};
      for (long seconds : expected) {
        time.advance(b.openUntilNanos() - time.nanoTime());
        assertThat(b.tryAcquire()).isTrue();
        b.onFailure(Fault.T1, MS);
        assertThat(b.state()).isEqualTo(CircuitState.OPEN);
        assertThat(b.lastTripReason()).isEqualTo(TripReason.PROBE_FAILED);
        assertThat(b.openUntilNanos() - time.nanoTime()).isEqualTo(Duration.ofSeconds(seconds).toNanos());
      }
      assertThat(b.openedCount()).isEqualTo(4);
    }

    @Test
    @DisplayName("the cooldown is jittered within ± the jitter fraction, and spreads over that range")
    void cooldownIsJittered() {
      CircuitBreakerConfig config = quiet().consecutiveFailures(1).cooldown(Duration.ofSeconds(30)).cooldownJitter(0.2).build();
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int seed = 0; seed < 200; seed++) {
        CircuitBreaker b = new CircuitBreaker(TargetKind.PROVIDER, "p", config, time, new SplittableRandom(seed));
        call(b, Fault.T1, MS);
        long cooldown = b.openUntilNanos() - time.nanoTime();
        min = Math.min(min, cooldown);
        max = Math.max(max, cooldown);
      }
      assertThat(min).isGreaterThanOrEqualTo(Duration.ofSeconds(24).toNanos());
      assertThat(max).isLessThanOrEqualTo(Duration.ofSeconds(36).toNanos());
      assertThat(max - min).isGreaterThan(Duration.ofSeconds(10).toNanos());
    }

    @Test
    @DisplayName("a released probe permit can be taken again; late results of calls admitted before opening are ignored")
    void releaseAndLateResults() {
      CircuitBreaker b = breaker(quiet().consecutiveFailures(2).halfOpenProbes(1).build());
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.tryAcquire()).isTrue();
      b.onFailure(Fault.T1, MS);
      b.onFailure(Fault.T1, MS);
      assertThat(b.state()).isEqualTo(CircuitState.OPEN);
      b.onSuccess(MS); // the third call, admitted while closed
      assertThat(b.state()).isEqualTo(CircuitState.OPEN);
      time.advance(b.openUntilNanos() - time.nanoTime());
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.tryAcquire()).isFalse();
      b.releasePermit();
      assertThat(b.tryAcquire()).isTrue();
      b.onSuccess(MS);
      assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    @DisplayName("probes that never report back are presumed lost after a cooldown, so the breaker cannot stick half-open")
    void lostProbesAreReissued() {
      CircuitBreaker b = tripped(quiet().consecutiveFailures(1).cooldown(Duration.ofSeconds(10)).halfOpenProbes(1).build());
      time.advance(b.openUntilNanos() - time.nanoTime());
      assertThat(b.tryAcquire()).isTrue(); // this probe's caller never reports
      time.advance(Duration.ofSeconds(10).toNanos());
      assertThat(b.tryAcquire()).isFalse();
      time.advance(1);
      assertThat(b.tryAcquire()).isTrue();
      b.onSuccess(MS);
      assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    @DisplayName("the listener hears every transition, with the trip reason on opening")
    void listenerHearsTransitions() {
      List<String> heard = new ArrayList<>();
      CircuitBreakerListener listener = new CircuitBreakerListener() {
        @Override
        public void onStateChange(CircuitBreaker breaker, CircuitState from, CircuitState to, TripReason reason) {
          heard.add(from + "->" + to + (reason == null ? "" : ":" + reason.code()));
        }
      };
      CircuitBreaker b = new CircuitBreaker(TargetKind.TOOL, "t", quiet().consecutiveFailures(1).halfOpenProbes(1).build(),
          time, new SplittableRandom(1), listener);
      call(b, Fault.T1, MS);
      time.advance(b.openUntilNanos() - time.nanoTime());
      call(b, Fault.T3, MS);
      time.advance(b.openUntilNanos() - time.nanoTime());
      call(b, null, MS);
      assertThat(heard).containsExactly(
          "CLOSED->OPEN:consecutive_failures", "OPEN->HALF_OPEN", "HALF_OPEN->OPEN:probe_failed", "OPEN->HALF_OPEN", "HALF_OPEN->CLOSED");
    }

    @Test
    @DisplayName("reset closes an open breaker")
    void reset() {
      CircuitBreaker b = tripped(quiet().consecutiveFailures(1).build());
      b.reset();
      assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
      assertThat(b.state().gaugeValue()).isZero();
      assertThat(CircuitState.OPEN.gaugeValue()).isEqualTo(1);
      assertThat(CircuitState.HALF_OPEN.gaugeValue()).isEqualTo(2);
    }
  }

  @Test
  @DisplayName("under 8 threads it trips once, keeps refusing while open, and loses no permit accounting")
  void contention() throws Exception {
    CircuitBreaker b = breaker(CircuitBreakerConfig.builder().windowSize(100).minimumCalls(50).errorRateThreshold(0.5)
        .consecutiveFailures(1_000).cooldown(Duration.ofSeconds(30)).build());
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    Future<?>[] futures = new Future<?>[8];
    for (int t = 0; t < 8; t++) {
      int thread = t;
      futures[t] = pool.submit(() -> {
        start.await();
        for (int i = 0; i < 20_000; i++) {
          if (b.tryAcquire()) {
            admitted.incrementAndGet();
            if ((i + thread) % 3 == 0) {
              b.onSuccess(MS);
            } else {
              b.onFailure(Fault.T1, MS);
            }
          } else {
            refused.incrementAndGet();
          }
        }
        return null;
      });
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
    assertThat(b.openedCount()).isEqualTo(1);
    assertThat(admitted.get() + refused.get()).isEqualTo(160_000);
    assertThat(refused.get()).isGreaterThan(150_000);
  }

  @Test
  @DisplayName("8 threads racing for probes of a half-open breaker get exactly the configured number")
  void halfOpenProbesUnderContention() throws Exception {
    for (int round = 0; round < 20; round++) {
      CircuitBreaker b = breaker(quiet().consecutiveFailures(1).halfOpenProbes(3).build());
      call(b, Fault.T1, MS);
      time.advance(b.openUntilNanos() - time.nanoTime());
      AtomicInteger granted = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      CountDownLatch start = new CountDownLatch(1);
      Future<?>[] futures = new Future<?>[8];
      for (int t = 0; t < 8; t++) {
        futures[t] = pool.submit(() -> {
          start.await();
          for (int i = 0; i < 100; i++) {
            if (b.tryAcquire()) {
              granted.incrementAndGet();
            }
          }
          return null;
        });
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
      pool.shutdown();
      assertThat(granted.get()).isEqualTo(3);
      assertThat(b.state()).isEqualTo(CircuitState.HALF_OPEN);
    }
  }

  @Test
  @DisplayName("the config builder names the bad argument")
  void configChecks() {
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().windowSize(0)).hasMessageContaining("windowSize");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().errorRateThreshold(1.5)).hasMessageContaining("errorRateThreshold");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().rateLimitedRateThreshold(0)).hasMessageContaining("rateLimitedRateThreshold");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().latencyThreshold(1.0, Duration.ofSeconds(1))).hasMessageContaining("latencyPercentile");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().cooldown(Duration.ZERO)).hasMessageContaining("cooldown");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().cooldownJitter(1.0)).hasMessageContaining("cooldownJitter");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().halfOpenProbes(0)).hasMessageContaining("halfOpenProbes");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().windowSize(5).minimumCalls(6).build()).hasMessageContaining("minimumCalls");
    assertThatThrownBy(() -> CircuitBreakerConfig.builder().maxCooldown(Duration.ofSeconds(1)).build()).hasMessageContaining("maxCooldown");
    CircuitBreakerConfig d = CircuitBreakerConfig.defaults();
    assertThat(d.errorRateThreshold()).isEqualTo(0.5);
    assertThat(d.consecutiveFailures()).isEqualTo(5);
    assertThat(d.cooldown()).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.halfOpenProbes()).isEqualTo(2);
  }
}
