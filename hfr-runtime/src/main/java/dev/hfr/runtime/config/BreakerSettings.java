package dev.hfr.runtime.config;

import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import java.time.Duration;

/**
 * The {@code hfr.circuit_breaker} section (paper §4.7, §5.2), also allowed per tool and per tenant.
 *
 * @param errorRateThreshold trip when errors / calls in the window exceed this (0, 1]
 * @param rateLimitThreshold trip when 429s / calls in the window exceed this (0, 1]
 * @param p95LatencyMs trip when the window's p95 latency exceeds this; 0 turns the latency trigger off
 * @param consecutiveFailures trip after this many failures in a row
 * @param cooldownMs how long the breaker stays open before half-open probes (jittered by the breaker)
 * @param halfOpenProbes how many probes half-open lets through
 * @param windowMs the sliding window rates are computed over
 * @param minCalls calls needed in the window before rates can trip the breaker
 * @param cooldownMultiplier each failed half-open probe multiplies the cooldown by this (1: the cooldown never grows)
 * @param maxCooldownMs the cooldown never grows beyond this
 * @param cooldownJitter each cooldown is drawn within ± this fraction of its nominal value, in [0, 1)
 */
public record BreakerSettings(double errorRateThreshold, double rateLimitThreshold, long p95LatencyMs,
    int consecutiveFailures, long cooldownMs, int halfOpenProbes, long windowMs, int minCalls,
    double cooldownMultiplier, long maxCooldownMs, double cooldownJitter) {

  /**
   * The paper's values, plus ours for what the paper leaves open (429 rate 0.5, 60 s window, 10 calls; the
   * cooldown doubles per failed half-open round up to 60 s, ± 20 %): the breaker's own defaults, so an engine without a
   * file trips alike.
   */
  public static final BreakerSettings DEFAULTS =
      new BreakerSettings(0.50, 0.50, 0, 5, 30_000, 2, 60_000, 10, 2.0, 60_000, 0.2);

  public BreakerSettings {
    if (!(errorRateThreshold > 0 && errorRateThreshold <= 1) || !(rateLimitThreshold > 0 && rateLimitThreshold <= 1)) {
      throw new IllegalArgumentException("rate thresholds must be in (0, 1]");
    }
    if (p95LatencyMs < 0 || cooldownMs < 0 || windowMs < 1 || consecutiveFailures < 1 || halfOpenProbes < 1
        || minCalls < 1) {
      throw new IllegalArgumentException("breaker counts must be >= 1 and durations >= 0");
    }
  }

  /**
   * The circuit breaker these settings configure. The loader builds it once while reading the file, so
   * a combination the breaker refuses (such as {@code min_calls} above the breaker's window of calls) is
   * reported with file, line and key, not at {@code Hfr.build()}.
   *
   * @throws IllegalArgumentException naming the breaker setting that cannot work
   */
  public CircuitBreakerConfig toBreakerConfig() {
    CircuitBreakerConfig.Builder b = CircuitBreakerConfig.builder()
        .errorRateThreshold(errorRateThreshold)
        .rateLimitedRateThreshold(rateLimitThreshold)
        .consecutiveFailures(consecutiveFailures)
        .cooldown(Duration.ofMillis(cooldownMs))
        .cooldownMultiplier(cooldownMultiplier)
        .maxCooldown(Duration.ofMillis(maxCooldownMs))
        .cooldownJitter(cooldownJitter)
        .halfOpenProbes(halfOpenProbes)
        .windowDuration(Duration.ofMillis(windowMs))
        .minimumCalls(minCalls);
    if (p95LatencyMs > 0) {
      b.latencyThreshold(0.95, Duration.ofMillis(p95LatencyMs));
    }
    return b.build();
  }
}
