package dev.hfr.runtime.internal.retry;

import java.util.EnumMap;
import java.util.Map;

/**
 * The answer of {@link RetryGate#check}: retry, or stop with a {@link StopReason}. A {@code RETRY} verdict
 * is a permit — the retry it allows has already been charged to the step, task and tenant budgets.
 * There is one shared instance per answer, so checking never allocates.
 */
public final class RetryVerdict {

  /** Retry (the budgets are already charged). */
  public static final RetryVerdict RETRY = new RetryVerdict(null);

  private static final Map<StopReason, RetryVerdict> STOPS = new EnumMap<>(StopReason.class);

  static {
    for (StopReason reason : StopReason.values()) {
      STOPS.put(reason, new RetryVerdict(reason));
    }
  }

  private final StopReason reason;

  private RetryVerdict(StopReason reason) {
    this.reason = reason;
  }

  /** The verdict refusing a retry for {@code reason}. */
  public static RetryVerdict stop(StopReason reason) {
    RetryVerdict verdict = STOPS.get(reason);
    if (verdict == null) {
      throw new NullPointerException("reason");
    }
    return verdict;
  }

  /** Whether the retry may be made. */
  public boolean retry() {
    return reason == null;
  }

  /** Why not, or {@code null} for {@link #RETRY}. */
  public StopReason reason() {
    return reason;
  }

  /** {@code retry}, or the stop reason's code: for decision events. */
  public String code() {
    return reason == null ? "retry" : reason.code();
  }

  @Override
  public String toString() {
    return reason == null ? "RetryVerdict[retry]" : "RetryVerdict[stop: " + reason.code() + "]";
  }
}
