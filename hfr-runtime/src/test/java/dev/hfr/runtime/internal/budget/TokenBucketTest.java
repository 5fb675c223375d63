package dev.hfr.runtime.internal.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A retry token bucket")
class TokenBucketTest {

  /** A clock moved by hand; {@code onRead} runs inside the next reading, before it answers. */
  private static final class HandClock implements Clock {
    long nanos = 1_000_000_000L;
    Runnable onRead;

    @Override
    public long nanoTime() {
      long answer = nanos;
      Runnable r = onRead;
      onRead = null;
      if (r != null) {
        r.run();
      }
      return answer;
    }

    @Override
    public long epochMillis() {
      return nanos / 1_000_000L;
    }
  }

  @Test
  @DisplayName("grants at most its capacity at once, and refills one token per interval")
  void capacityAndRefill() {
    HandClock clock = new HandClock();
    TokenBucket bucket = new TokenBucket(clock, 3, Duration.ofSeconds(3));

    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
    clock.nanos += Duration.ofSeconds(1).toNanos();
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
  }

  @Test
  @DisplayName("does not refuse a token because its reading of the clock is older than another thread's token")
  void staleReadingRefusesNothing() {
    HandClock clock = new HandClock();
    TokenBucket bucket = new TokenBucket(clock, 10, Duration.ofSeconds(1));
    // While this caller reads the clock, another takes a token two seconds later: the bucket, full all along,
    // has nine tokens left when this caller's reading comes back.
    clock.onRead = () -> {
      clock.nanos += Duration.ofSeconds(2).toNanos();
      assertThat(bucket.tryAcquire()).as("the other caller").isTrue();
    };

    assertThat(bucket.tryAcquire()).as("this caller").isTrue();
    assertThat(bucket.available()).isEqualTo(8);
  }
}
