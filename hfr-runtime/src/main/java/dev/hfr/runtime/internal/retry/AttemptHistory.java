package dev.hfr.runtime.internal.retry;

import dev.hfr.annotations.Fault;
import java.util.Objects;

/**
 * What has happened so far in one logical step, as far as the stop conditions of paper §4.3 care: the
 * streak of the same fault class without new evidence, the verifier's last rejection reason and how
 * often it repeated, whether the context was compressed, whether a write's unknown outcome was
 * reconciled as absent, and whether the one probe of an unclassified failure was spent.
 *
 * <p>One per step, used by the thread running the step; not thread-safe.
 */
public final class AttemptHistory {

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

  /**
   * Records a failed attempt.
   *
   * @param fault its class
   * @param newEvidence whether this failure told something the previous one did not (a different status,
   *     error body, Retry-After or verifier evidence); a failure with new evidence restarts the streak
   */
  public void recordFailure(Fault fault, boolean newEvidence) {
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
  public void recordRejection(String reason, boolean newEvidence) {
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
  public void markCompressed() {
    compressed = true;
  }

  /** The ledger's reconcile found the write absent (RECONCILED_ABSENT): resending is safe (Proposition 3). */
  public void markReconciledAbsent() {
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

  public Fault lastFault() {
    return lastFault;
  }

  /** How many failures in a row had the last class and brought no new evidence (1 for a single failure). */
  public int sameFaultStreak() {
    return sameFaultStreak;
  }

  public String lastVerifierReason() {
    return lastVerifierReason;
  }

  /** How many rejections in a row gave the last reason. */
  public int sameVerifierReasonStreak() {
    return sameVerifierReasonStreak;
  }

  public boolean compressed() {
    return compressed;
  }

  public boolean reconciledAbsent() {
    return reconciledAbsent;
  }

  public boolean unclassifiedProbed() {
    return unclassifiedProbed;
  }

  /** Failed attempts recorded. */
  public int failures() {
    return failures;
  }

  @Override
  public String toString() {
    return "AttemptHistory[" + failures + " failures, last " + lastFault + " x" + sameFaultStreak
        + (lastVerifierReason == null ? "" : ", verifier '" + lastVerifierReason + "' x" + sameVerifierReasonStreak) + "]";
  }
}
