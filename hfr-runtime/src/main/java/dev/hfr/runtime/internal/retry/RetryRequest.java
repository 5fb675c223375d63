package dev.hfr.runtime.internal.retry;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.RetryBudget;
import java.util.Objects;

/**
 * Everything {@link RetryGate} needs to decide one retry: the failure, the tool's risk and retry settings,
 * the step's history and budget, and optionally the tenant, the target's breaker and the deadline with
 * the time estimates of paper §4.8. Immutable; built on the failure path only.
 */
public final class RetryRequest {

  private final Fault fault;
  private final Risk risk;
  private final RetrySpec spec;
  private final AttemptHistory history;
  private final RetryBudget.Step step;
  private final String tenant;
  private final CircuitBreaker breaker;
  private final Deadline deadline;
  private final long nowNanos;
  private final long delayNanos;
  private final long stepNanos;
  private final long verifyNanos;

  private RetryRequest(Builder b) {
    this.fault = b.fault;
    this.risk = b.risk;
    this.spec = b.spec;
    this.history = b.history;
    this.step = b.step;
    this.tenant = b.tenant;
    this.breaker = b.breaker;
    this.deadline = b.deadline;
    this.nowNanos = b.nowNanos;
    this.delayNanos = b.delayNanos;
    this.stepNanos = b.stepNanos;
    this.verifyNanos = b.verifyNanos;
  }

  /**
   * Starts a request.
   *
   * @param fault the class of the failure that just happened (already recorded in {@code history})
   * @param risk the tool's side-effect risk
   * @param spec the tool's effective retry settings
   * @param history the step's history
   * @param step the step's attempt counter, drawing on the task budget
   */
  public static Builder builder(Fault fault, Risk risk, RetrySpec spec, AttemptHistory history, RetryBudget.Step step) {
    return new Builder(fault, risk, spec, history, step);
  }

  public Fault fault() { return fault; }

  public Risk risk() { return risk; }

  public RetrySpec spec() { return spec; }

  public AttemptHistory history() { return history; }

  public RetryBudget.Step step() { return step; }

  /** The tenant whose retry budget is charged, or {@code null} for none. */
  public String tenant() { return tenant; }

  /** The target's breaker, or {@code null} when breakers are switched off. */
  public CircuitBreaker breaker() { return breaker; }

  public Deadline deadline() { return deadline; }

  public long nowNanos() { return nowNanos; }

  public long delayNanos() { return delayNanos; }

  public long stepNanos() { return stepNanos; }

  public long verifyNanos() { return verifyNanos; }

  /** Builds a {@link RetryRequest}; arguments are checked as they are given. */
  public static final class Builder {
    private final Fault fault;
    private final Risk risk;
    private final RetrySpec spec;
    private final AttemptHistory history;
    private final RetryBudget.Step step;
    private String tenant;
    private CircuitBreaker breaker;
    private Deadline deadline = Deadline.NONE;
    private long nowNanos;
    private long delayNanos;
    private long stepNanos;
    private long verifyNanos;

    private Builder(Fault fault, Risk risk, RetrySpec spec, AttemptHistory history, RetryBudget.Step step) {
      this.fault = Objects.requireNonNull(fault, "fault");
      this.risk = Objects.requireNonNull(risk, "risk");
      this.spec = Objects.requireNonNull(spec, "spec");
      this.history = Objects.requireNonNull(history, "history");
      this.step = Objects.requireNonNull(step, "step");
    }

    /** Charge the retry to this tenant's budget too. */
    public Builder tenant(String tenant) {
      if (tenant == null || tenant.isBlank()) {
        throw new IllegalArgumentException("tenant must not be blank");
      }
      this.tenant = tenant;
      return this;
    }

    /** The breaker of the target the retry would go to. */
    public Builder breaker(CircuitBreaker breaker) {
      this.breaker = Objects.requireNonNull(breaker, "breaker");
      return this;
    }

    /**
     * The deadline check {@code now + delay + step + verify ≤ D}.
     *
     * @param nowNanos the clock's current time
     * @param delayNanos the backoff before the retry
     * @param stepNanos the estimated duration of the step
     * @param verifyNanos the estimated duration of verification
     */
    public Builder deadline(Deadline deadline, long nowNanos, long delayNanos, long stepNanos, long verifyNanos) {
      this.deadline = Objects.requireNonNull(deadline, "deadline");
      if (delayNanos < 0) {
        throw new IllegalArgumentException("delayNanos must not be negative, was " + delayNanos);
      }
      if (stepNanos < 0) {
        throw new IllegalArgumentException("stepNanos must not be negative, was " + stepNanos);
      }
      if (verifyNanos < 0) {
        throw new IllegalArgumentException("verifyNanos must not be negative, was " + verifyNanos);
      }
      this.nowNanos = nowNanos;
      this.delayNanos = delayNanos;
      this.stepNanos = stepNanos;
      this.verifyNanos = verifyNanos;
      return this;
    }

    public RetryRequest build() {
      return new RetryRequest(this);
    }
  }
}
