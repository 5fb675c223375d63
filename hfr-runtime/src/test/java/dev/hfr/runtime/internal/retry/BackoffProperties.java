package dev.hfr.runtime.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import java.math.BigInteger;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class BackoffProperties {

  @Property(tries = 1_000)
  @Label("for any k, base and cap: 0 <= d <= min(cap, base·2^(k-1)), and never below a Retry-After")
  void delayStaysInItsInterval(
      @ForAll @IntRange(min = 1, max = Integer.MAX_VALUE) int k,
      @ForAll @LongRange(min = 0, max = 10_000_000) long base,
      @ForAll @LongRange(min = 0, max = 10_000_000) long extra,
      @ForAll @LongRange(min = -1, max = 100_000) long retryAfter,
      @ForAll long seed) {
    RetrySpec spec = RetrySpec.of(3, base, base + extra, Fault.T1);
    long ceiling = FullJitterBackoff.ceilingNanos(k, spec);
    // The same ceiling in exact arithmetic: base·2^(k-1) can be astronomically large, min() brings it back.
    BigInteger grown = BigInteger.valueOf(base * 1_000_000L).shiftLeft(Math.min(k - 1, 200));
    long expected = grown.min(BigInteger.valueOf((base + extra) * 1_000_000L)).longValueExact();
    assertThat(ceiling).isEqualTo(expected);
    long d = FullJitterBackoff.INSTANCE.delayNanos(k, spec, retryAfter, new SplittableRandom(seed));
    if (retryAfter < 0) {
      assertThat(d).isBetween(0L, ceiling);
    } else {
      assertThat(d).isBetween(retryAfter * 1_000_000L, Math.max(ceiling, retryAfter * 1_000_000L));
    }
  }
}
