package dev.hfr.runtime.internal.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Nanos: saturating nanosecond arithmetic")
class NanosTest {

  @Test
  @DisplayName("sums saturate at the ends of the long range instead of wrapping")
  void saturatedAdd() {
    assertThat(Nanos.saturatedAdd(1, 2)).isEqualTo(3);
    assertThat(Nanos.saturatedAdd(Long.MAX_VALUE, 1)).isEqualTo(Long.MAX_VALUE);
    assertThat(Nanos.saturatedAdd(Long.MAX_VALUE - 5, Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(Nanos.saturatedAdd(Long.MIN_VALUE, -1)).isEqualTo(Long.MIN_VALUE);
    assertThat(Nanos.saturatedAdd(Long.MAX_VALUE, Long.MIN_VALUE)).isEqualTo(-1);
  }

  @Test
  @DisplayName("milliseconds convert to nanoseconds, saturating; negative amounts are refused")
  void fromMillis() {
    assertThat(Nanos.fromMillis(1_500)).isEqualTo(1_500_000_000L);
    assertThat(Nanos.fromMillis(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> Nanos.fromMillis(-1)).hasMessageContaining("millis");
  }
}
