package dev.hfr.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
  @DisplayName("writes each line as Jackson's databind wrote it, byte for byte, whole lines from threads recording at once")
  void jsonLinesAsDatabindWroteThem(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    ObjectWriter databind = JsonMapper.builder().build().writerFor(DecisionEvent.class);
    int threads = 4;
    int each = 300;
    Map<Long, String> expected = new ConcurrentHashMap<>();
    try (JsonLinesDecisionSink sink = JsonLinesDecisionSink.open(file)) {
      List<Thread> recorders = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        recorders.add(new Thread(() -> {
          for (int i = 0; i < each; i++) {
            long step = thread * 1_000L + i;
            DecisionEvent e = new DecisionEvent(1_700_000_000_000L + i, "enforce", "t\u00e9nant " + thread, "order-" + step,
                step, "Orders.createOrder", Risk.values()[i % Risk.values().length], 1 + i % 3, DegradeLevel.L0,
                i % 2 == 0 ? Fault.T1 : null, 0.9, "exception \"timeout\"", Action.RETRY, Reason.RETRYABLE, i, 7, 2, 9,
                i % 5 == 0 ? "line\nbreak" : null, "ab12", null, null, null);
            try {
              expected.put(step, databind.writeValueAsString(e));
              sink.record(e);
            } catch (IOException x) {
              throw new UncheckedIOException(x);
            }
          }
        }));
      }
      recorders.forEach(Thread::start);
      for (Thread r : recorders) {
        r.join();
      }
    }
    String content = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(content).endsWith(System.lineSeparator());
    String[] lines = content.split(System.lineSeparator());
    assertThat(lines).hasSize(threads * each);
    for (String line : lines) {
      long step = new ObjectMapper().readTree(line).get("step").asLong();
      assertThat(line).isEqualTo(expected.get(step));
    }
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
    m.call(ToolOutcome.Status.SUCCESS, false, 1_000_000);
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

  @Test
  @DisplayName("a clean call is one increment, yet it shows in the attempts, the calls, the amplification and, timed, the duration")
  void cleanCalls() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ToolMeters m = new HfrMeters(registry).forTool(ToolDescriptor.builder("com.acme.Catalog", "find", Risk.R0).build());
    assertThat(registry.get("harness.retry.amplification").gauge().value()).isNaN(); // no call yet

    m.cleanCall();
    m.cleanCall(2_000_000);
    // One other call: a T1 failure, then a success.
    m.attempt(Fault.T1, false);
    m.attempt(null, true);
    m.call(ToolOutcome.Status.SUCCESS, false, 5_000_000);

    assertThat(registry.get("harness.calls").functionCounter().count()).isEqualTo(3);
    assertThat(registry.get("harness.attempts").tag("class", "none").tag("outcome", "success").functionCounter().count())
        .isEqualTo(3);
    assertThat(registry.get("harness.retry.amplification").gauge().value()).isEqualTo(4.0 / 3);
    Timer success = registry.get("harness.call.duration").tag("status", "success").tag("degraded", "false").timer();
    assertThat(success.count()).isEqualTo(2); // the untimed clean call is counted in harness.calls only
    assertThat(success.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(7.0);
  }

  @Test
  @DisplayName("clean calls counted in counters shared with breakers show in the calls, the attempts and the amplification, once")
  void sharedCleanCallCounts() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ToolMeters m = new HfrMeters(registry).forTool(ToolDescriptor.builder("com.acme.Catalog", "find", Risk.R0).build());
    java.util.concurrent.atomic.LongAdder acme = m.newSharedCleanCallCount();
    java.util.concurrent.atomic.LongAdder globex = m.newSharedCleanCallCount();

    acme.add(2); // two clean calls a breaker counted for tenant acme
    globex.increment();
    m.cleanCallCounted(3_000_000); // ... the last of them timed: its duration only
    m.cleanCall(); // one the breaker recorded under its lock: counted by the meters themselves

    assertThat(registry.get("harness.calls").functionCounter().count()).isEqualTo(4);
    assertThat(registry.get("harness.attempts").tag("class", "none").tag("outcome", "success").functionCounter().count())
        .isEqualTo(4);
    assertThat(registry.get("harness.retry.amplification").gauge().value()).isEqualTo(1.0);
    Timer success = registry.get("harness.call.duration").tag("status", "success").tag("degraded", "false").timer();
    assertThat(success.count()).isEqualTo(1);
    assertThat(success.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3.0);
  }
}
