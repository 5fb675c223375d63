package dev.hfr.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * The Spring AI model ladder's decisions in the engine's decision log and its calls in the task's report, as the
 * LangChain4j adapter's: Spring AI's real OpenAI model against the scripted server on loopback, an engine with a
 * recording sink, and the ladder given that engine ({@code decisionSink(hfr)}).
 */
class HfrChatModelDecisionsTest {

  private final ScriptedOpenAiServer llm = ScriptedOpenAiServer.start();
  private final List<DecisionEvent> events = new CopyOnWriteArrayList<>();
  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(events::add).build();

  @BeforeAll
  static void warmUpTheSdk() {
    LoopbackOpenAi.warmUp();
  }

  @AfterEach
  void stop() {
    hfr.close();
    llm.close();
  }

  @Test
  @DisplayName("model decisions land in the engine's decision log as decisions about model:<rung>, in the caller's task")
  void decisionsReachTheEnginesSinkInTheCallersTask() {
    llm.script("gpt-4o", Reply.rateLimited(1), Reply.overloaded());
    llm.script("gpt-4o-backup", Reply.text("from the backup"));

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-7").build())) {
      assertThat(ladder().call(new Prompt("hello")).getResult().getOutput().getText()).isEqualTo("from the backup");
    }

    assertThat(events).extracting(DecisionEvent::tool).containsExactly("model:gpt-4o", "model:gpt-4o");
    assertThat(events).extracting(DecisionEvent::fault).containsExactly(Fault.T2, Fault.T4);
    assertThat(events).extracting(DecisionEvent::action).containsExactly(Action.RETRY, Action.DEGRADE_MODEL);
    assertThat(events).extracting(DecisionEvent::reason).containsExactly(Reason.RETRYABLE, Reason.OVERLOADED);
    assertThat(events).allSatisfy(e -> {
      assertThat(e.tenant()).isEqualTo("acme");
      assertThat(e.taskId()).isEqualTo("conversation-7");
      assertThat(e.rung()).isEqualTo(DegradeLevel.L0);
      assertThat(e.confidence()).isPositive();
    });
    assertThat(events.get(0).delayMillis()).as("never sooner than Retry-After").isGreaterThanOrEqualTo(1000);
  }

  @Test
  @DisplayName("outside a task, decisions are recorded in the default tenant with no task id, and nothing is counted")
  void outsideATaskDecisionsHaveNoTask() {
    llm.script("gpt-4o", Reply.serverError(503), Reply.text("ok"));

    ladder().call(new Prompt("hello"));

    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.fault()).isEqualTo(Fault.T1);
      assertThat(e.tenant()).isEqualTo(Hfr.DEFAULT_TENANT);
      assertThat(e.taskId()).isNull();
    });
  }

  @Test
  @DisplayName("model calls count in the task's report: a degraded answer as degraded, a refusal as an escalation")
  void modelCallsCountInTheTaskReport() {
    llm.script("gpt-4o", Reply.rateLimited(1), Reply.text("first"), Reply.overloaded(), Reply.contentFilterFinish());
    llm.script("gpt-4o-backup", Reply.text("second, from the backup"));

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-8").build())) {
      HfrChatModel model = ladder();
      model.call(new Prompt("one"));
      model.call(new Prompt("two"));
      assertThatThrownBy(() -> model.call(new Prompt("three"))).isInstanceOf(ModelRefusalException.class);

      // a retried answer (2 attempts), a degraded answer (2 attempts), a refusal (1 attempt)
      TaskReport report = task.report();
      assertThat(report.calls()).isEqualTo(3);
      assertThat(report.succeeded()).isEqualTo(2);
      assertThat(report.degraded()).isEqualTo(1);
      assertThat(report.escalated()).isEqualTo(1);
      assertThat(report.attempts()).isEqualTo(2 + 2 + 1);
      assertThat(task.lastOutcome().tool()).isEqualTo("model:gpt-4o");
    }
    assertThat(events).extracting(DecisionEvent::action).containsExactly(Action.RETRY, Action.DEGRADE_MODEL, Action.ESCALATE);
  }

  @Test
  @DisplayName("a model escalation in a task saves the task's escalation checkpoint before any handler hears of it; "
      + "a restarted engine resumes the task as escalated, with the model's evidence")
  void aModelEscalationIsCheckpointedInTheTask(@TempDir Path dir) throws Exception {
    llm.script("gpt-4o", Reply.contentFilterFinish());
    List<Optional<TaskCheckpoint>> seenByHandlers = new CopyOnWriteArrayList<>();
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir)) {
      Supplier<Optional<TaskCheckpoint>> checkpoint = () -> ledger.findCheckpoint("acme", "conversation-12");
      try (Hfr engine = Hfr.builder().ledger(ledger).escalationHandler(e -> seenByHandlers.add(checkpoint.get())).build()) {
        HfrChatModel model = base().decisionSink(engine).escalationHandler(e -> seenByHandlers.add(checkpoint.get())).build();
        TaskScope task = engine.newTask(TaskSpec.builder("acme", "conversation-12").build());
        try (AutoCloseable bound = task.bindCurrentThread()) {
          assertThatThrownBy(() -> model.call(new Prompt("hello"))).isInstanceOf(ModelRefusalException.class);
        }
        // The task is never closed: its process dies here.
        assertThat(task.report().escalated()).isEqualTo(1);
        assertThat(seenByHandlers).as("the engine's handler (the starter's queue), then the adapter's").hasSize(2)
            .allSatisfy(seen -> assertThat(seen).hasValueSatisfying(
                cp -> assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.ESCALATED)));
      }
    }

    try (Hfr restarted = Hfr.builder().ledgerPath(dir).build()) {
      assertThat(restarted.resumePending()).singleElement().satisfies(p -> {
        assertThat(p.taskId()).isEqualTo("conversation-12");
        assertThat(p.phase()).as("it was escalated before it was cut off").isEqualTo(TaskCheckpoint.Phase.ESCALATED);
        assertThat(p.escalation()).contains("tool=model:gpt-4o", "risk=R0", "fault=T8", "reason=policy_refusal");
      });
    }
  }

  @Test
  @DisplayName("telemetry.emit_decision_events=false on the engine silences the model's decisions too")
  void theEnginesTelemetrySettingApplies() {
    List<DecisionEvent> silenced = new CopyOnWriteArrayList<>();
    HfrConfig config = HfrConfigLoader.parse("hfr:\n  telemetry:\n    emit_decision_events: false\n", "hfr.yaml");
    try (Hfr quiet = Hfr.builder().ledger(new InMemoryLedger()).config(config).decisionSink(silenced::add).build()) {
      llm.script("gpt-4o", Reply.serverError(503), Reply.text("ok"));
      HfrChatModel model = base().decisionSink(quiet).build();

      model.call(new Prompt("hello"));
    }
    assertThat(silenced).isEmpty();
  }

  private HfrChatModel ladder() {
    return base().fallback(DegradeLevel.L2, "gpt-4o@backup", openAi("gpt-4o-backup")).decisionSink(hfr).build();
  }

  private HfrChatModel.Builder base() {
    return HfrChatModel.builder()
        .primary("gpt-4o", openAi("gpt-4o"))
        .classifier(new DefaultFailureClassifier())
        .sleeper(nanos -> { });
  }

  private ChatModel openAi(String model) {
    return LoopbackOpenAi.model(llm.baseUrl(), model);
  }
}
