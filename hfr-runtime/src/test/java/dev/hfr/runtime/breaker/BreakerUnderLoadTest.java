package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The default breaker at the volume of a busy service, on virtual time: it must stay closed on faults that are
 * random and moderate, open on a target that fails, recover against a target that answers most calls, and not
 * judge a target by the timeouts of our own cold start.
 */
@DisplayName("The default breaker at hundreds of calls a second")
class BreakerUnderLoadTest {

  private static final long MS = 1_000_000L;
  private final VirtualTime time = new VirtualTime();

  private CircuitBreaker defaults() {
    return new CircuitBreaker(TargetKind.TOOL, "Mail.send", CircuitBreakerConfig.defaults(), time, new SplittableRandom(7));
  }

  /** One call at 400 a second that fails with {@code fault} (null: succeeds), if the breaker admits it. */
  private boolean call(CircuitBreaker b, Fault fault) {
    time.advance(Duration.ofMillis(1).toNanos() * 5 / 2);
    if (!b.tryAcquire()) {
      return false;
    }
    if (fault == null) {
      b.onSuccess(20 * MS);
    } else {
      b.onFailure(fault, 20 * MS);
    }
    return true;
  }

  @Test
  @DisplayName("a fifth of calls failing at random for ten minutes at 400 calls a second never opens it")
  void randomFaultsAtVolumeKeepItClosed() {
    CircuitBreaker b = defaults();
    SplittableRandom random = new SplittableRandom(1);
    int refused = 0;
    for (int i = 0; i < 400 * 600; i++) {
      if (!call(b, random.nextDouble() < 0.2 ? Fault.T1 : null)) {
        refused++;
      }
    }
    // Five in a row happen every ~8 s at this rate: the consecutive rule is for quiet targets only.
    assertThat(b.openedCount()).isZero();
    assertThat(refused).isZero();
  }

  @Test
  @DisplayName("a target that fails every call opens it before the window holds its minimum of calls")
  void aFailingTargetOpensIt() {
    CircuitBreaker b = defaults();
    int calls = 0;
    while (b.state() == CircuitState.CLOSED) {
      call(b, Fault.T1);
      calls++;
    }
    // Five in a row, before ten calls make a rate: a target that is down is stopped at once.
    assertThat(calls).isEqualTo(CircuitBreakerConfig.defaults().consecutiveFailures());
    assertThat(b.lastTripReason()).isEqualTo(TripReason.CONSECUTIVE_FAILURES);
  }

  @Test
  @DisplayName("a quiet target still trips on five failures in a row")
  void aQuietTargetTripsOnConsecutiveFailures() {
    CircuitBreaker b = defaults();
    for (int i = 0; i < 5; i++) {
      time.advance(Duration.ofSeconds(2).toNanos());
      assertThat(b.tryAcquire()).isTrue();
      b.onFailure(Fault.T1, MS);
    }
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
    assertThat(b.lastTripReason()).isEqualTo(TripReason.CONSECUTIVE_FAILURES);
  }

  @Test
  @DisplayName("half-open judges its probe calls as the window would: one failure of two closes it again")
  void halfOpenRecoversAgainstAPartlyFaultyTarget() {
    CircuitBreaker b = defaults();
    while (b.state() == CircuitState.CLOSED) {
      call(b, Fault.T1);
    }
    time.advance(b.openUntilNanos() - time.nanoTime());
    assertThat(b.tryAcquire()).isTrue();
    assertThat(b.tryAcquire()).isTrue();
    assertThat(b.tryAcquire()).as("only the configured probes").isFalse();
    b.onFailure(Fault.T1, MS);
    assertThat(b.state()).isEqualTo(CircuitState.HALF_OPEN);
    b.onSuccess(MS);
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
  }

  @Test
  @DisplayName("half-open reopens when most probe calls fail, and the cooldown's growth stops at 60 s")
  void failedRoundsGrowTheCooldownToACap() {
    CircuitBreaker b = new CircuitBreaker(TargetKind.TOOL, "t", CircuitBreakerConfig.defaults().toBuilder().cooldownJitter(0).build(),
        time, new SplittableRandom(1));
    while (b.state() == CircuitState.CLOSED) {
      call(b, Fault.T1);
    }
    long[] expectedSeconds = {60, 60, 60};
    for (long seconds : expectedSeconds) {
      time.advance(b.openUntilNanos() - time.nanoTime());
      assertThat(b.tryAcquire()).isTrue();
      assertThat(b.tryAcquire()).isTrue();
      b.onFailure(Fault.T1, MS);
      b.onFailure(Fault.T1, MS);
      assertThat(b.state()).isEqualTo(CircuitState.OPEN);
      assertThat(b.openUntilNanos() - time.nanoTime()).isEqualTo(Duration.ofSeconds(seconds).toNanos());
    }
  }

  @Test
  @DisplayName("a cold start's burst of 50 timeouts against a target that then answers does not open it")
  void coldStartTimeoutsDoNotOpenIt() {
    CircuitBreaker b = defaults();
    for (int i = 0; i < 50; i++) {
      assertThat(b.tryAcquire()).isTrue();
    }
    time.advance(Duration.ofSeconds(1).toNanos());
    for (int i = 0; i < 50; i++) {
      b.onFailure(Fault.T3, Duration.ofSeconds(1).toNanos());
    }
    assertThat(b.state()).isEqualTo(CircuitState.CLOSED);
    for (int i = 0; i < 400; i++) {
      call(b, null);
    }
    assertThat(b.openedCount()).isZero();
  }

  @Test
  @DisplayName("a target that never answers opens it once the cold-start grace (one cooldown) has passed")
  void aBlackHoleStillOpensIt() {
    CircuitBreaker b = defaults();
    long start = time.nanoTime();
    while (b.state() == CircuitState.CLOSED) {
      time.advance(Duration.ofMillis(100).toNanos());
      assertThat(b.tryAcquire()).isTrue();
      b.onFailure(Fault.T3, Duration.ofSeconds(1).toNanos());
    }
    long openedAfter = time.nanoTime() - start;
    assertThat(openedAfter).isGreaterThanOrEqualTo(CircuitBreakerConfig.defaults().cooldown().toNanos())
        .isLessThan(CircuitBreakerConfig.defaults().cooldown().toNanos() + Duration.ofSeconds(2).toNanos());
  }

  @Test
  @DisplayName("a cold start's timeouts right after a first answer do not open it either")
  void coldStartTimeoutsAfterAFirstAnswer() {
    CircuitBreaker b = defaults();
    call(b, null);
    for (int i = 0; i < 50; i++) {
      call(b, Fault.T3);
    }
    assertThat(b.openedCount()).isZero();
  }

  @Test
  @DisplayName("after the first cooldown, timeouts count like any failure")
  void timeoutsCountAfterTheWarmUp() {
    CircuitBreaker b = defaults();
    call(b, null);
    time.advance(CircuitBreakerConfig.defaults().cooldown().toNanos());
    int calls = 0;
    while (b.state() == CircuitState.CLOSED && calls < 100) {
      call(b, Fault.T3);
      calls++;
    }
    assertThat(b.state()).isEqualTo(CircuitState.OPEN);
    assertThat(calls).isLessThanOrEqualTo(CircuitBreakerConfig.defaults().minimumCalls());
  }
}
