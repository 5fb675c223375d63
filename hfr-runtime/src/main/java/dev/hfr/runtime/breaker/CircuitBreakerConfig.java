package dev.hfr.runtime.breaker;

import java.time.Duration;
import java.util.Objects;

/**
 * The immutable settings of a {@link CircuitBreaker}. Defaults follow the paper's §5.2 configuration:
 * error rate 0.50, 5 consecutive failures, 30 s cooldown, 2 half-open probes; the cooldown doubles per failed
 * half-open round up to 60 s.
 *
 * <p>The breaker looks at a sliding window of the last {@link #windowSize()} calls that are no older
 * than {@link #windowDuration()}. It trips when, with at least {@link #minimumCalls()} calls in the
 * window, the error rate or the 429 rate exceeds its threshold or the {@link #latencyPercentile()}
 * latency exceeds {@link #latencyThreshold()}; with fewer calls than that, after
 * {@link #consecutiveFailures()} failures in a row.
 */
public final class CircuitBreakerConfig {

  private static final CircuitBreakerConfig DEFAULTS = builder().build();

  private final int windowSize;
  private final Duration windowDuration;
  private final int minimumCalls;
  private final double errorRateThreshold;
  private final double rateLimitedRateThreshold;
  private final Duration latencyThreshold;
  private final double latencyPercentile;
  private final int consecutiveFailures;
  private final Duration cooldown;
  private final double cooldownJitter;
  private final double cooldownMultiplier;
  private final Duration maxCooldown;
  private final int halfOpenProbes;

  private CircuitBreakerConfig(Builder b) {
    this.windowSize = b.windowSize;
    this.windowDuration = b.windowDuration;
    this.minimumCalls = b.minimumCalls;
    this.errorRateThreshold = b.errorRateThreshold;
    this.rateLimitedRateThreshold = b.rateLimitedRateThreshold;
    this.latencyThreshold = b.latencyThreshold;
    this.latencyPercentile = b.latencyPercentile;
    this.consecutiveFailures = b.consecutiveFailures;
    this.cooldown = b.cooldown;
    this.cooldownJitter = b.cooldownJitter;
    this.cooldownMultiplier = b.cooldownMultiplier;
    this.maxCooldown = b.maxCooldown;
    this.halfOpenProbes = b.halfOpenProbes;
  }

  /** The paper's §5.2 defaults. */
  public static CircuitBreakerConfig defaults() {
    return DEFAULTS;
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** N: the window holds at most this many most recent calls (default 50). */
  public int windowSize() { return windowSize; }

  /** T: calls older than this leave the window (default 60 s). */
  public Duration windowDuration() { return windowDuration; }

  /** The rate and latency conditions need at least this many calls in the window (default 10). */
  public int minimumCalls() { return minimumCalls; }

  /** θ_e: trips when errors / calls is above it (default 0.50). */
  public double errorRateThreshold() { return errorRateThreshold; }

  /** θ_r: trips when 429s / calls is above it (default 0.50). */
  public double rateLimitedRateThreshold() { return rateLimitedRateThreshold; }

  /** θ_l: trips when the latency percentile is above it; {@link Duration#ZERO} disables the condition (the default). */
  public Duration latencyThreshold() { return latencyThreshold; }

  /** Which latency percentile is compared with θ_l (default 0.95). */
  public double latencyPercentile() { return latencyPercentile; }

  /** K: trips after this many failures in a row while the window holds fewer than {@link #minimumCalls()} (default 5). */
  public int consecutiveFailures() { return consecutiveFailures; }

  /** The first cooldown of the open state (default 30 s). */
  public Duration cooldown() { return cooldown; }

  /** The cooldown is drawn uniformly within ± this fraction of its nominal value (default 0.2). */
  public double cooldownJitter() { return cooldownJitter; }

  /** Each failed half-open round multiplies the nominal cooldown by this (default 2). */
  public double cooldownMultiplier() { return cooldownMultiplier; }

  /** The nominal cooldown never grows beyond this (default 60 s: a recovered target waits at most a minute). */
  public Duration maxCooldown() { return maxCooldown; }

  /**
   * How many probe calls the half-open state lets through (default 2); it reopens once more of them failed than
   * the error-rate threshold allows, and closes once all answered otherwise.
   */
  public int halfOpenProbes() { return halfOpenProbes; }

  @Override
  public String toString() {
    return "CircuitBreakerConfig[window " + windowSize + " calls / " + windowDuration + ", min " + minimumCalls
        + ", errorRate>" + errorRateThreshold + ", 429Rate>" + rateLimitedRateThreshold + ", p" + Math.round(latencyPercentile * 100)
        + ">" + latencyThreshold + ", consecutive " + consecutiveFailures + ", cooldown " + cooldown + " ±" + cooldownJitter
        + " x" + cooldownMultiplier + " max " + maxCooldown + ", probes " + halfOpenProbes + "]";
  }

  /** Builds a {@link CircuitBreakerConfig}; every setter checks its argument and names it when it refuses. */
  public static final class Builder {
    private int windowSize = 50;
    private Duration windowDuration = Duration.ofSeconds(60);
    private int minimumCalls = 10;
    private double errorRateThreshold = 0.50;
    private double rateLimitedRateThreshold = 0.50;
    private Duration latencyThreshold = Duration.ZERO;
    private double latencyPercentile = 0.95;
    private int consecutiveFailures = 5;
    private Duration cooldown = Duration.ofSeconds(30);
    private double cooldownJitter = 0.2;
    private double cooldownMultiplier = 2.0;
    private Duration maxCooldown = Duration.ofSeconds(60);
    private int halfOpenProbes = 2;
    /** Whether maxCooldown was set: unless it was, it never undercuts the cooldown itself. */
    private boolean maxCooldownSet;

    private Builder() {}

    private Builder(CircuitBreakerConfig c) {
      this.windowSize = c.windowSize;
      this.windowDuration = c.windowDuration;
      this.minimumCalls = c.minimumCalls;
      this.errorRateThreshold = c.errorRateThreshold;
      this.rateLimitedRateThreshold = c.rateLimitedRateThreshold;
      this.latencyThreshold = c.latencyThreshold;
      this.latencyPercentile = c.latencyPercentile;
      this.consecutiveFailures = c.consecutiveFailures;
      this.cooldown = c.cooldown;
      this.cooldownJitter = c.cooldownJitter;
      this.cooldownMultiplier = c.cooldownMultiplier;
      this.maxCooldown = c.maxCooldown;
      this.halfOpenProbes = c.halfOpenProbes;
      this.maxCooldownSet = true;
    }

    public Builder windowSize(int calls) {
      this.windowSize = atLeast(calls, 1, "windowSize");
      return this;
    }

    public Builder windowDuration(Duration duration) {
      this.windowDuration = positive(duration, "windowDuration");
      return this;
    }

    public Builder minimumCalls(int calls) {
      this.minimumCalls = atLeast(calls, 1, "minimumCalls");
      return this;
    }

    public Builder errorRateThreshold(double threshold) {
      this.errorRateThreshold = fraction(threshold, "errorRateThreshold");
      return this;
    }

    public Builder rateLimitedRateThreshold(double threshold) {
      this.rateLimitedRateThreshold = fraction(threshold, "rateLimitedRateThreshold");
      return this;
    }

    /** Trips when the given percentile of latencies in the window is above {@code threshold}. */
    public Builder latencyThreshold(double percentile, Duration threshold) {
      if (!(percentile > 0.0 && percentile < 1.0)) {
        throw new IllegalArgumentException("latencyPercentile must be within (0, 1), was " + percentile);
      }
      Objects.requireNonNull(threshold, "latencyThreshold");
      if (threshold.isNegative()) {
        throw new IllegalArgumentException("latencyThreshold must not be negative, was " + threshold);
      }
      this.latencyPercentile = percentile;
      this.latencyThreshold = threshold;
      return this;
    }

    public Builder consecutiveFailures(int failures) {
      this.consecutiveFailures = atLeast(failures, 1, "consecutiveFailures");
      return this;
    }

    public Builder cooldown(Duration cooldown) {
      this.cooldown = positive(cooldown, "cooldown");
      return this;
    }

    /** Jitter as a fraction of the cooldown, within [0, 1). */
    public Builder cooldownJitter(double jitter) {
      if (!(jitter >= 0.0 && jitter < 1.0)) {
        throw new IllegalArgumentException("cooldownJitter must be within [0, 1), was " + jitter);
      }
      this.cooldownJitter = jitter;
      return this;
    }

    public Builder cooldownMultiplier(double multiplier) {
      if (!(multiplier >= 1.0 && multiplier <= 100.0)) {
        throw new IllegalArgumentException("cooldownMultiplier must be within [1, 100], was " + multiplier);
      }
      this.cooldownMultiplier = multiplier;
      return this;
    }

    public Builder maxCooldown(Duration maxCooldown) {
      this.maxCooldown = positive(maxCooldown, "maxCooldown");
      this.maxCooldownSet = true;
      return this;
    }

    public Builder halfOpenProbes(int probes) {
      this.halfOpenProbes = atLeast(probes, 1, "halfOpenProbes");
      return this;
    }

    /** Builds the configuration; refuses combinations that could never work. */
    public CircuitBreakerConfig build() {
      if (minimumCalls > windowSize) {
        throw new IllegalArgumentException(
            "minimumCalls (" + minimumCalls + ") must not exceed windowSize (" + windowSize + "): the rate conditions could never trip");
      }
      if (!maxCooldownSet && maxCooldown.compareTo(cooldown) < 0) {
        // A cooldown longer than the default cap, with no cap of its own: the cap is the cooldown.
        maxCooldown = cooldown;
      }
      if (maxCooldown.compareTo(cooldown) < 0) {
        throw new IllegalArgumentException("maxCooldown (" + maxCooldown + ") must not be shorter than cooldown (" + cooldown + ")");
      }
      return new CircuitBreakerConfig(this);
    }

    private static int atLeast(int value, int min, String name) {
      if (value < min) {
        throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
      }
      return value;
    }

    private static double fraction(double value, String name) {
      if (!(value > 0.0 && value <= 1.0)) {
        throw new IllegalArgumentException(name + " must be within (0, 1], was " + value);
      }
      return value;
    }

    private static Duration positive(Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, was " + value);
      }
      if (value.compareTo(Duration.ofDays(365)) > 0) {
        throw new IllegalArgumentException(name + " must be at most a year, was " + value);
      }
      return value;
    }
  }
}
