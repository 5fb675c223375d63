package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.VirtualTime;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("HfrChatModel walks the model ladder on the real OpenAI client")
class HfrChatModelTest {

  ScriptedOpenAiServer server;
  final VirtualTime time = new VirtualTime();
  final List<ModelDecision> decisions = new ArrayList<>();
  final List<ModelCallFailedException> escalations = new ArrayList<>();

  @BeforeEach
  void start() {
    server = ScriptedOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  HfrChatModel.Builder ladder(Criticality.Level criticality) {
    return HfrChatModel.builder()
        .primary("gpt-4o", ModelFixtures.openAi(server, "gpt-4o"))
        .fallback(DegradeLevel.L2, "gpt-4o@backup", ModelFixtures.openAi(server, "gpt-4o-backup"))
        .fallback(DegradeLevel.L3, "gpt-4o-mini", ModelFixtures.openAi(server, "gpt-4o-mini"))
        .criticality(criticality)
        .classifier(new DefaultFailureClassifier())
        .time(time, time)
        .random(new SplittableRandom(7))
        .listener(decisions::add)
        .escalationHandler(escalations::add);
  }

  List<String> actions() {
    return decisions.stream().map(ModelDecision::action).toList();
  }

  @Test
  @DisplayName("a 429 is retried on the same model no sooner than its Retry-After")
  void rateLimitWaitsForRetryAfter() {
    server.script("gpt-4o", Reply.rateLimited(2), Reply.text("ok"));

    String answer = ladder(Criticality.Level.MEDIUM).build().chat("hello");

    assertThat(answer).isEqualTo("ok");
    assertThat(actions()).containsExactly("RETRY", "ACCEPT");
    assertThat(decisions.get(0).fault()).isEqualTo(Fault.T2);
    assertThat(decisions.get(0).delayMillis()).isGreaterThanOrEqualTo(2000);
    assertThat(time.nanoTime()).isGreaterThanOrEqualTo(2_000_000_000L);
    assertThat(server.requests("gpt-4o-backup")).isEmpty();
  }

  @Test
  @DisplayName("a decision sink that fails loses the event, never the call")
  void failingDecisionSinkDoesNotBreakTheCall() {
    server.script("gpt-4o", Reply.serverError(503), Reply.text("ok"));
    List<String> tried = new ArrayList<>();

    String answer = ladder(Criticality.Level.MEDIUM)
        .decisionSink(e -> {
          tried.add(e.tool() + " " + e.action());
          throw new java.io.IOException("disk full");
        }, () -> null)
        .build().chat("hello");

    assertThat(answer).isEqualTo("ok");
    assertThat(tried).containsExactly("model:gpt-4o RETRY");
  }

  @Test
  @DisplayName("a 5xx is retried with backoff, then accepted undegraded")
  void serverErrorIsRetried() {
    server.script("gpt-4o", Reply.serverError(503), Reply.serverError(502), Reply.text("ok"));

    assertThat(ladder(Criticality.Level.MEDIUM).build().chat("hello")).isEqualTo("ok");
    assertThat(actions()).containsExactly("RETRY", "RETRY", "ACCEPT");
    assertThat(decisions.get(2).detail()).contains("degraded=false");
  }

  @Test
  @DisplayName("an exhausted quota is not waited out: it moves to the same-tier provider (L2)")
  void quotaDegradesToSameTier() {
    server.script("gpt-4o", Reply.quotaExhausted());
    server.script("gpt-4o-backup", Reply.text("from backup"));

    assertThat(ladder(Criticality.Level.MEDIUM).build().chat("hello")).isEqualTo("from backup");
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "ACCEPT");
    assertThat(decisions.get(1).level()).isEqualTo(DegradeLevel.L2);
    assertThat(decisions.get(1).detail()).contains("degraded=true");
    assertThat(time.nanoTime()).isZero();
  }

  @Test
  @DisplayName("overload (529) walks the ladder down to the cheaper model at MEDIUM criticality")
  void overloadWalksTheLadder() {
    server.script("gpt-4o", Reply.overloaded());
    server.script("gpt-4o-backup", Reply.overloaded());
    server.script("gpt-4o-mini", Reply.text("from mini"));

    ChatResponse response = ladder(Criticality.Level.MEDIUM).build()
        .chat(ChatRequest.builder().messages(UserMessage.from("hello")).build());

    assertThat(response.aiMessage().text()).isEqualTo("from mini");
    assertThat(response.modelName()).isEqualTo("gpt-4o-mini");
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "DEGRADE_MODEL", "ACCEPT");
    assertThat(decisions).extracting(ModelDecision::fault).containsExactly(Fault.T4, Fault.T4, null);
  }

  @Test
  @DisplayName("a model that does not exist (404) is replaced by the next rung at once")
  void missingModelDegrades() {
    server.script("gpt-4o", Reply.modelNotFound());
    server.script("gpt-4o-backup", Reply.text("from backup"));

    assertThat(ladder(Criticality.Level.HIGH).build().chat("hello")).isEqualTo("from backup");
    assertThat(decisions).extracting(ModelDecision::fault).containsExactly(Fault.T5, null);
    assertThat(server.requests("gpt-4o")).hasSize(1);
  }

  @Test
  @DisplayName("HIGH criticality never degrades to L3 automatically: the exhausted ladder escalates")
  void highCriticalityStopsAtL2AndEscalates() {
    server.script("gpt-4o", Reply.overloaded());
    server.script("gpt-4o-backup", Reply.overloaded());
    server.script("gpt-4o-mini", Reply.text("must not be used"));

    ModelCallFailedException failed = catchThrowableOfType(
        ModelCallFailedException.class, () -> ladder(Criticality.Level.HIGH).build().chat("hello"));

    assertThat(failed.status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    assertThat(failed.fault()).isEqualTo(Fault.T4);
    assertThat(escalations).containsExactly(failed);
    assertThat(server.requests("gpt-4o-mini")).isEmpty();
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "ESCALATE");
    assertThat(decisions.get(1).detail()).contains("L3 gpt-4o-mini needs a human at HIGH criticality");
  }

  @Test
  @DisplayName("a content-filter finish escalates and is never degraded around")
  void contentFilterEscalatesWithoutDegrading() {
    server.script("gpt-4o", Reply.contentFilterFinish());
    server.script("gpt-4o-backup", Reply.text("a weaker model would comply"));

    ModelRefusalException refusal = catchThrowableOfType(
        ModelRefusalException.class, () -> ladder(Criticality.Level.LOW).build().chat("hello"));

    assertThat(refusal.status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    assertThat(refusal.fault()).isEqualTo(Fault.T8);
    assertThat(escalations).containsExactly(refusal);
    assertThat(server.requests("gpt-4o-backup")).as("no fallback after a refusal").isEmpty();
    assertThat(server.requests("gpt-4o")).hasSize(1);
    assertThat(actions()).containsExactly("ESCALATE");
  }

  @Test
  @DisplayName("given the engine, an escalation also reaches the engine's escalation handler, with its evidence, in the caller's task")
  void anEscalationReachesTheEnginesEscalationHandler() {
    server.script("gpt-4o", Reply.contentFilterFinish());
    EscalationQueue queue = new EscalationQueue();
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).escalationHandler(queue).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-5").build())) {
      catchThrowableOfType(ModelRefusalException.class,
          () -> ladder(Criticality.Level.MEDIUM).decisionSink(hfr).build().chat("hello"));

      assertThat(task.report().escalated()).isEqualTo(1);
    }
    assertThat(escalations).as("the adapter's own handler still hears of it").hasSize(1);
    assertThat(queue.pending()).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.taskId()).isEqualTo("conversation-5");
      assertThat(e.fault()).isEqualTo(Fault.T8);
      assertThat(e.reason()).isEqualTo(Reason.POLICY_REFUSAL);
      assertThat(e.decisions()).extracting(DecisionEvent::action).containsExactly(Action.ESCALATE);
    });
  }

  @Test
  @DisplayName("a model escalation in a task saves the task's escalation checkpoint before any handler hears of it; "
      + "a restarted engine resumes the task as escalated, with the model's evidence")
  void aModelEscalationIsCheckpointedInTheTask(@TempDir Path dir) throws Exception {
    server.script("gpt-4o", Reply.contentFilterFinish());
    List<Optional<TaskCheckpoint>> seenByHandlers = new ArrayList<>();
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir)) {
      Supplier<Optional<TaskCheckpoint>> checkpoint = () -> ledger.findCheckpoint("acme", "conversation-9");
      try (Hfr hfr = Hfr.builder().ledger(ledger).escalationHandler(e -> seenByHandlers.add(checkpoint.get())).build()) {
        HfrChatModel model = ladder(Criticality.Level.MEDIUM).decisionSink(hfr)
            .escalationHandler(e -> seenByHandlers.add(checkpoint.get())).build();
        TaskScope task = hfr.newTask(TaskSpec.builder("acme", "conversation-9").build());
        try (AutoCloseable bound = task.bindCurrentThread()) {
          catchThrowableOfType(ModelRefusalException.class, () -> model.chat("hello"));
        }
        // The task is never closed: its process dies here.

        assertThat(seenByHandlers).as("the engine's handler, then the adapter's").hasSize(2).allSatisfy(seen ->
            assertThat(seen).as("the checkpoint a handler found").hasValueSatisfying(
                cp -> assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.ESCALATED)));
        assertThat(checkpoint.get()).hasValueSatisfying(cp -> assertThat(cp.evidence())
            .contains("tool=model:gpt-4o", "risk=R0", "criticality=MEDIUM", "fault=T8", "reason=policy_refusal", "ESCALATE/"));
      }
    }

    try (Hfr restarted = Hfr.builder().ledgerPath(dir).build()) {
      assertThat(restarted.resumePending()).singleElement().satisfies(p -> {
        assertThat(p.taskId()).isEqualTo("conversation-9");
        assertThat(p.phase()).as("it was escalated before it was cut off").isEqualTo(TaskCheckpoint.Phase.ESCALATED);
        assertThat(p.escalation()).contains("tool=model:gpt-4o", "fault=T8");
        assertThat(p.unfinishedWrites()).as("a model call writes nothing").isEmpty();
      });
    }
  }

  @Test
  @DisplayName("a content-policy 400 is a refusal too: one request, no retry, no fallback")
  void contentPolicyViolationEscalates() {
    server.script("gpt-4o", Reply.contentPolicyViolation());
    server.script("gpt-4o-backup", Reply.text("a weaker model would comply"));

    catchThrowableOfType(ModelRefusalException.class, () -> ladder(Criticality.Level.LOW).build().chat("hello"));

    assertThat(server.requests()).hasSize(1);
  }

  @Test
  @DisplayName("an authentication error fails at once: no retry, no fallback")
  void authenticationFails() {
    server.script("gpt-4o", Reply.unauthorized());

    ModelCallFailedException failed = catchThrowableOfType(
        ModelCallFailedException.class, () -> ladder(Criticality.Level.MEDIUM).build().chat("hello"));

    assertThat(failed.status()).isEqualTo(ToolOutcome.Status.FAILED);
    assertThat(failed.fault()).isEqualTo(Fault.T7);
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  @DisplayName("a context overflow is compressed once (L1) and resent shorter, keeping system and recent messages")
  void contextOverflowIsCompressed() {
    server.script("gpt-4o", Reply.contextLengthExceeded(), Reply.text("fits now"));
    List<ChatMessage> conversation = new ArrayList<>();
    conversation.add(SystemMessage.from("You are a shop assistant."));
    for (int i = 0; i < 10; i++) {
      conversation.add(UserMessage.from("question " + i + " ".repeat(50)));
      conversation.add(AiMessage.from("answer " + i));
    }

    ChatResponse response = ladder(Criticality.Level.MEDIUM)
        .summarizer(new KeepRecentSummarizer(4, 40)).build()
        .chat(ChatRequest.builder().messages(conversation).build());

    assertThat(response.aiMessage().text()).isEqualTo("fits now");
    assertThat(actions()).containsExactly("COMPRESS", "ACCEPT");
    var sent = server.requests("gpt-4o");
    assertThat(sent.get(0).messageCount()).isEqualTo(21);
    assertThat(sent.get(1).messageCount()).isEqualTo(1 + 1 + 4);
    assertThat(sent.get(1).body().path("messages").get(1).path("content").asText()).startsWith("Summary of 16 earlier messages");
    assertThat(decisions.get(1).detail()).contains("degraded=true", "L1 compressed");
  }

  @Test
  @DisplayName("a second overflow after compression fails instead of resending the same request")
  void overflowAfterCompressionFails() {
    server.script("gpt-4o", Reply.contextLengthExceeded(), Reply.contextLengthExceeded());
    List<ChatMessage> conversation = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      conversation.add(UserMessage.from("q" + i));
    }

    ModelCallFailedException failed = catchThrowableOfType(
        ModelCallFailedException.class, () -> ladder(Criticality.Level.MEDIUM).build().chat(ChatRequest.builder().messages(conversation).build()));

    assertThat(failed.fault()).isEqualTo(Fault.T6);
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  @DisplayName("a Retry-After beyond the wait budget degrades instead of waiting")
  void retryAfterBeyondBudgetDegrades() {
    server.script("gpt-4o", Reply.rateLimited(120));
    server.script("gpt-4o-backup", Reply.text("from backup"));

    assertThat(ladder(Criticality.Level.MEDIUM).maxWait(java.time.Duration.ofSeconds(10)).build().chat("hello"))
        .isEqualTo("from backup");
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "ACCEPT");
    assertThat(time.nanoTime()).isZero();
  }

  @Test
  @DisplayName("the builder refuses a ladder without a primary model or with descending levels")
  void builderChecksTheLadder() {
    assertThat(catchThrowableOfType(IllegalStateException.class, () -> HfrChatModel.builder().classifier(o -> null).build()))
        .hasMessageContaining("primary");
    assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> HfrChatModel.builder()
            .primary("a", ModelFixtures.openAi(server, "a"))
            .fallback(DegradeLevel.L3, "b", ModelFixtures.openAi(server, "b"))
            .fallback(DegradeLevel.L2, "c", ModelFixtures.openAi(server, "c"))))
        .hasMessageContaining("must not descend");
  }
}
