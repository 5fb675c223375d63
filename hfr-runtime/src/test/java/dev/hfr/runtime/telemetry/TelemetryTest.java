package dev.hfr.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("Telemetry")
class TelemetryTest {

  @Test
  @DisplayName("writes one JSON object per line, with enums by name and nulls left out")
  void jsonLines(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    DecisionEvent e = new DecisionEvent(1_700_000_000_000L, "enforce", "acme", "t-1", 2, "Orders.createOrder", Risk.R2, 1,
        DegradeLevel.L0, Fault.T3, 0.9, "exception.timeout", Action.RECONCILE, Reason.TIMEOUT_UNKNOWN_STATE, 0, 1500, 3, 9,
        null, "ab12", null, "k3y", "UNKNOWN");
    try (JsonLinesDecisionSink sink = JsonLinesDecisionSink.open(file)) {
      sink.record(e);
      sink.record(e);
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(lines).hasSize(2);
    JsonNode json = new ObjectMapper().readTree(lines.get(0));
    assertThat(json.get("action").asText()).isEqualTo("RECONCILE");
    assertThat(json.get("fault").asText()).isEqualTo("T3");
    assertThat(json.get("ledgerState").asText()).isEqualTo("UNKNOWN");
    assertThat(json.has("verifierReason")).isFalse();
  }

  @Test
  @DisplayName("names meters in dot style, with descriptions, units that keep the §5.5 names and bounded tags, resolved once per tool")
  void meters() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    HfrMeters meters = new HfrMeters(registry);
    ToolDescriptor tool = ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2).reconcile("find").build();
    ToolMeters m = meters.forTool(tool);
    assertThat(meters.forTool(tool)).isSameAs(m);

    m.attempt(Fault.T1, false);
    m.attempt(null, true);
    m.decision(Action.RETRY, false);
    m.retryBudgetExhausted(Reason.TENANT_BUDGET_EXHAUSTED);
    m.degradation(DegradeLevel.L2, Fault.T4);
    m.degradationQualityDelta(DegradeLevel.L2, 0.1);
    m.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
    m.verificationFailure(VerifyLevel.V1, ToolMeters.VerificationFailure.of("a reason written by a user"));
    m.escalation(Reason.RECONCILE_UNKNOWN);
    m.approval(false);
    m.duplicateSideEffect();
    m.call(ToolOutcome.Status.SUCCESS, false, 1_000_000, 2);
    m.controllerFailure(false);

    assertThat(registry.get("harness.attempts").tag("class", "T1").tag("outcome", "failure").counter().count()).isEqualTo(1);
    assertThat(registry.get("harness.verification.failures").tag("reason", "rejected").counter().count()).isEqualTo(1);
    assertThat(registry.get("harness.retry.budget.exhausted").tag("budget", "tenant_budget_exhausted").counter().count())
        .isEqualTo(1);
    for (Meter meter : registry.getMeters()) {
      assertThat(meter.getId().getName()).startsWith("harness.").matches("[a-z.]+");
      assertThat(meter.getId().getDescription()).as(meter.getId().getName()).isNotBlank();
      String unit = meter.getId().getBaseUnit();
      if (unit != null && meter.getId().getType() != Meter.Type.TIMER) {
        // A unit is only set where it is the name's last word, so exported names stay the paper's.
        assertThat(meter.getId().getName().replace('.', '_')).as(meter.getId().getName()).endsWith(unit);
      }
      assertThat(meter.getId().getTag("tool")).isIn("Orders.createOrder", null);
    }
  }
}
