package dev.hfr.runtime.observation;

import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;

/**
 * Told what happens inside each call the state machine runs, on the thread that runs it: every decision, and how
 * the call ended. What {@link dev.hfr.runtime.observation.ToolCallObservations} turns into span events and tags.
 * Calls that never leave the clean path (a read answered at its first attempt) produce neither. Implementations
 * must be cheap and must not throw.
 */
public interface CallListener {

  /** Listens to nothing. */
  CallListener NONE = new CallListener() {
    @Override
    public void decided(DecisionEvent event) {}

    @Override
    public void ended(ToolOutcome outcome, LedgerState ledgerState) {}
  };

  /** The engine took a decision (after a failed attempt, a reconcile, a verification). */
  void decided(DecisionEvent event);

  /**
   * The call ended with {@code outcome}: accepted, or the structured failure it throws; {@code ledgerState} is its
   * write's ledger state then, {@code null} for a read.
   */
  void ended(ToolOutcome outcome, LedgerState ledgerState);
}
