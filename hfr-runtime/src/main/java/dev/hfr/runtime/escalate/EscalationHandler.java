package dev.hfr.runtime.escalate;

/**
 * Receives the calls the engine hands over (the ESCALATE action, and L4 "human" degradation): a ticket
 * system, a paging hook, an approval queue. The call then ends with status {@code ESCALATED}. If the
 * handler throws, the escalation did not reach anyone: the call ends {@code FAILED} with reason
 * {@code escalation_failed}, and its evidence is still in the decision log.
 */
@FunctionalInterface
public interface EscalationHandler {

  /** Takes over the call described by {@code evidence}. */
  void escalate(EvidenceBundle evidence) throws Exception;

  /** Keeps nothing beyond the decision log and the {@code harness.escalations} meter. */
  static EscalationHandler recordOnly() {
    return evidence -> {};
  }
}
