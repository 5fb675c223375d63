package dev.hfr.runtime.internal.retry;

import dev.hfr.annotations.Fault;
import java.util.Objects;

/**
 * What has happened so far in one logical step, as far as the stop conditions of paper §4.3 care: the
 * streak of the same fault class without new evidence, the verifier's last rejection reason and how
 * often it repeated, whether the context was compressed, whether a write's unknown outcome was
 * reconciled as absent, and whether the one probe of an unclassified failure was spent.
 *
 * <p>One per step, used by the thread running the step; not thread-safe. The engine's call extends it rather
 * than holding one: a read's call exists only because it failed, so its history costs no object of its own, and
 * a new target {@linkplain #restart() restarts} it.
 */
public class AttemptHistory {

  private Fault lastFault;
  private int sameFaultStreak;
  private String lastVerifierReason;
  private int sameVerifierReasonStreak;
  private boolean compressed;
  private boolean reconciledAbsent;
  private boolean unclassifiedProbed;
  private int failures;

  /** A fresh step: nothing has failed yet. */
  public AttemptHistory() {}

  /** Forgets everything recorded, as a fresh history would: streaks against an old target do not carry over. */
  protected final void restart() {
    lastFault = null;
    sameFaultStreak = 0;
    lastVerifierReason = null;
    sameVerifierReasonStreak = 0;
    compressed = false;
    reconciledAbsent = false;
    unclassifiedProbed = false;
    failures = 0;
  }

  /**
   * Records a failed attempt.
   *
   * @param fault its class
   * @param newEvidence whether this failure told something the previous one did not (a different status,
   *     error body, Retry-After or verifier evidence); a failure with new evidence restarts the streak
   */
  public final void recordFailure(Fault fault, boolean newEvidence) {
    Objects.requireNonNull(fault, "fault");
    failures++;
    sameFaultStreak = fault == lastFault && !newEvidence ? sameFaultStreak + 1 : 1;
    lastFault = fault;
    if (fault != Fault.V1) {
      lastVerifierReason = null;
      sameVerifierReasonStreak = 0;
    }
  }

  /** Records a verifier rejection (a V1 failure) with its reason; call it instead of {@link #recordFailure}. */
  public final void recordRejection(String reason, boolean newEvidence) {
    Objects.requireNonNull(reason, "reason");
    sameVerifierReasonStreak = reason.equals(lastVerifierReason) ? sameVerifierReasonStreak + 1 : 1;
    lastVerifierReason = reason;
    recordFailureKeepingReason(newEvidence);
  }

  private void recordFailureKeepingReason(boolean newEvidence) {
    failures++;
    sameFaultStreak = lastFault == Fault.V1 && !newEvidence ? sameFaultStreak + 1 : 1;
    lastFault = Fault.V1;
  }

  /** The context was compressed since the last T6: one more attempt of the step is worth making. */
  public final void markCompressed() {
    compressed = true;
  }

  /** The ledger's reconcile found the write absent (RECONCILED_ABSENT): resending is safe (Proposition 3). */
  public final void markReconciledAbsent() {
    reconciledAbsent = true;
  }

  /** Consumes the one probing retry an unclassified failure of a read gets. */
  void markUnclassifiedProbed() {
    unclassifiedProbed = true;
  }

  /** Clears the one-shot marks after a retry has used them (a new T3 needs a new reconcile, a new T6 a new compression). */
  void consumeMarks() {
    compressed = false;
    reconciledAbsent = false;
  }

  public final Fault lastFault() {
    return lastFault;
  }

  /** How many failures in a row had the last class and brought no new evidence (1 for a single failure). */
  public final int sameFaultStreak() {
    return sameFaultStreak;
  }

  public final String lastVerifierReason() {
    return lastVerifierReason;
  }

  /** How many rejections in a row gave the last reason. */
  public final int sameVerifierReasonStreak() {
    return sameVerifierReasonStreak;
  }

  public final boolean compressed() {
    return compressed;
  }

  public final boolean reconciledAbsent() {
    return reconciledAbsent;
  }

  public final boolean unclassifiedProbed() {
    return unclassifiedProbed;
  }

  /** Failed attempts recorded. */
  public final int failures() {
    return failures;
  }

  @Override
  public String toString() {
    return "AttemptHistory[" + failures + " failures, last " + lastFault + " x" + sameFaultStreak
        + (lastVerifierReason == null ? "" : ", verifier '" + lastVerifierReason + "' x" + sameVerifierReasonStreak) + "]";
  }
}
