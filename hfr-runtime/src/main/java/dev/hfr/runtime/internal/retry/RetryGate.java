package dev.hfr.runtime.internal.retry;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import java.util.Objects;

/**
 * Decides whether one more attempt of a step may be made: {@code should_retry} and the stop conditions of
 * paper §4.3, in this order —
 *
 * <ol>
 *   <li>T8 never (and never degraded around); T7 never; R3 never;
 *   <li>T3 on a write (R2 and above), and any unclassified failure of a write: reconcile first — allowed
 *       only after the ledger found the write absent; an unclassified failure of a read gets one probe;
 *   <li>T4 and T5: never against the same target (degrade instead);
 *   <li>T6: only after the context was compressed;
 *   <li>V1 on a write: only once a reconcile found it absent or a compensation undid it (the effect may be
 *       in place otherwise); V1 only with new evidence, and never after the same verifier reason twice;
 *   <li>the fault class must be in the tool's {@code retryOn} (a compressed T6 and a semantic V1 retry
 *       follow their own rules above);
 *   <li>the same fault class K times in a row without new evidence;
 *   <li>the target's breaker not closed;
 *   <li>the deadline {@code t + d + t_step + t_verify ≤ D};
 *   <li>the step's attempts ({@code maxAttempts} counts attempts, the first included), the task's retry
 *       budget, the tenant's budget (its share of its calls, then its floor: {@link TenantRetryBudgets}).
 * </ol>
 *
 * <p>A {@link RetryVerdict#RETRY} is a permit: the retry has been charged to the step, the task and the
 * tenant, so the engine cannot forget to, and Proposition 1 holds by construction. The gate itself is an
 * immutable policy, shared by all tasks; per-step state lives in {@link AttemptHistory} and
 * its {@link StepAllowance} (a {@link RetryBudget.Step}, or a call outside any task).
 */
public final class RetryGate {

  private final int sameFaultLimit;
  private final int sameVerifierReasonLimit;
  private final TenantRetryBudgets tenantBudgets;

  private RetryGate(Builder b) {
    this.sameFaultLimit = b.sameFaultLimit;
    this.sameVerifierReasonLimit = b.sameVerifierReasonLimit;
    this.tenantBudgets = b.tenantBudgets;
  }

  /** Starts a gate: K = 3, the same verifier reason twice, no tenant budgets unless given. */
  public static Builder builder() {
    return new Builder();
  }

  /** Decides one retry; on {@link RetryVerdict#RETRY} the budgets are charged. */
  public RetryVerdict check(RetryRequest request) {
    Objects.requireNonNull(request, "request");
    return check(request.fault(), request.risk(), request.spec(), request.history(), StepAllowance.of(request.step()),
        request.tenant(),
        request.breaker(), request.deadline(), request.nowNanos(), request.delayNanos(), request.stepNanos(),
        request.verifyNanos());
  }

  /**
   * The same decision from the request's parts, for the engine's failure path, which would otherwise build
   * one {@link RetryRequest} per failed attempt. The parts are those of {@link RetryRequest.Builder}, taken as
   * valid: {@code tenant} and {@code breaker} may be {@code null}, {@code deadline} is {@link Deadline#NONE}
   * when there is none, the durations are not negative.
   */
  public RetryVerdict check(Fault fault, Risk risk, RetrySpec spec, AttemptHistory history, StepAllowance step,
      String tenant, CircuitBreaker breaker, Deadline deadline, long nowNanos, long delayNanos, long stepNanos,
      long verifyNanos) {
    StopReason refusal = refusal(fault, risk, spec, history, breaker);
    if (refusal == null && !deadline.allows(nowNanos, delayNanos, stepNanos, verifyNanos)) {
      refusal = StopReason.DEADLINE;
    }
    if (refusal == null && step.stepAttempts() >= spec.maxAttempts()) {
      refusal = StopReason.STEP_ATTEMPTS_EXHAUSTED;
    }
    if (refusal != null) {
      return RetryVerdict.stop(refusal);
    }
    StopReason budget = charge(step, tenant);
    if (budget != null) {
      return RetryVerdict.stop(budget);
    }
    if (fault == Fault.UNCLASSIFIED) {
      history.markUnclassifiedProbed();
    }
    history.consumeMarks();
    return RetryVerdict.RETRY;
  }

  /**
   * The first condition up to the breaker that forbids the retry, without charging anything; {@code null} when
   * none does. The deadline and the step's attempts are checked after it, in that order.
   */
  private StopReason refusal(Fault fault, Risk risk, RetrySpec spec, AttemptHistory history, CircuitBreaker breaker) {
    boolean write = risk != Risk.R0;
    if (fault == Fault.T8) {
      return StopReason.POLICY_REFUSAL;
    }
    if (fault == Fault.T7) {
      return StopReason.PERMANENT_FAULT;
    }
    if (risk == Risk.R3) {
      return StopReason.IRREVERSIBLE;
    }
    if (fault == Fault.T3 && risk.compareTo(Risk.R2) >= 0 && !history.reconciledAbsent()) {
      return StopReason.RECONCILE_FIRST;
    }
    if (fault == Fault.UNCLASSIFIED) {
      if (write && !history.reconciledAbsent()) {
        return StopReason.RECONCILE_FIRST;
      }
      if (history.unclassifiedProbed()) {
        return StopReason.UNCLASSIFIED_PROBED;
      }
    }
    if (fault == Fault.T4 || fault == Fault.T5) {
      return StopReason.NEEDS_OTHER_TARGET;
    }
    if (fault == Fault.T6 && !history.compressed()) {
      return StopReason.COMPRESS_FIRST;
    }
    if (fault == Fault.V1) {
      if (write && !history.reconciledAbsent()) {
        // Only a rejected write found absent, or compensated, may go again: anything else may be in place.
        return StopReason.SIDE_EFFECT_COMMITTED;
      }
      if (history.sameVerifierReasonStreak() >= sameVerifierReasonLimit) {
        return StopReason.SAME_VERIFIER_REASON;
      }
      // Semantic retries need new evidence: a second rejection that taught nothing ends them.
      if (history.sameFaultStreak() >= 2) {
        return StopReason.SAME_FAULT_REPEATED;
      }
    }
    boolean ownRule = fault == Fault.T6 || fault == Fault.V1 || fault == Fault.UNCLASSIFIED;
    if (!ownRule && !spec.retryOn().contains(fault)) {
      return StopReason.NOT_RETRYABLE_CLASS;
    }
    if (history.lastFault() == fault && history.sameFaultStreak() >= sameFaultLimit) {
      return StopReason.SAME_FAULT_REPEATED;
    }
    if (breaker != null && !breaker.allowsRetries()) {
      return StopReason.BREAKER_OPEN;
    }
    return null;
  }

  /** Charges step, task and tenant, in that order, undoing earlier charges when a later one refuses. */
  private StopReason charge(StepAllowance step, String tenant) {
    RetryBudget.Charge charge = step.tryChargeRetry();
    if (charge == RetryBudget.Charge.STEP_EXHAUSTED) {
      return StopReason.STEP_ATTEMPTS_EXHAUSTED;
    }
    if (charge == RetryBudget.Charge.TASK_EXHAUSTED) {
      return StopReason.TASK_BUDGET_EXHAUSTED;
    }
    if (tenantBudgets != null && tenant != null && !tenantBudgets.tryAcquire(tenant)) {
      step.refundRetry();
      return StopReason.TENANT_BUDGET_EXHAUSTED;
    }
    return null;
  }

  /** K: the same fault class this many times in a row without new evidence stops the step. */
  public int sameFaultLimit() {
    return sameFaultLimit;
  }

  /** The same verifier reason this many times in a row stops semantic retries. */
  public int sameVerifierReasonLimit() {
    return sameVerifierReasonLimit;
  }

  /** The tenant budgets charged, or {@code null}. */
  public TenantRetryBudgets tenantBudgets() {
    return tenantBudgets;
  }

  /** Builds a {@link RetryGate}; arguments are checked as they are given. */
  public static final class Builder {
    private int sameFaultLimit = 3;
    private int sameVerifierReasonLimit = 2;
    private TenantRetryBudgets tenantBudgets;

    private Builder() {}

    /** K of §4.3 (default 3): the same class K times in a row without new evidence stops retrying. */
    public Builder sameFaultLimit(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("sameFaultLimit must be at least 1, was " + k);
      }
      this.sameFaultLimit = k;
      return this;
    }

    /** How many rejections in a row with the same reason stop semantic retries (default 2). */
    public Builder sameVerifierReasonLimit(int times) {
      if (times < 1) {
        throw new IllegalArgumentException("sameVerifierReasonLimit must be at least 1, was " + times);
      }
      this.sameVerifierReasonLimit = times;
      return this;
    }

    /** Charge every granted retry to the request's tenant in these budgets. */
    public Builder tenantBudgets(TenantRetryBudgets budgets) {
      this.tenantBudgets = Objects.requireNonNull(budgets, "budgets");
      return this;
    }

    public RetryGate build() {
      return new RetryGate(this);
    }
  }
}
