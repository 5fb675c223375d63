package dev.hfr.runtime.observation;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.observation.Observation;

/**
 * What one tool call's {@link Observation} knows: the tool and its task when it starts; the last decision and the
 * outcome as the engine reports them ({@link ToolCallObservations}). Read by the convention when the call ends.
 */
public class ToolCallContext extends Observation.Context {

  private final ToolDescriptor tool;
  private final String tenant;
  private final String taskId;
  private final boolean shadow;
  private volatile DecisionEvent lastDecision;
  private volatile ToolOutcome outcome;
  private volatile LedgerState ledgerState;

  public ToolCallContext(ToolDescriptor tool, String tenant, String taskId, boolean shadow) {
    this.tool = tool;
    this.tenant = tenant;
    this.taskId = taskId;
    this.shadow = shadow;
  }

  public ToolDescriptor tool() {
    return tool;
  }

  public Risk risk() {
    return tool.risk();
  }

  /** The task's tenant, or {@code null} for a call outside any task. */
  public String tenant() {
    return tenant;
  }

  /** The task's id, or {@code null} for a call outside any task. */
  public String taskId() {
    return taskId;
  }

  /** Whether the engine ran in shadow mode (decided and recorded, acted as before). */
  public boolean shadow() {
    return shadow;
  }

  /** The last decision taken for this call, or {@code null} when it took none (a clean call). */
  public DecisionEvent lastDecision() {
    return lastDecision;
  }

  /** How the call ended, or {@code null} for a call that never left the clean path. */
  public ToolOutcome outcome() {
    return outcome;
  }

  /** The write's ledger state when the call ended, or {@code null} for a read or a call that never left the clean path. */
  public LedgerState ledgerState() {
    return ledgerState;
  }

  void decided(DecisionEvent event) {
    lastDecision = event;
  }

  void ended(ToolOutcome outcome, LedgerState ledgerState) {
    this.outcome = outcome;
    this.ledgerState = ledgerState;
  }
}
