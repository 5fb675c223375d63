package dev.hfr.spring.ai;

import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.contentFilteredAfter;
import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.relay;
import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.tokens;
import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.tokensThenDrop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.junit.openai.StreamingOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.model.ModelStreamInterruptedException;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * {@code HfrChatModel.stream}: the same ladder as {@code call} until content reaches the subscriber, never a silent
 * second stream after. Spring AI's real OpenAI model streams (the OpenAI SDK's server-sent events) from a loopback
 * server; provider errors are the scripted server's replies, relayed.
 */
class HfrChatModelStreamTest {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private final ScriptedOpenAiServer errors = ScriptedOpenAiServer.start();
  private final StreamingOpenAiServer server = StreamingOpenAiServer.start(errors);
  private final List<ModelDecision> decisions = new CopyOnWriteArrayList<>();
  private final List<ModelCallFailedException> escalations = new CopyOnWriteArrayList<>();
  private final AtomicLong slept = new AtomicLong();

  @BeforeAll
  static void warmUpTheSdk() {
    LoopbackOpenAi.warmUp();
  }

  @AfterEach
  void stop() {
    server.close();
    errors.close();
  }

  @Test
  @DisplayName("a clean stream passes every chunk on, marked undegraded, and is accepted")
  void aCleanStreamIsPassedOn() {
    server.script("gpt-4o", tokens("Hel", "lo"));

    List<ChatResponse> chunks = ladder().build().stream(new Prompt("hello")).collectList().block(WAIT);

    assertThat(text(chunks)).isEqualTo("Hello");
    assertThat(chunks).allSatisfy(c -> assertThat(c.getMetadata().<Boolean>get("hfr.degraded")).isFalse());
    assertThat(actions()).containsExactly("ACCEPT");
  }

  @Test
  @DisplayName("a 429 before the first token is retried on the same model, waiting at least its Retry-After")
  void aRateLimitBeforeTheFirstTokenIsRetried() {
    errors.script("gpt-4o", Reply.rateLimited(2));
    server.script("gpt-4o", relay(), tokens("Hel", "lo"));

    List<ChatResponse> chunks = ladder().build().stream(new Prompt("hello")).collectList().block(WAIT);

    assertThat(text(chunks)).isEqualTo("Hello");
    assertThat(actions()).containsExactly("RETRY", "ACCEPT");
    assertThat(decisions.get(0).fault()).isEqualTo(Fault.T2);
    assertThat(decisions.get(0).delayMillis()).isGreaterThanOrEqualTo(2000);
    assertThat(slept.get()).as("the wait went through the sleeper").isGreaterThanOrEqualTo(2_000_000_000L);
    assertThat(server.requests()).containsExactly("gpt-4o", "gpt-4o");
  }

  @Test
  @DisplayName("an overload (529) before the first token degrades to the backup; its chunks say so")
  void anOverloadBeforeTheFirstTokenDegrades() {
    errors.script("gpt-4o", Reply.overloaded());
    server.script("gpt-4o", relay());
    server.script("gpt-4o-backup", tokens("from ", "backup"));

    List<ChatResponse> chunks = ladder().build().stream(new Prompt("hello")).collectList().block(WAIT);

    assertThat(text(chunks)).isEqualTo("from backup");
    assertThat(chunks).allSatisfy(c -> {
      assertThat(c.getMetadata().<Boolean>get("hfr.degraded")).isTrue();
      assertThat(c.getMetadata().<String>get("hfr.rung")).isEqualTo("gpt-4o@backup");
      assertThat(c.getMetadata().<String>get("hfr.level")).isEqualTo("L2");
    });
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "ACCEPT");
    assertThat(decisions.get(0).fault()).isEqualTo(Fault.T4);
  }

  @Test
  @DisplayName("a stream cut before any content is retried: nothing reached the subscriber yet")
  void aDropBeforeTheFirstTokenIsRetried() {
    server.script("gpt-4o", tokensThenDrop(), tokens("ok"));

    List<ChatResponse> chunks = ladder().build().stream(new Prompt("hello")).collectList().block(WAIT);

    assertThat(text(chunks)).isEqualTo("ok");
    assertThat(actions()).containsExactly("RETRY", "ACCEPT");
  }

  @Test
  @DisplayName("a stream cut after content reached the subscriber is neither retried nor degraded: it fails clearly")
  void aDropAfterTokensIsNotRetried() {
    server.script("gpt-4o", tokensThenDrop("The order ", "is "), tokens("never sent"));
    server.script("gpt-4o-backup", tokens("never sent either"));
    List<ChatResponse> seen = new CopyOnWriteArrayList<>();

    Throwable error = catchThrowable(() -> ladder().build().stream(new Prompt("hello")).doOnNext(seen::add).blockLast(WAIT));

    assertThat(error).isInstanceOfSatisfying(ModelStreamInterruptedException.class, e -> {
      assertThat(e.deliveredPartials()).isEqualTo(2);
      assertThat(e.status()).isEqualTo(ToolOutcome.Status.FAILED);
      assertThat(e.getMessage()).contains("mid-stream", "not retried");
    });
    assertThat(text(seen)).isEqualTo("The order is ");
    assertThat(actions()).containsExactly("FAIL");
    assertThat(server.requests()).as("one request: no silent second stream").containsExactly("gpt-4o");
  }

  @Test
  @DisplayName("a content-filter finish escalates, even after tokens; the backup model is never asked")
  void aContentFilterFinishEscalates() {
    server.script("gpt-4o", contentFilteredAfter("I will "));
    server.script("gpt-4o-backup", tokens("a weaker model would comply"));

    Throwable error = catchThrowable(() -> ladder().build().stream(new Prompt("do something bad")).blockLast(WAIT));

    assertThat(error).isInstanceOfSatisfying(ModelRefusalException.class, e -> {
      assertThat(e.fault()).isEqualTo(Fault.T8);
      assertThat(e.status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    });
    assertThat(escalations).hasSize(1);
    assertThat(actions()).containsExactly("ESCALATE");
    assertThat(server.requests()).containsExactly("gpt-4o");
  }

  @Test
  @DisplayName("under a ChatClient, stream().content() gets the backup's tokens after an overload, and stops clearly on a cut")
  void underAChatClient() {
    errors.script("gpt-4o", Reply.overloaded());
    server.script("gpt-4o", relay(), tokensThenDrop("Half an "));
    server.script("gpt-4o-backup", tokens("from ", "backup"));
    ChatClient chat = ChatClient.create(ladder().build());

    assertThat(chat.prompt("hello").stream().content().collectList().block(WAIT)).containsExactly("from ", "backup");
    List<String> seen = new CopyOnWriteArrayList<>();
    Throwable cut = catchThrowable(() -> chat.prompt("again").stream().content().doOnNext(seen::add).blockLast(WAIT));

    assertThat(cut).isInstanceOf(ModelStreamInterruptedException.class);
    assertThat(seen).containsExactly("Half an ");
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "ACCEPT", "FAIL");
    assertThat(server.requests()).containsExactly("gpt-4o", "gpt-4o-backup", "gpt-4o");
  }

  @Test
  @DisplayName("a streamed call counts in the task open where it is subscribed; its decisions carry the task id")
  void aStreamedCallCountsInTheSubscribersTask() {
    List<DecisionEvent> events = new CopyOnWriteArrayList<>();
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(events::add).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-9").build())) {
      errors.script("gpt-4o", Reply.overloaded());
      server.script("gpt-4o", relay());
      server.script("gpt-4o-backup", tokens("from ", "backup"));

      ladder().decisionSink(hfr).build().stream(new Prompt("hello")).blockLast(WAIT);

      TaskReport report = task.report();
      assertThat(report.calls()).isEqualTo(1);
      assertThat(report.degraded()).isEqualTo(1);
      assertThat(report.attempts()).isEqualTo(2);
      assertThat(task.lastOutcome().tool()).isEqualTo("model:gpt-4o@backup");
    }
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.action()).isEqualTo(Action.DEGRADE_MODEL);
      assertThat(e.taskId()).isEqualTo("conversation-9");
    });
  }

  @Test
  @DisplayName("a subscriber that cancels the stream ends the call: a FAIL decision for 'cancelled', counted in its task as failed")
  void aCancelledStreamCountsInTheSubscribersTask() {
    List<DecisionEvent> events = new CopyOnWriteArrayList<>();
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(events::add).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-10").build())) {
      server.script("gpt-4o", tokens("one ", "two ", "three"));

      // the user stops reading after the first words: the subscriber cancels the stream
      List<ChatResponse> read = ladder().decisionSink(hfr).build().stream(new Prompt("hello"))
          .takeUntil(chunk -> text(List.of(chunk)).contains("one")).collectList().block(WAIT);

      assertThat(text(read)).isEqualTo("one ");
      TaskReport report = task.report();
      assertThat(report.calls()).isEqualTo(1);
      assertThat(report.failed()).isEqualTo(1);
      assertThat(report.failedTools()).containsExactly("model:gpt-4o");
      assertThat(task.lastOutcome().reason()).isEqualTo("cancelled");
    }
    assertThat(actions()).containsExactly("FAIL");
    assertThat(decisions.get(0).rule()).isEqualTo("cancelled");
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.action()).isEqualTo(Action.FAIL);
      assertThat(e.reason()).isEqualTo(Reason.CANCELLED);
      assertThat(e.taskId()).isEqualTo("conversation-10");
    });
    assertThat(server.requests()).as("a cancelled stream is not sent again").hasSize(1);
  }

  @Test
  @DisplayName("a stream read to its end is counted once, as accepted: no cancellation is recorded after it")
  void aStreamReadToItsEndIsNotCountedAsCancelled() {
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-11").build())) {
      server.script("gpt-4o", tokens("all ", "of ", "it"));

      ladder().decisionSink(hfr).build().stream(new Prompt("hello")).blockLast(WAIT);

      assertThat(task.report().calls()).isEqualTo(1);
      assertThat(task.report().succeeded()).isEqualTo(1);
      assertThat(task.lastOutcome().reason()).isEqualTo("ok");
    }
    assertThat(actions()).containsExactly("ACCEPT");
  }

  private HfrChatModel.Builder ladder() {
    return HfrChatModel.builder()
        .primary("gpt-4o", openAi("gpt-4o"))
        .fallback(DegradeLevel.L2, "gpt-4o@backup", openAi("gpt-4o-backup"))
        .criticality(Criticality.Level.MEDIUM)
        .classifier(new DefaultFailureClassifier())
        .sleeper(slept::addAndGet)
        .listener(decisions::add)
        .escalationHandler(escalations::add);
  }

  private List<String> actions() {
    return decisions.stream().map(ModelDecision::action).toList();
  }

  private static String text(List<ChatResponse> chunks) {
    StringBuilder sb = new StringBuilder();
    for (ChatResponse c : chunks) {
      if (c.getResult() != null && c.getResult().getOutput() != null) {
        sb.append(Objects.toString(c.getResult().getOutput().getText(), ""));
      }
    }
    return sb.toString();
  }

  private ChatModel openAi(String model) {
    return LoopbackOpenAi.model(server.baseUrl(), model);
  }
}
