package dev.hfr.runtime.telemetry;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import java.util.Objects;

/**
 * One decision of the engine (§5.5: the log is organised around decisions, not exceptions): what was
 * seen, how it was classified, what was decided and why, with the budgets left. Arguments and results
 * appear only as SHA-256 hashes; nothing raw from a call is ever written here.
 *
 * @param epochMillis when the decision was taken (the engine's clock)
 * @param mode {@code enforce} or {@code shadow} (shadow: decided and recorded, not acted on)
 * @param tenant the task's tenant
 * @param taskId the task's id
 * @param step the logical step of the call within its task
 * @param tool the tool's name ({@code SimpleClass.method})
 * @param risk the tool's side-effect risk
 * @param attempt the physical attempt the decision follows (1 = the first)
 * @param rung the degradation rung the attempt ran on ({@code L0} = the method itself)
 * @param fault the F2D-9 class of the failure, or {@code null} when the attempt succeeded
 * @param confidence the classifier's confidence (0 when nothing was classified)
 * @param rule the classifier rule or the verification level that decided the class
 * @param action the decided action
 * @param reason why
 * @param delayMillis the wait before the next attempt of a retry (its backoff, or the wait for the tenant's retry
 *     budget when the reason is {@code tenant_budget_exhausted}); for a call an open breaker or an empty budget
 *     refused, when that expects to admit the call; 0 otherwise
 * @param latencyMillis how long the attempt took
 * @param stepRetriesLeft retries left in the step budget after this decision
 * @param taskRetriesLeft retries left in the task budget after this decision
 * @param verifierReason a verifier's stable rejection reason, or {@code null}
 * @param argsHash SHA-256 of the canonical arguments; {@code null} in a decision kept only for an
 *     escalation when the sink takes no events (see {@link DecisionSink#wantsEvents()}) and the hash was
 *     not yet known — the evidence bundle fills it in
 * @param resultHash SHA-256 of the result, or {@code null}
 * @param ledgerKey the write's idempotency key (itself a hash), or {@code null} for reads
 * @param ledgerState the write's ledger state after the decision, or {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DecisionEvent(
    long epochMillis,
    String mode,
    String tenant,
    String taskId,
    long step,
    String tool,
    Risk risk,
    int attempt,
    DegradeLevel rung,
    Fault fault,
    double confidence,
    String rule,
    Action action,
    Reason reason,
    long delayMillis,
    long latencyMillis,
    int stepRetriesLeft,
    int taskRetriesLeft,
    String verifierReason,
    String argsHash,
    String resultHash,
    String ledgerKey,
    String ledgerState) {

  /** This event with {@code argsHash} set, or this event itself when it already carries that hash. */
  public DecisionEvent withArgsHash(String argsHash) {
    return complete(taskId, argsHash);
  }

  /**
   * This event with the task id and argument hash filled in where they are {@code null} (the engine leaves
   * them out of the decisions it keeps only for a possible escalation), or this event itself when both are
   * there.
   */
  public DecisionEvent complete(String taskId, String argsHash) {
    String id = this.taskId != null ? this.taskId : taskId;
    String hash = this.argsHash != null ? this.argsHash : argsHash;
    if (Objects.equals(id, this.taskId) && Objects.equals(hash, this.argsHash)) {
      return this;
    }
    return new DecisionEvent(epochMillis, mode, tenant, id, step, tool, risk, attempt, rung, fault, confidence, rule,
        action, reason, delayMillis, latencyMillis, stepRetriesLeft, taskRetriesLeft, verifierReason, hash,
        resultHash, ledgerKey, ledgerState);
  }
}
