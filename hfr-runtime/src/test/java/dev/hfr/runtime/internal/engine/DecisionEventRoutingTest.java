package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.telemetry.CapturedLogger;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Where decision events go, and the telemetry.* settings")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class DecisionEventRoutingTest {

  private static final HfrFeatures NO_BREAKERS = HfrFeatures.builder().circuitBreaker(false).build();

  private static HfrConfig telemetry(String settings) {
    return HfrConfigLoader.parse("hfr:\n  telemetry: {" + settings + "}\n", "hfr.yaml");
  }

  /** One read in {@code taskId} that fails with HTTP 503 (T1) and then answers: one RETRY decision. */
  private static void transientRead(Hfr hfr, String taskId) {
    ScriptedTool<String> search = new ScriptedTool<String>("q").fails(Fixtures.unavailable()).returns("hits");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", taskId).build())) {
      hfr.execute(Fixtures.read("search"), search);
    }
  }

  @Test
  @DisplayName("by default go to the System.Logger dev.hfr.decisions as JSON, written off the calling thread, and nothing lands in the working directory")
  void defaultDestination() throws IOException {
    Fixtures f = new Fixtures();
    Set<Path> before = workingDirectory();
    try (CapturedLogger captured = CapturedLogger.at(Level.INFO)) {
      Hfr hfr = Hfr.builder().clock(f.time).sleeper(f.time).ledger(f.ledger).build();
      transientRead(hfr, "checkout-7");
      hfr.close(); // flushes the queue

      assertThat(captured.records).singleElement().satisfies(r -> {
        assertThat(r.getLoggerName()).isEqualTo("dev.hfr.decisions");
        assertThat(r.getLongThreadID()).isNotEqualTo(Thread.currentThread().getId());
      });
      JsonNode event = new ObjectMapper().readTree(captured.messages().get(0));
      assertThat(event.get("action").asText()).isEqualTo("RETRY");
      assertThat(event.get("taskId").asText()).isEqualTo("checkout-7");
      assertThat(event.get("argsHash").asText()).hasSize(64);
    }
    assertThat(workingDirectory()).isEqualTo(before);
  }

  private static Set<Path> workingDirectory() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("").toAbsolutePath())) {
      return files.collect(Collectors.toSet());
    }
  }

  @Test
  @DisplayName("emit_decision_events: false emits none, to the default log or to a sink of the application's")
  void emitFalse() {
    try (CapturedLogger captured = CapturedLogger.at(Level.INFO)) {
      Fixtures f = new Fixtures();
      Hfr own = f.builder().config(telemetry("emit_decision_events: false")).build();
      transientRead(own, "t-1");
      Fixtures g = new Fixtures();
      Hfr byDefault = Hfr.builder().clock(g.time).sleeper(g.time).ledger(g.ledger)
          .config(telemetry("emit_decision_events: false")).build();
      transientRead(byDefault, "t-2");
      byDefault.close();

      assertThat(f.sink.events).isEmpty();
      assertThat(captured.records).isEmpty();
      // The decision itself still happened and is counted.
      assertThat(f.registry.get("harness.decisions").tag("action", "retry").counter().count()).isEqualTo(1.0);
    }
    Fixtures on = new Fixtures();
    transientRead(on.builder().config(telemetry("emit_decision_events: true")).build(), "t-3");
    assertThat(on.sink.actions()).containsExactly(Action.RETRY);
  }

  @Test
  @DisplayName("redact_pii: true (the default) redacts e-mail addresses and the like in free-text fields; false keeps them")
  void redactPii() throws IOException {
    Fixtures redacted = new Fixtures();
    transientRead(redacted.builder().config(telemetry("redact_pii: true")).build(), "refund:jane.doe@example.com");
    assertThat(redacted.sink.events).extracting(DecisionEvent::taskId).containsExactly("refund:<email>");

    Fixtures byDefault = new Fixtures();
    transientRead(byDefault.engine(), "refund:jane.doe@example.com");
    assertThat(byDefault.sink.events).extracting(DecisionEvent::taskId).containsExactly("refund:<email>");

    Fixtures kept = new Fixtures();
    transientRead(kept.builder().config(telemetry("redact_pii: false")).build(), "refund:jane.doe@example.com");
    assertThat(kept.sink.events).extracting(DecisionEvent::taskId).containsExactly("refund:jane.doe@example.com");

    try (CapturedLogger captured = CapturedLogger.at(Level.INFO)) {
      Fixtures g = new Fixtures();
      Hfr hfr = Hfr.builder().clock(g.time).sleeper(g.time).ledger(g.ledger).build();
      transientRead(hfr, "refund:jane.doe@example.com");
      hfr.close();
      List<String> messages = captured.messages();
      assertThat(messages).singleElement().asString().contains("refund:<email>").doesNotContain("jane.doe");
    }

    // A decision log of the application's own, given to the engine, redacts on its writer thread.
    Path file = Files.createTempFile("decisions", ".jsonl");
    try {
      DecisionLog log = DecisionLog.toFile(file).build();
      Fixtures g = new Fixtures();
      Hfr hfr = Hfr.builder().clock(g.time).sleeper(g.time).ledger(g.ledger).decisionSink(log).build();
      transientRead(hfr, "refund:jane.doe@example.com");
      log.close();
      assertThat(Files.readString(file)).contains("refund:<email>").doesNotContain("jane.doe");
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Test
  @DisplayName("sample_rate: 0 keeps no clean-path decision (a read retried and then answered), and every failure, escalation and write")
  void sampleRateZero() {
    Fixtures f = new Fixtures();
    // Breakers off: forty failures in a row would open one, and that is not what this test is about.
    Hfr hfr = f.builder().config(telemetry("sample_rate: 0")).features(NO_BREAKERS).build();
    for (int i = 0; i < 20; i++) {
      transientRead(hfr, "clean-" + i);
    }
    assertThat(f.sink.events).as("clean-path decisions").isEmpty();
    assertThat(f.registry.get("harness.decisions").tag("action", "retry").counter().count())
        .as("still decided and counted").isEqualTo(20.0);

    // A read that fails for good (the same fault three times): its retries and the final decision are published, in order.
    ScriptedTool<String> failing = new ScriptedTool<String>("q").failsTimes(4, Fixtures.unavailable());
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "failing").build())) {
      assertThatThrownBy(() -> hfr.execute(Fixtures.read("search"), failing)).isInstanceOf(ToolCallException.class);
    }
    assertThat(f.sink.actions()).containsExactly(Action.RETRY, Action.RETRY, Action.FAIL);
    assertThat(f.sink.events).allSatisfy(e -> {
      assertThat(e.taskId()).isEqualTo("failing");
      assertThat(e.argsHash()).hasSize(64);
    });
    f.sink.events.clear();

    // An escalation (a policy refusal) and a write that recovered are published as they happen.
    ScriptedTool<String> refused = new ScriptedTool<String>("q").fails(Fixtures.refused());
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "refused").build())) {
      assertThatThrownBy(() -> hfr.execute(Fixtures.read("search"), refused)).isInstanceOf(ToolCallException.class);
    }
    ScriptedTool<String> pay = new ScriptedTool<String>(25, null).fails(Fixtures.unavailable()).returns("paid");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "pay").build())) {
      hfr.execute(Fixtures.idempotentWrite(), pay);
    }
    assertThat(f.sink.events).extracting(DecisionEvent::taskId, DecisionEvent::action)
        .containsExactly(tuple("refused", Action.ESCALATE), tuple("pay", Action.RETRY));
  }

  @Test
  @DisplayName("sample_rate: 0.5 publishes the decisions of about half the clean-path calls, each call's all or none")
  void sampleRateHalf() {
    Fixtures f = new Fixtures();
    Hfr hfr = f.builder().config(telemetry("sample_rate: 0.5")).features(NO_BREAKERS).build();
    int calls = 400;
    for (int i = 0; i < calls; i++) {
      ScriptedTool<String> twice = new ScriptedTool<String>("q").failsTimes(2, Fixtures.unavailable()).returns("hits");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "call-" + i).build())) {
        hfr.execute(Fixtures.read("search"), twice);
      }
    }
    Map<String, Long> perCall = f.sink.events.stream().collect(Collectors.groupingBy(DecisionEvent::taskId, Collectors.counting()));
    assertThat(perCall.values()).as("both retries of a sampled call").containsOnly(2L);
    // Binomial(400, 0.5): standard deviation 10, so [140, 260] is six deviations either side.
    assertThat(perCall).hasSizeBetween(140, 260);
  }
}
