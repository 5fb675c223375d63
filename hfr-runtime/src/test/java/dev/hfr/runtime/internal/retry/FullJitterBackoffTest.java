package dev.hfr.runtime.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("FullJitterBackoff: d_k = U(0, min(cap, base·2^(k-1))), max(d, Retry-After)")
class FullJitterBackoffTest {

  private static final RetrySpec SPEC = RetrySpec.of(10, 200, 2000, Fault.T1, Fault.T2);
  private static final long MS = 1_000_000L;

  @Test
  @DisplayName("the interval's upper end doubles per retry from the base and stops at the cap")
  void ceilingDoublesThenCaps() {
    assertThat(FullJitterBackoff.ceilingNanos(1, SPEC)).isEqualTo(200 * MS);
    assertThat(FullJitterBackoff.ceilingNanos(2, SPEC)).isEqualTo(400 * MS);
    assertThat(FullJitterBackoff.ceilingNanos(3, SPEC)).isEqualTo(800 * MS);
    assertThat(FullJitterBackoff.ceilingNanos(4, SPEC)).isEqualTo(1600 * MS);
    assertThat(FullJitterBackoff.ceilingNanos(5, SPEC)).isEqualTo(2000 * MS);
    assertThat(FullJitterBackoff.ceilingNanos(6, SPEC)).isEqualTo(2000 * MS);
  }

  @ParameterizedTest(name = "k = {0}")
  @ValueSource(ints = {62, 63, 64, 65, 100, 1_000, Integer.MAX_VALUE})
  @DisplayName("huge retry numbers do not overflow: the ceiling is the cap")
  void hugeRetryNumbersStayAtTheCap(int k) {
    assertThat(FullJitterBackoff.ceilingNanos(k, SPEC)).isEqualTo(2000 * MS);
    RetrySpec huge = RetrySpec.of(3, Long.MAX_VALUE / 2_000_000L, Long.MAX_VALUE / 1_000_000L, Fault.T1);
    long ceiling = FullJitterBackoff.ceilingNanos(k, huge);
    assertThat(ceiling).isPositive();
    long d = FullJitterBackoff.INSTANCE.delayNanos(k, huge, -1, new SplittableRandom(1));
    assertThat(d).isBetween(0L, ceiling);
  }

  @Test
  @DisplayName("delays stay within [0, ceiling] for every retry number")
  void delaysStayWithinTheInterval() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int k = 1; k <= 40; k++) {
      long ceiling = FullJitterBackoff.ceilingNanos(k, SPEC);
      for (int i = 0; i < 500; i++) {
        assertThat(FullJitterBackoff.INSTANCE.delayNanos(k, SPEC, -1, rnd)).isBetween(0L, ceiling);
      }
    }
  }

  @ParameterizedTest(name = "k = {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 12})
  @DisplayName("delays are uniform on [0, min(cap, base·2^(k-1))], at the cap too (Kolmogorov–Smirnov and chi-square, seed 42)")
  void delaysAreUniform(int k) {
    int n = 20_000;
    long ceiling = FullJitterBackoff.ceilingNanos(k, SPEC);
    SplittableRandom rnd = new SplittableRandom(42 + k);
    double[] u = new double[n];
    for (int i = 0; i < n; i++) {
      u[i] = FullJitterBackoff.INSTANCE.delayNanos(k, SPEC, -1, rnd) / (double) ceiling;
    }
    Arrays.sort(u);
    double ks = 0;
    for (int i = 0; i < n; i++) {
      ks = Math.max(ks, Math.max((i + 1) / (double) n - u[i], u[i] - i / (double) n));
    }
    // Critical value of the one-sample KS statistic at alpha = 0.001: 1.95 / sqrt(n) ≈ 0.0138.
    assertThat(ks).isLessThan(1.95 / Math.sqrt(n));

    int bins = 20;
    int[] counts = new int[bins];
    for (double x : u) {
      counts[Math.min(bins - 1, (int) (x * bins))]++;
    }
    double expected = n / (double) bins;
    double chi2 = 0;
    for (int c : counts) {
      chi2 += (c - expected) * (c - expected) / expected;
    }
    // Chi-square critical value, 19 degrees of freedom, alpha = 0.001.
    assertThat(chi2).isLessThan(43.82);
    // Jitter survives at the cap: both halves of the interval are well used.
    assertThat(u[n / 4]).isBetween(0.2, 0.3);
    assertThat(u[3 * n / 4]).isBetween(0.7, 0.8);
  }

  @Test
  @DisplayName("a Retry-After is a floor: the delay is max(d, Retry-After)")
  void retryAfterIsAFloor() {
    SplittableRandom rnd = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      assertThat(FullJitterBackoff.INSTANCE.delayNanos(1, SPEC, 5_000, rnd)).isEqualTo(5_000 * MS);
      long d = FullJitterBackoff.INSTANCE.delayNanos(3, SPEC, 100, rnd);
      assertThat(d).isBetween(100 * MS, 800 * MS);
    }
    assertThat(FullJitterBackoff.INSTANCE.delayNanos(1, SPEC, Long.MAX_VALUE, rnd)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  @DisplayName("a zero base delay means no wait (unless Retry-After says so)")
  void zeroBaseMeansNoWait() {
    RetrySpec none = RetrySpec.of(3, 0, 0, Fault.T1);
    assertThat(FullJitterBackoff.INSTANCE.delayNanos(5, none, -1, new SplittableRandom(1))).isZero();
    assertThat(FullJitterBackoff.INSTANCE.delayNanos(5, none, 30, new SplittableRandom(1))).isEqualTo(30 * MS);
  }

  @Test
  @DisplayName("retry numbers start at 1 and a random source is required")
  void refusesBadArguments() {
    assertThatThrownBy(() -> FullJitterBackoff.INSTANCE.delayNanos(0, SPEC, -1, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retryNumber");
    assertThatThrownBy(() -> FullJitterBackoff.INSTANCE.delayNanos(1, SPEC, -1, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("rnd");
  }

  @Test
  @DisplayName("the fixed-delay baseline waits the base delay every time, Retry-After still winning")
  void fixedDelayBaseline() {
    SplittableRandom rnd = new SplittableRandom(1);
    for (int k = 1; k <= 10; k++) {
      assertThat(FixedDelayBackoff.INSTANCE.delayNanos(k, SPEC, -1, rnd)).isEqualTo(200 * MS);
    }
    assertThat(FixedDelayBackoff.INSTANCE.delayNanos(1, SPEC, 1_000, rnd)).isEqualTo(1_000 * MS);
    assertThatThrownBy(() -> FixedDelayBackoff.INSTANCE.delayNanos(0, SPEC, -1, rnd))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
