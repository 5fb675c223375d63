package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.internal.retry.RetryVerdict;
import dev.hfr.runtime.internal.retry.StopReason;
import dev.hfr.runtime.time.Clock;

/**
 * CHECK (Table 9): starts from the class's default action ({@link ActionTable#defaultAction}) and lets
 * the checks — the retry gate's stop conditions, budgets, deadline, breaker, risk — only make it more
 * conservative; hands the result to DECIDE.
 */
final class Check {

  private final HfrFeatures features;
  private final FailureHandling failures;
  private final Clock clock;
  private final Decide decide;
  private final RejectedWrite rejectedWrites;

  Check(HfrFeatures features, FailureHandling failures, Clock clock, Decide decide, RejectedWrite rejectedWrites) {
    this.features = features;
    this.failures = failures;
    this.clock = clock;
    this.decide = decide;
    this.rejectedWrites = rejectedWrites;
  }

  <R> Next run(Call<R> c) {
    if (c.awaitingBudget != null) {
      // Back from waiting for the tenant's retry budget: the same retry asks again.
      Reason granted = c.awaitingBudget;
      c.awaitingBudget = null;
      return retry(c, granted);
    }
    if (c.blocked != null) {
      return decide.fallback(c, c.blocked);
    }
    if (c.rung >= 0 && c.mayHaveApplied() && features.idempotency()) {
      // A rung of a write is called without the key, so a resend after an ambiguous failure could repeat it.
      return decide.fallback(c, Reason.TIMEOUT_UNKNOWN_STATE);
    }
    Action a = features.classification() ? ActionTable.defaultAction(c.fault, c.risk(), c.criticality()) : Action.RETRY;
    if (a == Action.RECONCILE && c.fault == Fault.V1) {
      // A write whose result was rejected: reconciled (and compensated) before anything is sent again.
      return rejectedWrites.run(c, this);
    }
    if (a == Action.ESCALATE && c.fault == Fault.V1 && c.write()) {
      // An irreversible write whose result was rejected: its tool's answer is all there is to keep.
      rejectedWrites.commitAnswered(c);
    }
    if (a == Action.RECONCILE) {
      if (!features.idempotency()) {
        a = Action.RETRY;
      } else if (c.history().reconciledAbsent()) {
        a = Action.RETRY;
      } else if (c.risk() == Risk.R1 && c.tool().reconcileMethod() == null) {
        // For an idempotent write the resend under the same key is the reconciliation: the service
        // answers a known key with its committed result.
        c.history().markReconciledAbsent();
        a = Action.RETRY;
      } else {
        return decide.settle(c, Action.RECONCILE, Decide.unknownOutcome(c.fault));
      }
    }
    switch (a) {
      case RETRY:
        return retry(c);
      case COMPRESS:
        if (!features.degradation()) {
          return decide.fallback(c, Reason.CONTEXT_NOT_COMPRESSIBLE);
        }
        return decide.settle(c, Action.COMPRESS, Reason.CONTEXT_COMPRESSED);
      case DEGRADE_MODEL:
      case DEGRADE_TOOL:
      case DEGRADE_SCOPE:
        return decide.fallback(c, c.fault == Fault.T4 ? Reason.OVERLOADED : Reason.TOOL_UNAVAILABLE);
      case ESCALATE:
        return decide.settle(c, Action.ESCALATE, reasonOf(c));
      case FAIL:
        return decide.fallback(c, reasonOf(c));
      default:
        return decide.fallback(c, reasonOf(c));
    }
  }

  /** Whether a retry passes the gate (which charges step, task and tenant budgets when it does), and its backoff. */
  <R> Next retry(Call<R> c) {
    return retry(c, Reason.RETRYABLE);
  }

  /** As {@link #retry(Call)}; a granted retry is decided with {@code granted} as its reason. */
  <R> Next retry(Call<R> c, Reason granted) {
    if (!features.retry()) {
      return decide.fallback(c, Reason.NOT_RETRYABLE);
    }
    long retryAfter = c.classification == null || !c.policy.respectRetryAfter() ? -1 : c.classification.retryAfterMillis();
    if (retryAfter > failures.maxRetryAfterMillis) {
      c.admitAfter(retryAfter * 1_000_000L); // the provider's rate limit says when
      return decide.fallback(c, Reason.DEADLINE);
    }
    int retryNumber = c.stepAttempts();
    long delay = failures.backoffNanos(retryNumber, c.policy, retryAfter);
    Fault gateFault = features.classification() ? c.fault : Fault.T1;
    // The gate's allocation-free form: a RetryRequest per failed attempt would be one more object per failure.
    // Only a deadline needs the time of the decision (a reading costs ~40 ns on a virtualised host).
    Deadline deadline = c.deadline();
    // A call holding a half-open permit is the probe: its own retries are how the breaker judges the call.
    RetryVerdict verdict = failures.gate.check(gateFault, c.risk(), c.policy.retry(), c.history(), c,
        features.budgets() ? c.tenant() : null, c.holdsProbe ? null : c.breaker(), deadline,
        deadline.bounded() ? clock.nanoTime() : 0L, delay, c.lastLatencyNanos, c.verifyNanos);
    if (verdict.retry()) {
      c.delayNanos = delay;
      c.admitAfterMillis = -1;
      return decide.settle(c, Action.RETRY, granted);
    }
    Reason why = reasonOf(verdict.reason());
    if (why == Reason.TENANT_BUDGET_EXHAUSTED) {
      Next wait = awaitBudget(c, granted, delay, deadline);
      if (wait != null) {
        return wait;
      }
    } else if (why == Reason.CIRCUIT_OPEN && c.breaker() != null) {
      c.admitAfter(Math.max(0L, c.breaker().openUntilNanos() - clock.nanoTime()));
    } else if (retryAfter > 0) {
      // Stopped on a rate limit (its deadline, its attempts): the provider's reset time is when to come back.
      c.admitAfter(retryAfter * 1_000_000L);
    }
    if (why == Reason.STEP_BUDGET_EXHAUSTED || why == Reason.TASK_BUDGET_EXHAUSTED || why == Reason.TENANT_BUDGET_EXHAUSTED) {
      c.rt.meters.retryBudgetExhausted(why);
    }
    return decide.fallback(c, why);
  }

  /**
   * As {@link #reasonOf(Fault)}; an R3 write that failed with a fault a read would retry (a 503, a refused
   * connection) says why it was not: it is irreversible, never that the fault is not retryable.
   */
  private static Reason reasonOf(Call<?> c) {
    Reason byFault = reasonOf(c.fault);
    return byFault == Reason.NOT_RETRYABLE && c.risk() == Risk.R3 ? Reason.IRREVERSIBLE : byFault;
  }

  /**
   * A retry the tenant's budget refused for now. Every refusal says when the budget expects to admit the call
   * ({@code c.admitAfterMillis}). An idempotent (R1) write waits for it, when it comes soon enough — before the
   * deadline, or within the longest Retry-After the engine waits for without one — and asks again (recorded as
   * a retry for reason {@code tenant_budget_exhausted}, its delay the wait): its resend under the same key is
   * what settles a lost answer, and escalating that to a person for want of a token would be wrong. Other calls
   * fail at once, so a tenant's storm does not park its threads. {@code null} when the call does not wait.
   */
  private Next awaitBudget(Call<?> c, Reason granted, long backoffNanos, Deadline deadline) {
    if (failures.gate.tenantBudgets() == null) {
      return null;
    }
    long wait = Math.max(failures.gate.tenantBudgets().nanosUntilAvailable(c.tenant()), MIN_BUDGET_WAIT_NANOS);
    c.admitAfter(wait);
    if (c.risk() != Risk.R1 || c.key() == null) {
      return null;
    }
    long waited = c.budgetWaitedMillis * 1_000_000L + wait;
    boolean fits = deadline.bounded()
        ? deadline.allows(clock.nanoTime(), Math.max(wait, backoffNanos), c.lastLatencyNanos, c.verifyNanos)
        : waited <= failures.maxRetryAfterMillis * 1_000_000L;
    if (!fits) {
      return null;
    }
    c.budgetWaitedMillis = (int) Math.min(Integer.MAX_VALUE, waited / 1_000_000L);
    c.awaitingBudget = granted;
    c.delayNanos = Math.max(wait, backoffNanos);
    c.rt.meters.retryBudgetExhausted(Reason.TENANT_BUDGET_EXHAUSTED);
    return decide.waitThenCheck(c, Reason.TENANT_BUDGET_EXHAUSTED);
  }

  /** The shortest wait for a budget that has no token now: a token bucket's next token is rarely sooner. */
  private static final long MIN_BUDGET_WAIT_NANOS = 10_000_000L;

  /** The reason a class's default action gives when it is not a retry. */
  static Reason reasonOf(Fault fault) {
    if (fault == null) {
      return Reason.NO_SAFE_ALTERNATIVE;
    }
    switch (fault) {
      case T3: return Reason.TIMEOUT_UNKNOWN_STATE;
      case T4: return Reason.OVERLOADED;
      case T5: return Reason.TOOL_UNAVAILABLE;
      case T6: return Reason.CONTEXT_NOT_COMPRESSIBLE;
      case T7: return Reason.PERMANENT_ERROR;
      case T8: return Reason.POLICY_REFUSAL;
      case V1: return Reason.VERIFICATION_FAILED;
      case UNCLASSIFIED: return Reason.UNCLASSIFIED;
      default: return Reason.NOT_RETRYABLE;
    }
  }

  private static Reason reasonOf(StopReason stop) {
    switch (stop) {
      case POLICY_REFUSAL: return Reason.POLICY_REFUSAL;
      case PERMANENT_FAULT: return Reason.PERMANENT_ERROR;
      case IRREVERSIBLE: return Reason.IRREVERSIBLE;
      case RECONCILE_FIRST: return Reason.TIMEOUT_UNKNOWN_STATE;
      case UNCLASSIFIED_PROBED: return Reason.UNCLASSIFIED;
      case NEEDS_OTHER_TARGET: return Reason.NOT_RETRYABLE;
      case COMPRESS_FIRST: return Reason.CONTEXT_NOT_COMPRESSIBLE;
      case SIDE_EFFECT_COMMITTED: return Reason.VERIFICATION_FAILED;
      case SAME_FAULT_REPEATED: return Reason.SAME_FAULT_REPEATED;
      case SAME_VERIFIER_REASON: return Reason.SAME_VERIFIER_REASON;
      case BREAKER_OPEN: return Reason.CIRCUIT_OPEN;
      case DEADLINE: return Reason.DEADLINE;
      case STEP_ATTEMPTS_EXHAUSTED: return Reason.STEP_BUDGET_EXHAUSTED;
      case TASK_BUDGET_EXHAUSTED: return Reason.TASK_BUDGET_EXHAUSTED;
      case TENANT_BUDGET_EXHAUSTED: return Reason.TENANT_BUDGET_EXHAUSTED;
      default: return Reason.NOT_RETRYABLE;
    }
  }
}
