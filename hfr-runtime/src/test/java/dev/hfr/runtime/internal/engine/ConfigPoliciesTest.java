package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Policies from the YAML configuration")
class ConfigPoliciesTest {

  private static final HfrConfig CONFIG = HfrConfigLoader.parse(String.join("\n",
      "hfr:",
      "  version: \"1.0\"",
      "  tenants:",
      "    tight:",
      "      retry:",
      "        max_retries_per_task: 1",
      "      limits:",
      "        max_same_tool_calls: 2",
      ""), "hfr.yaml");

  @Test
  @DisplayName("apply a tenant's task budget and limits to its tasks only")
  void tenantOverrides() {
    Fixtures f = new Fixtures();
    Hfr hfr = f.builder().config(CONFIG).build();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("tight", "t1").build())) {
      ScriptedTool<String> tool = new ScriptedTool<String>("q").failsTimes(2, Fixtures.unavailable()).returns("ok");
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), tool));
      assertThat(e.outcome().reason()).isEqualTo(Reason.TASK_BUDGET_EXHAUSTED.code());
      assertThat(tool.methodCalls).isEqualTo(2);
      assertThat(task.report().budgetUsage().maxRetries()).isEqualTo(1);
    }
    try (TaskScope task = hfr.openTask(TaskSpec.builder("relaxed", "t1").build())) {
      ScriptedTool<String> tool = new ScriptedTool<String>("q").failsTimes(2, Fixtures.unavailable()).returns("ok");
      assertThat(hfr.execute(Fixtures.read("search"), tool)).isEqualTo("ok");
      assertThat(task.report().budgetUsage().maxRetries()).isEqualTo(10);
    }
  }

  @Test
  @DisplayName("build each tenant's task limits once: every task of a tenant gets the same limits, each tenant its own")
  void taskLimitsBuiltOncePerTenant() {
    ConfigPolicies policies = new ConfigPolicies(CONFIG, 0);
    assertThat(policies.taskLimits("tight")).isSameAs(policies.taskLimits("tight"));
    assertThat(policies.taskLimits("tight").maxRetries()).isEqualTo(1);
    assertThat(policies.taskLimits("tight").maxSameToolCalls()).isEqualTo(2);
    assertThat(policies.taskLimits("relaxed")).as("tenants without a section share the defaults")
        .isSameAs(policies.taskLimits("other")).isNotSameAs(policies.taskLimits("tight"));
    assertThat(policies.taskLimits("relaxed").maxRetries()).isEqualTo(10);
    assertThat(policies.taskLimits("relaxed").maxWallTime()).isEqualTo(java.time.Duration.ofMinutes(10));
  }

  @Test
  @DisplayName("give a call the stricter floor and narrower levels of a task more critical than its tool")
  void taskCriticalityWins() {
    ConfigPolicies policies = new ConfigPolicies(HfrConfig.defaults(), 0);
    CallPolicy p = policies.policy("acme", Fixtures.modelWithLadder(Criticality.Level.LOW), Criticality.Level.HIGH);
    assertThat(p.criticality()).isEqualTo(Criticality.Level.HIGH);
    assertThat(p.qualityFloor()).isEqualTo(0.92);
    assertThat(p.allowedAutomatic()).containsExactlyInAnyOrder(DegradeLevel.L1, DegradeLevel.L2);
    assertThat(p.verifyLevel()).isEqualTo(VerifyLevel.V2);
  }

  @Test
  @DisplayName("give a tool the breaker thresholds of its own circuit_breaker section, and the others the global ones")
  void perToolBreaker() {
    HfrConfig config = HfrConfigLoader.parse(String.join("\n",
        "hfr:",
        "  version: \"1.0\"",
        "  tools:",
        "    Search.fragile:",
        "      circuit_breaker:",
        "        consecutive_failures: 2",
        ""), "hfr.yaml");
    Fixtures f = new Fixtures();
    Hfr hfr = f.builder().checkConfig(false).config(config).build();   // tools described by hand, not generated
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t1").build())) {
      // A breaker judges calls: two calls that fail (one attempt each) trip a threshold of 2.
      RetrySpec once = RetrySpec.of(1, 100, 1000, Fault.T1);
      ToolDescriptor fragileTool = Fixtures.readBuilder("fragile").retry(once).build();
      ScriptedTool<String> fragile = new ScriptedTool<String>("q").failsTimes(10, Fixtures.unavailable());
      for (int i = 0; i < 2; i++) {
        catchThrowableOfType(ToolCallException.class, () -> hfr.execute(fragileTool, fragile));
      }
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(fragileTool, fragile));
      assertThat(e.outcome().reason()).isEqualTo(Reason.CIRCUIT_OPEN.code());
      assertThat(fragile.methodCalls).isEqualTo(2); // the third call met the open breaker

      // The same two failed calls leave a tool on the global thresholds (5 in a row) closed: the third call runs.
      ToolDescriptor sturdyTool = Fixtures.readBuilder("sturdy").retry(once).build();
      ScriptedTool<String> sturdy = new ScriptedTool<String>("q").failsTimes(2, Fixtures.unavailable()).returns("ok");
      for (int i = 0; i < 2; i++) {
        catchThrowableOfType(ToolCallException.class, () -> hfr.execute(sturdyTool, sturdy));
      }
      assertThat(hfr.execute(sturdyTool, sturdy)).isEqualTo("ok");
      assertThat(sturdy.methodCalls).isEqualTo(3);
      assertThat(task.report().calls()).isEqualTo(6);
    }
  }
}
