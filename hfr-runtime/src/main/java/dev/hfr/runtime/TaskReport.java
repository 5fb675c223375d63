package dev.hfr.runtime;

import dev.hfr.runtime.budget.BudgetUsage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What happened in one task, from the engine's side: the inputs of SR, CSR and SCR (§3.4) and the
 * article's process metrics (retry_count, repeated_actions, failed_tools, high_risk_actions,
 * unverified_side_effects, budget_usage). A final PASS hides how it was reached; this does not.
 *
 * @param tenant the task's tenant
 * @param taskId the task's id
 * @param calls logical tool calls made
 * @param succeeded calls that ended with an accepted result
 * @param failed calls that ended with a structured failure
 * @param escalated calls handed over to a human or upstream system
 * @param degraded calls whose accepted result came from a degradation rung
 * @param attempts physical attempts, all calls and rungs included
 * @param retryCount attempts beyond the first of each call
 * @param repeatedActions times repeated-action detection fired
 * @param failedTools names of the tools whose calls failed or were escalated, in first-failure order
 * @param highRiskActions calls of R2/R3 tools or tools that require approval
 * @param unverifiedSideEffects writes whose effect is in place (or may be) but not verified: left UNKNOWN,
 *     or accepted while verification is still owed
 * @param duplicateSideEffects side effects known to have been committed twice (should be 0)
 * @param replanRequested whether the engine asked the planner to replan
 * @param budgetUsage the task's usage against its limits
 */
public record TaskReport(
    String tenant,
    String taskId,
    int calls,
    int succeeded,
    int failed,
    int escalated,
    int degraded,
    int attempts,
    int retryCount,
    int repeatedActions,
    List<String> failedTools,
    int highRiskActions,
    int unverifiedSideEffects,
    int duplicateSideEffects,
    boolean replanRequested,
    BudgetUsage budgetUsage) {

  public TaskReport {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    failedTools = List.copyOf(failedTools);
  }

  /** SR input: every call ended with an accepted result. */
  public boolean success() {
    return failed == 0 && escalated == 0;
  }

  /** CSR input: success without a duplicate side effect. */
  public boolean cleanSuccess() {
    return success() && duplicateSideEffects == 0;
  }

  /** SCR input: (success or an explicit escalation) without a duplicate side effect. */
  public boolean safeCompletion() {
    return (success() || escalated > 0) && duplicateSideEffects == 0;
  }

  /** The article's process metrics, by their names, ready for a JSON report. */
  public Map<String, Object> processMetrics() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("retry_count", retryCount);
    m.put("repeated_actions", repeatedActions);
    m.put("failed_tools", failedTools);
    m.put("high_risk_actions", highRiskActions);
    m.put("unverified_side_effects", unverifiedSideEffects);
    m.put("budget_usage", budgetUsage == null ? Map.of() : budgetUsage.toMap());
    return m;
  }
}
