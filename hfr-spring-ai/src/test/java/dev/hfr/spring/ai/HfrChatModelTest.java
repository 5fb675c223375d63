package dev.hfr.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;

/**
 * The model ladder on Spring AI's real OpenAI model (the official OpenAI Java SDK) against the scripted
 * OpenAI-compatible server on loopback: the same F2D-9 rules as the LangChain4j adapter, from the runtime.
 */
class HfrChatModelTest {

  private final ScriptedOpenAiServer llm = ScriptedOpenAiServer.start();
  private final List<ModelDecision> decisions = new CopyOnWriteArrayList<>();
  private final List<ModelCallFailedException> escalations = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void warmUpTheSdk() {
    LoopbackOpenAi.warmUp();
  }

  @AfterEach
  void stop() {
    llm.close();
  }

  @Test
  void aRateLimitIsWaitedOutOnThePrimaryAndTheAnswerIsNotDegraded() {
    llm.script("gpt-4o", Reply.rateLimited(1), Reply.text("here you are"));
    ChatResponse answer = ladder(Criticality.Level.MEDIUM).call(new Prompt("hello"));

    assertThat(answer.getResult().getOutput().getText()).isEqualTo("here you are");
    assertThat(answer.getMetadata().<Boolean>get("hfr.degraded")).isFalse();
    assertThat(decisions).extracting(ModelDecision::fault, ModelDecision::action)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Fault.T2, "RETRY"), org.assertj.core.groups.Tuple.tuple(null, "ACCEPT"));
    assertThat(decisions.get(0).delayMillis()).as("never sooner than Retry-After").isGreaterThanOrEqualTo(1000);
  }

  @Test
  void anOverloadedPrimaryDegradesAtOnceAndTheAnswerSaysItIsDegraded() {
    llm.script("gpt-4o", Reply.overloaded());
    llm.script("gpt-4o-backup", Reply.text("from the backup"));
    ChatResponse answer = ladder(Criticality.Level.MEDIUM).call(new Prompt("hello"));

    assertThat(answer.getResult().getOutput().getText()).isEqualTo("from the backup");
    assertThat(answer.getMetadata().<Boolean>get("hfr.degraded")).isTrue();
    assertThat(answer.getMetadata().<String>get("hfr.rung")).isEqualTo("gpt-4o@backup");
    assertThat(answer.getMetadata().<String>get("hfr.level")).isEqualTo("L2");
    assertThat(decisions.get(0).fault()).isEqualTo(Fault.T4);
    assertThat(decisions.get(0).action()).isEqualTo("DEGRADE_MODEL");
    assertThat(llm.requests("gpt-4o")).as("not retried on the overloaded model").hasSize(1);
  }

  @Test
  void underAChatClientEachRungGetsItsOwnModelWithTheCallersOptions() {
    llm.script("gpt-4o", Reply.overloaded());
    llm.script("gpt-4o-backup", Reply.text("from the backup"));

    String answer = ChatClient.create(ladder(Criticality.Level.MEDIUM)).prompt("hello")
        .options(OpenAiChatOptions.builder().temperature(0.3)).call().content();

    assertThat(answer).isEqualTo("from the backup");
    assertThat(llm.requests("gpt-4o")).singleElement()
        .satisfies(r -> assertThat(r.body().path("temperature").asDouble()).isEqualTo(0.3));
    assertThat(llm.requests("gpt-4o-backup")).as("the fallback asks for its own model, not the primary's")
        .singleElement().satisfies(r -> assertThat(r.body().path("temperature").asDouble()).isEqualTo(0.3));
  }

  @Test
  void aContentFilterIsEscalatedAndNeverDegradedAround() {
    llm.script("gpt-4o", Reply.contentFilterFinish());
    llm.script("gpt-4o-backup", Reply.text("a weaker model would have complied"));

    assertThatThrownBy(() -> ladder(Criticality.Level.MEDIUM).call(new Prompt("write something nasty")))
        .isInstanceOfSatisfying(ModelCallFailedException.class, e -> {
          assertThat(e.status()).isEqualTo(ToolOutcome.Status.ESCALATED);
          assertThat(e.fault()).isEqualTo(Fault.T8);
        });
    assertThat(escalations).hasSize(1);
    assertThat(llm.remaining("gpt-4o-backup")).isEqualTo(1);
  }

  @Test
  void aRejectedKeyFailsWithoutRetryOrFallback() {
    llm.script("gpt-4o", Reply.unauthorized());
    llm.script("gpt-4o-backup", Reply.text("unused"));

    assertThatThrownBy(() -> ladder(Criticality.Level.MEDIUM).call(new Prompt("hello")))
        .isInstanceOfSatisfying(ModelCallFailedException.class, e -> {
          assertThat(e.status()).isEqualTo(ToolOutcome.Status.FAILED);
          assertThat(e.fault()).isEqualTo(Fault.T7);
        });
    assertThat(llm.requests("gpt-4o")).hasSize(1);
    assertThat(llm.remaining("gpt-4o-backup")).isEqualTo(1);
  }

  @Test
  void atHighCriticalityASmallerModelNeedsAHumanSoTheExhaustedLadderIsEscalated() {
    llm.script("gpt-4o", Reply.serverError(500), Reply.serverError(502), Reply.serverError(503));
    llm.script("gpt-4o-mini", Reply.text("unused"));
    HfrChatModel model = base(Criticality.Level.HIGH)
        .fallback(DegradeLevel.L3, "gpt-4o-mini", openAi("gpt-4o-mini"))
        .build();

    assertThatThrownBy(() -> model.call(new Prompt("hello")))
        .isInstanceOfSatisfying(ModelCallFailedException.class, e -> {
          assertThat(e.status()).isEqualTo(ToolOutcome.Status.ESCALATED);
          assertThat(e.fault()).isEqualTo(Fault.T1);
        });
    assertThat(decisions).extracting(ModelDecision::action).containsExactly("RETRY", "RETRY", "ESCALATE");
    assertThat(llm.remaining("gpt-4o-mini")).as("L3 is not run without a human at HIGH").isEqualTo(1);
    assertThat(escalations).hasSize(1);
  }

  @Test
  void aContextOverflowIsCompressedOnceAndResentShorterAndTheAnswerIsMarkedL1() {
    llm.script("gpt-4o", Reply.contextLengthExceeded(), Reply.text("fits now"));
    List<Message> conversation = new ArrayList<>();
    conversation.add(new SystemMessage("You are a shop assistant."));
    for (int i = 0; i < 10; i++) {
      conversation.add(new UserMessage("question " + i + " ".repeat(50)));
      conversation.add(new AssistantMessage("answer " + i));
    }

    ChatResponse answer = base(Criticality.Level.MEDIUM).summarizer(new KeepRecentSummarizer(4, 40)).build()
        .call(new Prompt(conversation));

    assertThat(answer.getResult().getOutput().getText()).isEqualTo("fits now");
    assertThat(answer.getMetadata().<Boolean>get("hfr.degraded")).isTrue();
    assertThat(answer.getMetadata().<String>get("hfr.level")).isEqualTo("L1");
    assertThat(decisions).extracting(ModelDecision::action).containsExactly("COMPRESS", "ACCEPT");
    var sent = llm.requests("gpt-4o");
    assertThat(sent.get(0).messageCount()).isEqualTo(21);
    assertThat(sent.get(1).messageCount()).as("the system message, the summary, the last four").isEqualTo(1 + 1 + 4);
    assertThat(sent.get(1).body().path("messages").get(1).path("content").asText()).startsWith("Summary of 16 earlier messages");
  }

  @Test
  void aSecondOverflowAfterCompressionFailsInsteadOfResendingTheSameRequest() {
    llm.script("gpt-4o", Reply.contextLengthExceeded(), Reply.contextLengthExceeded());
    List<Message> conversation = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      conversation.add(new UserMessage("q" + i));
    }

    assertThatThrownBy(() -> base(Criticality.Level.MEDIUM).build().call(new Prompt(conversation)))
        .isInstanceOfSatisfying(ModelCallFailedException.class, e -> {
          assertThat(e.status()).isEqualTo(ToolOutcome.Status.FAILED);
          assertThat(e.fault()).isEqualTo(Fault.T6);
        });
    assertThat(llm.requests("gpt-4o")).hasSize(2);
  }

  @Test
  void theKeptTailNeverStartsWithAnOrphanedToolResponse() {
    AssistantMessage call = AssistantMessage.builder().content("")
        .toolCalls(List.of(new AssistantMessage.ToolCall("c1", "function", "stock", "{}"))).build();
    ToolResponseMessage result = ToolResponseMessage.builder()
        .responses(List.of(new ToolResponseMessage.ToolResponse("c1", "stock", "12"))).build();
    List<Message> conversation = List.of(new UserMessage("a"), new UserMessage("b"), call, result, new UserMessage("c"));

    List<Message> shorter = new KeepRecentSummarizer(2, 40).compress(conversation);

    assertThat(shorter).hasSize(4);
    assertThat(shorter.get(0).getText()).startsWith("Summary of 2 earlier messages").contains("- user: a");
    assertThat(shorter.subList(1, 4)).containsExactly(call, result, conversation.get(4));
  }

  private HfrChatModel ladder(Criticality.Level criticality) {
    return base(criticality).fallback(DegradeLevel.L2, "gpt-4o@backup", openAi("gpt-4o-backup")).build();
  }

  private HfrChatModel.Builder base(Criticality.Level criticality) {
    return HfrChatModel.builder()
        .primary("gpt-4o", openAi("gpt-4o"))
        .criticality(criticality)
        .classifier(new DefaultFailureClassifier())
        .sleeper(nanos -> { })
        .listener(decisions::add)
        .escalationHandler(escalations::add);
  }

  private ChatModel openAi(String model) {
    return LoopbackOpenAi.model(llm.baseUrl(), model);
  }
}
