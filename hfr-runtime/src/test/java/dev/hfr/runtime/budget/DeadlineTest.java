package dev.hfr.runtime.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Deadline: t + d + t_step + t_verify ≤ D")
class DeadlineTest {

  @Test
  @DisplayName("allows exactly up to the deadline, not a nanosecond past it")
  void boundaryIsInclusive() {
    Deadline d = Deadline.atNanos(1_000);
    assertThat(d.allows(100, 500, 300, 100)).isTrue();
    assertThat(d.allows(100, 500, 300, 101)).isFalse();
    assertThat(d.remainingNanos(100)).isEqualTo(900);
    assertThat(d.expired(1_000)).isFalse();
    assertThat(d.expired(1_001)).isTrue();
  }

  @Test
  @DisplayName("huge estimates saturate instead of wrapping round into 'allowed'")
  void hugeEstimatesDoNotOverflow() {
    Deadline d = Deadline.atNanos(Long.MAX_VALUE - 10);
    assertThat(d.allows(Long.MAX_VALUE - 20, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE)).isFalse();
    assertThat(d.allows(0, Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, 100)).isFalse();
  }

  @Test
  @DisplayName("a deadline after a duration starts at the clock's now; NONE allows everything")
  void afterAndNone() {
    VirtualTime time = new VirtualTime();
    time.advance(5_000);
    Deadline d = Deadline.after(time, Duration.ofNanos(1_000));
    assertThat(d.deadlineNanos()).isEqualTo(6_000);
    assertThat(Deadline.after(time, Duration.ofDays(365 * 1000)).bounded()).isTrue();
    assertThat(Deadline.NONE.allows(Long.MAX_VALUE, Long.MAX_VALUE, 1, 1)).isTrue();
    assertThat(Deadline.NONE.expired(Long.MAX_VALUE)).isFalse();
    assertThat(Deadline.NONE.remainingNanos(0)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  @DisplayName("negative estimates and timeouts are refused by name")
  void refusesNegatives() {
    assertThatThrownBy(() -> Deadline.atNanos(10).allows(0, -1, 0, 0)).hasMessageContaining("delay -1");
    assertThatThrownBy(() -> Deadline.after(new VirtualTime(), Duration.ofSeconds(-1))).hasMessageContaining("timeout");
  }
}
