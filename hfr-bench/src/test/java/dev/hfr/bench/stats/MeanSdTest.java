package dev.hfr.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MeanSdTest {

  @Test
  void usesTheSampleStandardDeviation() {
    MeanSd m = MeanSd.of(1, 2, 3, 4);
    assertThat(m.mean()).isEqualTo(2.5);
    assertThat(m.sd()).isCloseTo(Math.sqrt(5.0 / 3), within(1e-12));
    assertThat(m.n()).isEqualTo(4);
  }

  @Test
  void oneValueHasNoSpread() {
    assertThat(MeanSd.of(7)).isEqualTo(new MeanSd(7, 0, 1));
  }
}
