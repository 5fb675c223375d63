package dev.hfr.langchain4j;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.retry.FullJitterBackoff;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The rules {@link HfrChatModel} and {@link HfrStreamingChatModel} share to decide what follows a
 * classified model failure: whether to wait and retry on the same rung, and which rungs of the ladder may
 * run without a human (paper Tables 2, 5 and 11). Kept in one place so both models decide alike.
 */
final class ModelLadderRules {

  private final List<String> names;
  private final List<DegradeLevel> levels;
  private final Criticality.Level criticality;
  private final RetrySpec retry;
  private final long maxWaitNanos;
  private final RandomGenerator random;

  ModelLadderRules(List<String> names, List<DegradeLevel> levels, Criticality.Level criticality, RetrySpec retry,
      long maxWaitNanos, RandomGenerator random) {
    this.names = List.copyOf(names);
    this.levels = List.copyOf(levels);
    this.criticality = criticality;
    this.retry = retry;
    this.maxWaitNanos = maxWaitNanos;
    this.random = random;
  }

  Criticality.Level criticality() {
    return criticality;
  }

  /** Whether a ladder level may run without a human at this criticality (Table 5). */
  static boolean allowedAutomatically(DegradeLevel level, Criticality.Level criticality) {
    return switch (criticality) {
      case HIGH -> level.compareTo(DegradeLevel.L2) <= 0;
      case MEDIUM -> level.compareTo(DegradeLevel.L3) <= 0;
      case LOW -> true;
    };
  }

  boolean allowed(int rung) {
    return allowedAutomatically(levels.get(rung), criticality);
  }

  /** The next rung after {@code rung} that may run automatically, or -1. */
  int nextAllowedAfter(int rung) {
    for (int j = rung + 1; j < levels.size(); j++) {
      if (allowed(j)) {
        return j;
      }
    }
    return -1;
  }

  /** The wait before retrying on the same rung, or -1 when this rung should be left. */
  long retryDelayNanos(ModelFailure failure, int attempt, long waitedNanos) {
    Fault fault = failure.fault();
    boolean probe = fault == Fault.UNCLASSIFIED;
    if (failure.quotaExhausted() || !(probe || retry.retryOn().contains(fault))) {
      return -1;
    }
    int maxAttempts = probe ? Math.min(2, retry.maxAttempts()) : retry.maxAttempts();
    if (attempt >= maxAttempts) {
      return -1;
    }
    // U(0, min(cap, base * 2^(k-1))), never sooner than the server's Retry-After (paper §4.3).
    long delay = FullJitterBackoff.INSTANCE.delayNanos(attempt, retry, failure.classification().retryAfterMillis(), random);
    return waitedNanos + delay <= maxWaitNanos ? delay : -1;
  }

  String retryReason(ModelFailure failure) {
    long ra = failure.classification().retryAfterMillis();
    return failure.fault() == Fault.UNCLASSIFIED ? "unclassified: probing once"
        : ra > 0 ? "honouring Retry-After " + ra + " ms" : "full-jitter backoff";
  }

  String whyLeave(ModelFailure failure, int attempt) {
    Fault fault = failure.fault();
    if (failure.quotaExhausted()) {
      return "quota exhausted on this provider";
    }
    if (fault == Fault.T4) {
      return "model overloaded";
    }
    if (fault == Fault.T5) {
      return "model unavailable";
    }
    if (retry.retryOn().contains(fault) && attempt < retry.maxAttempts()) {
      return "waiting would exceed the wait budget of " + maxWaitNanos / 1_000_000L + " ms";
    }
    return "gave up after " + attempt + " attempt" + (attempt == 1 ? "" : "s");
  }

  /** The action when rung {@code rung} is left: the next rung, or the end of the ladder. */
  String leaveAction(int rung) {
    return nextAllowedAfter(rung) >= 0 ? "DEGRADE_MODEL" : criticality == Criticality.Level.HIGH ? "ESCALATE" : "FAIL";
  }

  /** Why rung {@code rung} is left, in the engine's closed set of reasons. */
  Reason leaveReason(ModelFailure failure, int rung) {
    if (nextAllowedAfter(rung) < 0) {
      return Reason.NO_SAFE_ALTERNATIVE;
    }
    if (failure.quotaExhausted()) {
      return Reason.NOT_RETRYABLE;
    }
    return switch (failure.fault()) {
      case T4 -> Reason.OVERLOADED;
      case T5 -> Reason.TOOL_UNAVAILABLE;
      case UNCLASSIFIED -> Reason.UNCLASSIFIED;
      default -> Reason.STEP_BUDGET_EXHAUSTED;
    };
  }

  /** Why rung {@code rung} is left and where to. */
  String leaveDetail(ModelFailure failure, int attempt, int rung) {
    return whyLeave(failure, attempt) + (nextAllowedAfter(rung) >= 0 ? ", moving down the ladder" : ", no rung left" + disallowedAfter(rung));
  }

  private String disallowedAfter(int rung) {
    StringBuilder sb = new StringBuilder();
    for (int j = rung + 1; j < levels.size(); j++) {
      sb.append(sb.length() == 0 ? " (" : ", ").append(levels.get(j)).append(' ').append(names.get(j));
    }
    return sb.length() == 0 ? "" : sb.append(" needs a human at ").append(criticality).append(" criticality)").toString();
  }
}
