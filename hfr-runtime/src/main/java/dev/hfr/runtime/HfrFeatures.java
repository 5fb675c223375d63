package dev.hfr.runtime;

import java.util.Objects;

/**
 * Switches that turn parts of the engine off, so the benchmark's strategies are configurations of this
 * one engine rather than separate toy models (paper §6: NoRetry, FixedRetry, RetryOnly, DegradeOnly, HFR
 * and the HFR−X ablations). Production uses {@link #all()}. Immutable.
 *
 * <ul>
 *   <li>{@code retry} — failed attempts may be repeated at all;
 *   <li>{@code classification} — failures are classified; off, every failure is retried blindly
 *       (no risk-based reconcile, no degradation by class): the naive baseline;
 *   <li>{@code idempotency} — writes get ledger keys, reconciliation and crash resume; off, writes are
 *       called without a key and an ambiguous failure is resent like a read (unsafe: for ablation only);
 *   <li>{@code verification} — results are verified (V0–V3) before they are accepted;
 *   <li>{@code budgets} — the per-task and per-tenant retry budgets and the task limits apply (the
 *       per-step attempt limit always does);
 *   <li>{@code circuitBreaker} — per-target breakers (and bulkheads, when configured) apply;
 *   <li>{@code degradation} — the ladder and the COMPRESS hook may be used;
 *   <li>{@code backoff} — full jitter or a fixed delay of the method's base delay;
 *   <li>{@code attemptsOverride} — when positive, every step makes at most this many attempts whatever
 *       its {@code @Retry} says (a fixed-retry baseline).
 * </ul>
 */
public final class HfrFeatures {

  /** The backoff between attempts. */
  public enum Backoff {
    /** {@code U(0, min(cap, base·2^(k-1)))}, never shorter than a Retry-After (§4.3). */
    FULL_JITTER,
    /** The method's base delay every time (the FixedRetry baseline), never shorter than a Retry-After. */
    FIXED
  }

  private static final HfrFeatures ALL = builder().build();

  private final boolean retry;
  private final boolean classification;
  private final boolean idempotency;
  private final boolean verification;
  private final boolean budgets;
  private final boolean circuitBreaker;
  private final boolean degradation;
  private final Backoff backoff;
  private final int attemptsOverride;

  private HfrFeatures(Builder b) {
    this.retry = b.retry;
    this.classification = b.classification;
    this.idempotency = b.idempotency;
    this.verification = b.verification;
    this.budgets = b.budgets;
    this.circuitBreaker = b.circuitBreaker;
    this.degradation = b.degradation;
    this.backoff = b.backoff;
    this.attemptsOverride = b.attemptsOverride;
  }

  /** Everything on: HFR. */
  public static HfrFeatures all() {
    return ALL;
  }

  /** A builder with everything on. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these switches. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The NoRetry baseline: one attempt, nothing else. */
  public static HfrFeatures noRetry() {
    return builder().retry(false).classification(false).idempotency(false).verification(false).budgets(false)
        .circuitBreaker(false).degradation(false).build();
  }

  /**
   * The FixedRetry baseline: up to {@code retries} blind retries with a fixed delay — no classification,
   * no idempotency, no verification, no budgets beyond the step, no breaker, no degradation.
   */
  public static HfrFeatures fixedRetry(int retries) {
    return builder().classification(false).idempotency(false).verification(false).budgets(false)
        .circuitBreaker(false).degradation(false).backoff(Backoff.FIXED).attemptsOverride(retries + 1).build();
  }

  /** RetryOnly: classified retries with full jitter and budgets, no degradation, no verification, no breaker. */
  public static HfrFeatures retryOnly() {
    return builder().verification(false).circuitBreaker(false).degradation(false).build();
  }

  /** DegradeOnly: classified failures go straight down the ladder, never retried. */
  public static HfrFeatures degradeOnly() {
    return builder().retry(false).verification(false).circuitBreaker(false).build();
  }

  public boolean retry() { return retry; }

  public boolean classification() { return classification; }

  public boolean idempotency() { return idempotency; }

  public boolean verification() { return verification; }

  public boolean budgets() { return budgets; }

  public boolean circuitBreaker() { return circuitBreaker; }

  public boolean degradation() { return degradation; }

  public Backoff backoff() { return backoff; }

  /** At most this many attempts per step when positive; 0 = as the method says. */
  public int attemptsOverride() { return attemptsOverride; }

  @Override
  public String toString() {
    return "HfrFeatures[retry=" + retry + ", classification=" + classification + ", idempotency=" + idempotency
        + ", verification=" + verification + ", budgets=" + budgets + ", circuitBreaker=" + circuitBreaker
        + ", degradation=" + degradation + ", backoff=" + backoff
        + (attemptsOverride > 0 ? ", attemptsOverride=" + attemptsOverride : "") + "]";
  }

  /** Builds {@link HfrFeatures}; starts with everything on. */
  public static final class Builder {
    private boolean retry = true;
    private boolean classification = true;
    private boolean idempotency = true;
    private boolean verification = true;
    private boolean budgets = true;
    private boolean circuitBreaker = true;
    private boolean degradation = true;
    private Backoff backoff = Backoff.FULL_JITTER;
    private int attemptsOverride;

    private Builder() {}

    private Builder(HfrFeatures f) {
      this.retry = f.retry;
      this.classification = f.classification;
      this.idempotency = f.idempotency;
      this.verification = f.verification;
      this.budgets = f.budgets;
      this.circuitBreaker = f.circuitBreaker;
      this.degradation = f.degradation;
      this.backoff = f.backoff;
      this.attemptsOverride = f.attemptsOverride;
    }

    public Builder retry(boolean on) { this.retry = on; return this; }

    public Builder classification(boolean on) { this.classification = on; return this; }

    public Builder idempotency(boolean on) { this.idempotency = on; return this; }

    public Builder verification(boolean on) { this.verification = on; return this; }

    public Builder budgets(boolean on) { this.budgets = on; return this; }

    public Builder circuitBreaker(boolean on) { this.circuitBreaker = on; return this; }

    public Builder degradation(boolean on) { this.degradation = on; return this; }

    public Builder backoff(Backoff kind) {
      this.backoff = Objects.requireNonNull(kind, "backoff");
      return this;
    }

    /** Caps every step at {@code attempts} attempts (the first included); 0 removes the cap. */
    public Builder attemptsOverride(int attempts) {
      if (attempts < 0) {
        throw new IllegalArgumentException("attemptsOverride must be 0 (none) or at least 1, was " + attempts);
      }
      this.attemptsOverride = attempts;
      return this;
    }

    public HfrFeatures build() {
      return new HfrFeatures(this);
    }
  }
}
