package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.CallFailedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.telemetry.DecisionEvent;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A call made outside any scope runs in a one-call task: a small record created only when the call leaves
 * the clean path, whose id is numbered only when something needs it, and whose report is that call's.
 */
@DisplayName("Calls outside any scope")
class OneCallTaskTest {

  private final Fixtures f = new Fixtures();

  @Test
  @DisplayName("a read that keeps failing reports a task of one call: its attempts, retries and the failed tool")
  void failingReadReportsItsOneCall() {
    Hfr hfr = f.engine();
    ToolDescriptor search = Fixtures.read("search");
    ScriptedTool<String> tool = new ScriptedTool<String>("q").failsTimes(4, Fixtures.unavailable());

    ToolCallException e = catchThrowableOfType(() -> hfr.execute(search, tool), ToolCallException.class);

    TaskReport report = e.taskReport().orElseThrow();
    assertThat(report.calls()).isEqualTo(1);
    assertThat(report.succeeded()).isZero();
    assertThat(report.failed() + report.escalated()).isEqualTo(1);
    assertThat(report.attempts()).isEqualTo(tool.methodCalls);
    assertThat(report.retryCount()).isEqualTo(tool.methodCalls - 1);
    assertThat(report.failedTools()).containsExactly(search.name());
    assertThat(report.budgetUsage()).isNull();
  }

  @Test
  @DisplayName("its retry budget is the configured B_t of a task: exhausting it ends the call")
  void retryBudgetBoundsTheCall() {
    Hfr hfr = f.builder().config(HfrConfigLoader.parse("hfr:\n  retry:\n    max_retries_per_task: 1\n", "hfr.yaml")).build();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").failsTimes(4, Fixtures.timeout()).returns("late");

    CallFailedException e = catchThrowableOfType(() -> hfr.execute(Fixtures.read("search"), tool), CallFailedException.class);

    assertThat(tool.methodCalls).isEqualTo(2);
    assertThat(e.outcome().reason()).isEqualTo("task_budget_exhausted");
  }

  @Test
  @DisplayName("a rung is charged to its B_t too: with the budget spent on a retry, the ladder is closed")
  void rungsDrawOnTheSameBudget() {
    Hfr hfr = f.builder().config(HfrConfigLoader.parse("hfr:\n  retry:\n    max_retries_per_task: 1\n", "hfr.yaml")).build();
    ScriptedTool<String> model = new ScriptedTool<String>("p").failsTimes(4, Fixtures.unavailable()).rungReturns(0, "backup");

    ToolCallException e = catchThrowableOfType(
        () -> hfr.execute(Fixtures.modelWithLadder(Criticality.Level.MEDIUM), model), ToolCallException.class);

    assertThat(model.methodCalls).isEqualTo(2);
    assertThat(model.rungCalls[0]).isZero();
    assertThat(e.outcome().reason()).isEqualTo("task_budget_exhausted");
  }

  @Test
  @DisplayName("a retry the tenant's budget refuses is given back to the step and the task: the decision says so")
  void tenantRefusalRefundsTheRetry() {
    TenantRetryBudgets none = TenantRetryBudgets.builder(f.time).retriesPerWindow(0).ratio(0).build();
    Hfr hfr = f.builder().tenantBudgets(none).build();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(Fixtures.timeout()).returns("late");

    catchThrowableOfType(() -> hfr.execute(Fixtures.read("search"), tool), CallFailedException.class);

    assertThat(tool.methodCalls).isEqualTo(1);
    DecisionEvent refused = f.sink.events.get(0);
    assertThat(refused.reason()).isEqualTo(Reason.TENANT_BUDGET_EXHAUSTED);
    assertThat(refused.stepRetriesLeft()).as("the step's 4 attempts, 1 made").isEqualTo(3);
    assertThat(refused.taskRetriesLeft()).as("B_t untouched").isEqualTo(10);
  }

  @Test
  @DisplayName("each failing call is its own task, with its own id, named in its decisions")
  void eachCallIsItsOwnTask() {
    Hfr hfr = f.engine();
    ToolDescriptor search = Fixtures.read("search");

    hfr.execute(search, new ScriptedTool<String>("a").fails(Fixtures.timeout()).returns("x"));
    hfr.execute(search, new ScriptedTool<String>("b").fails(Fixtures.timeout()).returns("y"));

    assertThat(f.sink.events).hasSize(2);
    String first = f.sink.events.get(0).taskId();
    String second = f.sink.events.get(1).taskId();
    assertThat(first).isNotNull().isNotEqualTo(second);
    assertThat(f.sink.events).extracting(DecisionEvent::step).containsOnly(1L);
  }
}
