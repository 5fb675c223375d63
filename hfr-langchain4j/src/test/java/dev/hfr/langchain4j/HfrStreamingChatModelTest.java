package dev.hfr.langchain4j;

import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.contentFilteredAfter;
import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.relay;
import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.tokens;
import static dev.hfr.junit.openai.StreamingOpenAiServer.Step.tokensThenDrop;
import static org.assertj.core.api.Assertions.assertThat;

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
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.model.ModelStreamInterruptedException;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.VirtualTime;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.TokenStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("HfrStreamingChatModel walks the model ladder on the real OpenAI streaming client")
class HfrStreamingChatModelTest {

  static final int HANG_SECONDS = 120;

  ScriptedOpenAiServer errors;
  StreamingOpenAiServer server;
  final VirtualTime time = new VirtualTime();
  final List<ModelDecision> decisions = new CopyOnWriteArrayList<>();
  final List<ModelCallFailedException> escalations = new CopyOnWriteArrayList<>();
  final List<DecisionEvent> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    errors = ScriptedOpenAiServer.start();
    server = StreamingOpenAiServer.start(errors);
  }

  @AfterEach
  void stop() {
    server.close();
    errors.close();
  }

  HfrStreamingChatModel ladder() {
    return HfrStreamingChatModel.builder()
        .primary("gpt-4o", ModelFixtures.openAiStreaming(server, "gpt-4o"))
        .fallback(DegradeLevel.L2, "gpt-4o@backup", ModelFixtures.openAiStreaming(server, "gpt-4o-backup"))
        .criticality(Criticality.Level.MEDIUM)
        .classifier(new DefaultFailureClassifier())
        .time(time, time)
        .random(new SplittableRandom(7))
        .listener(decisions::add)
        .escalationHandler(escalations::add)
        .decisionSink(events::add, () -> null)
        .build();
  }

  /** What the caller of a streaming model sees: the partial responses, then one end. */
  static final class Caller implements StreamingChatResponseHandler {
    final List<String> partials = new CopyOnWriteArrayList<>();
    final CompletableFuture<ChatResponse> end = new CompletableFuture<>();

    @Override
    public void onPartialResponse(String partialResponse) {
      partials.add(partialResponse);
    }

    @Override
    public void onCompleteResponse(ChatResponse response) {
      if (!end.complete(response)) {
        throw new AssertionError("a second end: " + response);
      }
    }

    @Override
    public void onError(Throwable error) {
      if (!end.completeExceptionally(error)) {
        throw new AssertionError("a second end", error);
      }
    }

    // Only against a hang: the wait ends when the stream does. At load 33 the first test of this class took 38 s,
    // most of it the client's start-up; 20 s was too close.
    ChatResponse response() throws Exception {
      return end.get(HANG_SECONDS, TimeUnit.SECONDS);
    }

    Throwable error() throws Exception {
      try {
        ChatResponse r = end.get(HANG_SECONDS, TimeUnit.SECONDS);
        throw new AssertionError("expected an error, the stream completed with " + r);
      } catch (ExecutionException e) {
        return e.getCause();
      }
    }
  }

  Caller chat(String message) {
    Caller caller = new Caller();
    ladder().chat(message, caller);
    return caller;
  }

  List<String> actions() {
    return decisions.stream().map(ModelDecision::action).toList();
  }

  @Test
  @DisplayName("a 429 before the first token is retried on the same model no sooner than its Retry-After")
  void rateLimitBeforeFirstTokenWaitsForRetryAfter() throws Exception {
    errors.script("gpt-4o", Reply.rateLimited(2));
    server.script("gpt-4o", relay(), tokens("Hel", "lo"));

    Caller caller = chat("hello");

    assertThat(caller.response().aiMessage().text()).isEqualTo("Hello");
    assertThat(caller.partials).containsExactly("Hel", "lo");
    assertThat(actions()).containsExactly("RETRY", "ACCEPT");
    assertThat(decisions.get(0).fault()).isEqualTo(Fault.T2);
    assertThat(decisions.get(0).detail()).contains("Retry-After 2000 ms");
    assertThat(decisions.get(0).delayMillis()).isGreaterThanOrEqualTo(2000);
    assertThat(time.nanoTime()).isGreaterThanOrEqualTo(2_000_000_000L);
    assertThat(server.requests()).containsExactly("gpt-4o", "gpt-4o");
  }

  @Test
  @DisplayName("an overload (529) before the first token degrades to the backup, reported as degraded")
  void overloadBeforeFirstTokenDegrades() throws Exception {
    errors.script("gpt-4o", Reply.overloaded());
    server.script("gpt-4o", relay());
    server.script("gpt-4o-backup", tokens("from ", "backup"));

    Caller caller = chat("hello");

    assertThat(caller.response().aiMessage().text()).isEqualTo("from backup");
    assertThat(caller.partials).containsExactly("from ", "backup");
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "ACCEPT");
    assertThat(decisions.get(0).fault()).isEqualTo(Fault.T4);
    assertThat(decisions.get(1).detail()).contains("degraded=true (L2 gpt-4o@backup)");
  }

  @Test
  @DisplayName("a stream cut before its first token is retried: nothing reached the caller yet")
  void dropBeforeFirstTokenIsRetried() throws Exception {
    server.script("gpt-4o", tokensThenDrop(), tokens("ok"));

    Caller caller = chat("hello");

    assertThat(caller.response().aiMessage().text()).isEqualTo("ok");
    assertThat(caller.partials).containsExactly("ok");
    assertThat(actions()).containsExactly("RETRY", "ACCEPT");
  }

  @Test
  @DisplayName("a stream cut after tokens reached the caller is neither retried nor degraded: it fails clearly")
  void dropAfterTokensIsNotRetried() throws Exception {
    server.script("gpt-4o", tokensThenDrop("The order ", "is "), tokens("never sent"));
    server.script("gpt-4o-backup", tokens("never sent either"));

    Caller caller = chat("hello");

    Throwable error = caller.error();
    assertThat(error).isInstanceOf(ModelStreamInterruptedException.class);
    ModelStreamInterruptedException interrupted = (ModelStreamInterruptedException) error;
    assertThat(interrupted.deliveredPartials()).isEqualTo(2);
    assertThat(interrupted.status()).isEqualTo(ToolOutcome.Status.FAILED);
    assertThat(interrupted.getMessage()).contains("mid-stream", "not retried");
    assertThat(caller.partials).containsExactly("The order ", "is ");
    assertThat(actions()).containsExactly("FAIL");
    assertThat(server.requests()).as("one request: no silent second stream").containsExactly("gpt-4o");
  }

  @Test
  @DisplayName("a refusal before the first token escalates; the backup model is never asked")
  void refusalEscalates() throws Exception {
    errors.script("gpt-4o", Reply.contentPolicyViolation());
    server.script("gpt-4o", relay());
    server.script("gpt-4o-backup", tokens("a weaker model would comply"));

    Throwable error = chat("do something bad").error();

    assertThat(error).isInstanceOf(ModelRefusalException.class);
    assertThat(((ModelRefusalException) error).fault()).isEqualTo(Fault.T8);
    assertThat(escalations).hasSize(1);
    assertThat(actions()).containsExactly("ESCALATE");
    assertThat(server.requests()).doesNotContain("gpt-4o-backup");
    assertThat(events).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.action()).isEqualTo(Action.ESCALATE);
      assertThat(e.reason()).isEqualTo(Reason.POLICY_REFUSAL);
      assertThat(e.tenant()).as("outside a task").isEqualTo("default");
      assertThat(e.taskId()).isNull();
    });
  }

  @Test
  @DisplayName("a content-filter finish after tokens escalates as a refusal, not as a retry")
  void contentFilterFinishEscalates() throws Exception {
    server.script("gpt-4o", contentFilteredAfter("Sure, here is"));
    server.script("gpt-4o-backup", tokens("a weaker model would comply"));

    Caller caller = chat("do something bad");

    assertThat(caller.error()).isInstanceOf(ModelRefusalException.class);
    assertThat(caller.partials).containsExactly("Sure, here is");
    assertThat(actions()).containsExactly("ESCALATE");
    assertThat(server.requests()).containsExactly("gpt-4o");
  }

  interface StreamingClerk {
    TokenStream chat(String message);
  }

  @Test
  @DisplayName("an AiServices TokenStream on the ladder: a 529 degrades to the backup, then a cut stream fails clearly")
  void aiServicesTokenStream() throws Exception {
    errors.script("gpt-4o", Reply.overloaded());
    server.script("gpt-4o", relay(), tokensThenDrop("Half an "));
    server.script("gpt-4o-backup", tokens("Hi ", "there"));
    StreamingClerk clerk = AiServices.builder(StreamingClerk.class).streamingChatModel(ladder()).build();

    Caller first = new Caller();
    clerk.chat("hello").onPartialResponse(first::onPartialResponse).onCompleteResponse(first::onCompleteResponse)
        .onError(first::onError).start();
    assertThat(first.response().aiMessage().text()).isEqualTo("Hi there");
    assertThat(first.partials).containsExactly("Hi ", "there");

    Caller second = new Caller();
    clerk.chat("again").onPartialResponse(second::onPartialResponse).onCompleteResponse(second::onCompleteResponse)
        .onError(second::onError).start();
    assertThat(second.error()).isInstanceOf(ModelStreamInterruptedException.class);
    assertThat(second.partials).containsExactly("Half an ");
    assertThat(actions()).containsExactly("DEGRADE_MODEL", "ACCEPT", "FAIL");
    assertThat(server.requests()).containsExactly("gpt-4o", "gpt-4o-backup", "gpt-4o");
  }

  @Test
  @DisplayName("given the engine, a streamed call counts in the task open where chat was called, though it ends on the client's threads")
  void aStreamedCallCountsInTheCallersTask() throws Exception {
    List<DecisionEvent> logged = new CopyOnWriteArrayList<>();
    errors.script("gpt-4o", Reply.overloaded());
    server.script("gpt-4o", relay());
    server.script("gpt-4o-backup", tokens("from ", "backup"));
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(logged::add).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-3").build())) {
      HfrStreamingChatModel model = HfrStreamingChatModel.builder()
          .primary("gpt-4o", ModelFixtures.openAiStreaming(server, "gpt-4o"))
          .fallback(DegradeLevel.L2, "gpt-4o@backup", ModelFixtures.openAiStreaming(server, "gpt-4o-backup"))
          .classifier(new DefaultFailureClassifier())
          .time(time, time)
          .decisionSink(hfr)
          .build();
      Caller caller = new Caller();
      model.chat("hello", caller);

      assertThat(caller.response().aiMessage().text()).isEqualTo("from backup");
      TaskReport report = task.report();
      assertThat(report.calls()).isEqualTo(1);
      assertThat(report.degraded()).isEqualTo(1);
      assertThat(report.attempts()).isEqualTo(2);
    }
    assertThat(logged).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.action()).isEqualTo(Action.DEGRADE_MODEL);
      assertThat(e.taskId()).isEqualTo("conversation-3");
    });
  }

  @Test
  @DisplayName("given the engine, a streamed refusal saves the task's escalation checkpoint before any handler hears of it, "
      + "though it ends on the client's threads")
  void aStreamedRefusalIsCheckpointedInTheCallersTask(@TempDir Path dir) throws Exception {
    errors.script("gpt-4o", Reply.contentPolicyViolation());
    server.script("gpt-4o", relay());
    List<Optional<TaskCheckpoint>> seenByHandlers = new CopyOnWriteArrayList<>();
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir);
        Hfr hfr = Hfr.builder().ledger(ledger)
            .escalationHandler(e -> seenByHandlers.add(ledger.findCheckpoint("acme", "conversation-11"))).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-11").build())) {
      HfrStreamingChatModel model = HfrStreamingChatModel.builder()
          .primary("gpt-4o", ModelFixtures.openAiStreaming(server, "gpt-4o"))
          .classifier(new DefaultFailureClassifier())
          .time(time, time)
          .decisionSink(hfr)
          .escalationHandler(e -> seenByHandlers.add(ledger.findCheckpoint("acme", "conversation-11")))
          .build();
      Caller caller = new Caller();
      model.chat("do something bad", caller);

      assertThat(caller.error()).isInstanceOf(ModelRefusalException.class);
      assertThat(seenByHandlers).as("the engine's handler, then the adapter's").hasSize(2).allSatisfy(seen ->
          assertThat(seen).hasValueSatisfying(cp -> assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.ESCALATED)));
      assertThat(ledger.findCheckpoint("acme", "conversation-11")).hasValueSatisfying(
          cp -> assertThat(cp.evidence()).contains("tool=model:gpt-4o", "fault=T8", "reason=policy_refusal"));
      assertThat(task.report().escalated()).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("a caller that cancels the stream ends the call: a FAIL decision for 'cancelled', counted in its task as failed")
  void aCancelledStreamCountsInTheCallersTask() throws Exception {
    List<DecisionEvent> logged = new CopyOnWriteArrayList<>();
    server.script("gpt-4o", tokens("one ", "two ", "three"));
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(logged::add).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-4").build())) {
      HfrStreamingChatModel model = HfrStreamingChatModel.builder()
          .primary("gpt-4o", ModelFixtures.openAiStreaming(server, "gpt-4o"))
          .classifier(new DefaultFailureClassifier())
          .time(time, time)
          .listener(decisions::add)
          .decisionSink(hfr)
          .build();
      CompletableFuture<String> read = new CompletableFuture<>();
      // the user stops reading after the first words
      model.chat("hello", new StreamingChatResponseHandler() {
        @Override
        public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
          context.streamingHandle().cancel();
          read.complete(partial.text());
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
          read.completeExceptionally(new AssertionError("completed after a cancel: " + response));
        }

        @Override
        public void onError(Throwable error) {
          read.completeExceptionally(new AssertionError("an error after a cancel", error));
        }
      });

      assertThat(read.get(HANG_SECONDS, TimeUnit.SECONDS)).isEqualTo("one ");
      TaskReport report = task.report();
      assertThat(report.calls()).isEqualTo(1);
      assertThat(report.failed()).isEqualTo(1);
      assertThat(report.failedTools()).containsExactly("model:gpt-4o");
      assertThat(task.lastOutcome().reason()).isEqualTo("cancelled");
    }
    assertThat(actions()).containsExactly("FAIL");
    assertThat(decisions.get(0).rule()).isEqualTo("cancelled");
    assertThat(logged).singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.action()).isEqualTo(Action.FAIL);
      assertThat(e.reason()).isEqualTo(Reason.CANCELLED);
      assertThat(e.taskId()).isEqualTo("conversation-4");
    });
    assertThat(server.requests()).as("a cancelled stream is not sent again").containsExactly("gpt-4o");
  }
}
