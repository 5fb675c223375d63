package dev.hfr.runtime.internal.model;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.internal.retry.FullJitterBackoff;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * What follows a classified failure of one model call on a degradation ladder (paper Tables 2, 5 and 11), for every
 * framework adapter: {@link #decide} answers escalate, fail, compress, retry on the same rung after a wait, or leave
 * the rung; {@link #nextAllowedAfter} says which rungs may run without a human at the ladder's criticality. The
 * adapters call their models, compress their conversations and record the decisions; the rules live here once.
 */
public final class ModelLadderRules {

  /** Where the call goes after a failure. */
  public enum Move {
    /** A policy refusal (T8): hand it to a human; never retried, never degraded around. */
    ESCALATE,
    /** The call ends failed: nothing on this ladder can fix it. */
    FAIL,
    /** The context overflowed (T6): compress the conversation once (L1) and send it again on the same rung. */
    COMPRESS,
    /** Wait {@link Decision#delayNanos()} and call the same rung again. */
    RETRY,
    /** Leave this rung: for the next allowed one, or the end of the ladder when there is none. */
    LEAVE
  }

  /**
   * One decision.
   *
   * @param move where the call goes
   * @param action the paper's action name to record: {@code ESCALATE}, {@code FAIL}, {@code COMPRESS}, {@code RETRY},
   *     {@code DEGRADE_MODEL}
   * @param reason why, in the engine's closed set
   * @param delayNanos the wait before the retry ({@link Move#RETRY} only, else 0)
   * @param detail a short human-readable reason ({@code null} for {@link Move#COMPRESS}: the adapter says how much)
   */
  public record Decision(Move move, String action, Reason reason, long delayNanos, String detail) {}

  private final List<String> names;
  private final List<DegradeLevel> levels;
  private final Criticality.Level criticality;
  private final RetrySpec retry;
  private final long maxWaitNanos;
  private final RandomGenerator random;

  /**
   * @param names the rungs' names, primary first
   * @param levels the rungs' ladder levels, in the same order
   * @param retry attempts, backoff and the classes retried on the same rung
   * @param maxWaitNanos the wait budget of one call, over all its retries
   * @param random the source of the backoff's jitter
   */
  public ModelLadderRules(List<String> names, List<DegradeLevel> levels, Criticality.Level criticality, RetrySpec retry,
      long maxWaitNanos, RandomGenerator random) {
    if (names.size() != levels.size()) {
      throw new IllegalArgumentException(names.size() + " rung names for " + levels.size() + " levels");
    }
    this.names = List.copyOf(names);
    this.levels = List.copyOf(levels);
    this.criticality = Objects.requireNonNull(criticality, "criticality");
    this.retry = Objects.requireNonNull(retry, "retry");
    this.maxWaitNanos = maxWaitNanos;
    this.random = Objects.requireNonNull(random, "random");
  }

  public Criticality.Level criticality() {
    return criticality;
  }

  /** The name of rung {@code rung}. */
  public String name(int rung) {
    return names.get(rung);
  }

  /** The ladder level of rung {@code rung}. */
  public DegradeLevel level(int rung) {
    return levels.get(rung);
  }

  /** Whether a ladder level may run without a human at this criticality (Table 5). */
  public static boolean allowedAutomatically(DegradeLevel level, Criticality.Level criticality) {
    return switch (criticality) {
      case HIGH -> level.compareTo(DegradeLevel.L2) <= 0;
      case MEDIUM -> level.compareTo(DegradeLevel.L3) <= 0;
      case LOW -> true;
    };
  }

  /** The rungs this criticality runs only with a human's consent, as {@code name (level)}, in ladder order. */
  public List<String> needingAHuman() {
    List<String> out = new java.util.ArrayList<>();
    for (int j = 0; j < levels.size(); j++) {
      if (!allowedAutomatically(levels.get(j), criticality)) {
        out.add(names.get(j) + " (" + levels.get(j) + ")");
      }
    }
    return out;
  }

  /** The next rung after {@code rung} that may run automatically, or -1 ({@code rung = -1}: the first one). */
  public int nextAllowedAfter(int rung) {
    for (int j = rung + 1; j < levels.size(); j++) {
      if (allowedAutomatically(levels.get(j), criticality)) {
        return j;
      }
    }
    return -1;
  }

  /**
   * What follows {@code failure} of attempt {@code attempt} on rung {@code rung}: T8 escalates; a failure after
   * {@code delivered} partial responses reached the caller (streaming; 0 otherwise) fails, since a second answer
   * would repeat them; T7 fails (an exhausted quota leaves the rung instead: another provider may serve); T6
   * compresses once; a retryable failure within the attempts and the wait budget waits and tries again; anything
   * else leaves the rung.
   *
   * @param quotaExhausted whether the failure is this provider account's exhausted quota (waiting cannot help)
   * @param waitedNanos the wait this call has spent on retries so far
   * @param compressed whether the conversation was already compressed in this call
   */
  public Decision decide(Classification failure, boolean quotaExhausted, int rung, int attempt, long waitedNanos,
      int delivered, boolean compressed) {
    Fault fault = failure.fault();
    if (fault == Fault.T8) {
      return new Decision(Move.ESCALATE, "ESCALATE", Reason.POLICY_REFUSAL, 0, "policy refusal: not retried, not degraded around");
    }
    if (delivered > 0) {
      return new Decision(Move.FAIL, "FAIL", Reason.NOT_RETRYABLE, 0,
          "failed after " + delivered + " partial responses reached the caller: not retried, it would repeat them");
    }
    if (fault == Fault.T7 && !quotaExhausted) {
      return new Decision(Move.FAIL, "FAIL", Reason.PERMANENT_ERROR, 0, "deterministic request error: no retry can fix it");
    }
    if (fault == Fault.T6) {
      return compressed ? cannotCompress(true) : new Decision(Move.COMPRESS, "COMPRESS", Reason.CONTEXT_COMPRESSED, 0, null);
    }
    long delay = retryDelayNanos(failure, quotaExhausted, attempt, waitedNanos);
    if (delay >= 0) {
      return new Decision(Move.RETRY, "RETRY", Reason.RETRYABLE, delay, retryReason(failure));
    }
    return new Decision(Move.LEAVE, leaveAction(rung), leaveReason(failure, quotaExhausted, rung), 0,
        leaveDetail(failure, quotaExhausted, attempt, rung));
  }

  /** The decision when a T6 conversation cannot be made shorter (again): the call fails. */
  public Decision cannotCompress(boolean alreadyCompressed) {
    return new Decision(Move.FAIL, "FAIL", Reason.CONTEXT_NOT_COMPRESSIBLE, 0,
        alreadyCompressed ? "still over the context window after compression" : "nothing left to compress");
  }

  /** The wait before retrying on the same rung, or -1 when this rung should be left. */
  long retryDelayNanos(Classification failure, boolean quotaExhausted, int attempt, long waitedNanos) {
    Fault fault = failure.fault();
    boolean probe = fault == Fault.UNCLASSIFIED;
    if (quotaExhausted || !(probe || retry.retryOn().contains(fault))) {
      return -1;
    }
    int maxAttempts = probe ? Math.min(2, retry.maxAttempts()) : retry.maxAttempts();
    if (attempt >= maxAttempts) {
      return -1;
    }
    // U(0, min(cap, base * 2^(k-1))), never sooner than the server's Retry-After (paper §4.3).
    long delay = FullJitterBackoff.INSTANCE.delayNanos(attempt, retry, failure.retryAfterMillis(), random);
    return waitedNanos + delay <= maxWaitNanos ? delay : -1;
  }

  private static String retryReason(Classification failure) {
    long ra = failure.retryAfterMillis();
    return failure.fault() == Fault.UNCLASSIFIED ? "unclassified: probing once"
        : ra > 0 ? "honouring Retry-After " + ra + " ms" : "full-jitter backoff";
  }

  private String whyLeave(Classification failure, boolean quotaExhausted, int attempt) {
    Fault fault = failure.fault();
    if (quotaExhausted) {
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
  private String leaveAction(int rung) {
    return nextAllowedAfter(rung) >= 0 ? "DEGRADE_MODEL" : criticality == Criticality.Level.HIGH ? "ESCALATE" : "FAIL";
  }

  /** Why rung {@code rung} is left, in the engine's closed set of reasons. */
  private Reason leaveReason(Classification failure, boolean quotaExhausted, int rung) {
    if (nextAllowedAfter(rung) < 0) {
      return Reason.NO_SAFE_ALTERNATIVE;
    }
    if (quotaExhausted) {
      return Reason.NOT_RETRYABLE;
    }
    return switch (failure.fault()) {
      case T4 -> Reason.OVERLOADED;
      case T5 -> Reason.TOOL_UNAVAILABLE;
      case UNCLASSIFIED -> Reason.UNCLASSIFIED;
      default -> Reason.STEP_BUDGET_EXHAUSTED;
    };
  }

  private String leaveDetail(Classification failure, boolean quotaExhausted, int attempt, int rung) {
    return whyLeave(failure, quotaExhausted, attempt)
        + (nextAllowedAfter(rung) >= 0 ? ", moving down the ladder" : ", no rung left" + disallowedAfter(rung));
  }

  private String disallowedAfter(int rung) {
    StringBuilder sb = new StringBuilder();
    for (int j = rung + 1; j < levels.size(); j++) {
      sb.append(sb.length() == 0 ? " (" : ", ").append(levels.get(j)).append(' ').append(names.get(j));
    }
    return sb.length() == 0 ? "" : sb.append(" needs a human at ").append(criticality).append(" criticality)").toString();
  }
}
