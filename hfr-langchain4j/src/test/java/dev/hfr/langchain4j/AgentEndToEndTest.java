package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.junit.HfrFaults;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.VirtualTime;
import dev.langchain4j.service.AiServices;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@HfrFaults
@DisplayName("An AiServices agent on HfrChatModel and HfrTools, end to end")
class AgentEndToEndTest {

  interface Clerk {
    String chat(String message);
  }

  ScriptedOpenAiServer server;
  final List<ModelDecision> decisions = new ArrayList<>();

  @BeforeEach
  void start() {
    server = ScriptedOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  Clerk clerk(RecoveryEngine engine, VirtualTime time) {
    HfrChatModel model = HfrChatModel.builder()
        .primary("gpt-4o", ModelFixtures.openAi(server, "gpt-4o"))
        .fallback(DegradeLevel.L2, "gpt-4o@backup", ModelFixtures.openAi(server, "gpt-4o-backup"))
        .criticality(Criticality.Level.MEDIUM)
        .classifier(new DefaultFailureClassifier())
        .time(time, time)
        .listener(decisions::add)
        .build();
    return HfrTools.wrap(AiServices.builder(Clerk.class), OrderDesk_Recovering.create(engine)).chatModel(model).build();
  }

  @Test
  @DisplayName("an overloaded model mid-conversation degrades to the backup, and the tool loop goes on")
  void overloadMidConversation(RecoveryEngine engine, VirtualTime time) {
    server.script("gpt-4o", Reply.rateLimited(1), Reply.toolCall("c1", "checkStock", "{\"sku\":\"SKU-42\"}"), Reply.overloaded());
    server.script("gpt-4o-backup", Reply.from(r -> Reply.text("stock is " + r.toolResults().get(0))));

    assertThat(clerk(engine, time).chat("stock?")).isEqualTo("stock is 17");
    assertThat(decisions).extracting(ModelDecision::action).containsExactly("RETRY", "ACCEPT", "DEGRADE_MODEL", "ACCEPT");
  }

  @Test
  @DisplayName("a refusal escalates out of the agent; the backup model is never asked")
  void refusalEscalates(RecoveryEngine engine, VirtualTime time) {
    server.script("gpt-4o", Reply.refusal("I can't help with that."));
    server.script("gpt-4o-backup", Reply.text("a weaker model would comply"));

    Throwable thrown = catchThrowable(() -> clerk(engine, time).chat("do something bad"));

    assertThat(thrown).isInstanceOf(ModelRefusalException.class);
    assertThat(((ModelRefusalException) thrown).fault()).isEqualTo(Fault.T8);
    assertThat(server.requests("gpt-4o-backup")).isEmpty();
  }

  @Test
  @DisplayName("model decisions land in the engine's decision log, in the caller's task (given the engine)")
  void modelDecisionsReachTheDecisionSink(RecoveryEngine engine, Hfr hfr, VirtualTime time, List<DecisionEvent> events) {
    server.script("gpt-4o", Reply.rateLimited(1), Reply.toolCall("c1", "checkStock", "{\"sku\":\"SKU-42\"}"), Reply.overloaded());
    server.script("gpt-4o-backup", Reply.from(r -> Reply.text("stock is " + r.toolResults().get(0))));

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-7").build())) {
      HfrChatModel model = HfrChatModel.builder()
          .primary("gpt-4o", ModelFixtures.openAi(server, "gpt-4o"))
          .fallback(DegradeLevel.L2, "gpt-4o@backup", ModelFixtures.openAi(server, "gpt-4o-backup"))
          .classifier(new DefaultFailureClassifier())
          .time(time, time)
          .decisionSink(hfr)                        // the engine's sink (events) and its current task
          .build();
      Clerk clerk = HfrTools.wrap(AiServices.builder(Clerk.class), OrderDesk_Recovering.create(engine)).chatModel(model).build();

      assertThat(clerk.chat("stock?")).isEqualTo("stock is 17");
      assertThat(task.lastOutcome().tool()).as("counted in the task the engine sees open").isEqualTo("model:gpt-4o@backup");
    }

    List<DecisionEvent> modelEvents = events.stream().filter(e -> e.tool().startsWith("model:")).toList();
    assertThat(modelEvents).extracting(DecisionEvent::tool).containsExactly("model:gpt-4o", "model:gpt-4o");
    assertThat(modelEvents).extracting(DecisionEvent::action).containsExactly(Action.RETRY, Action.DEGRADE_MODEL);
    assertThat(modelEvents).extracting(DecisionEvent::reason).containsExactly(Reason.RETRYABLE, Reason.OVERLOADED);
    assertThat(modelEvents).extracting(DecisionEvent::fault).containsExactly(Fault.T2, Fault.T4);
    assertThat(modelEvents).allSatisfy(e -> {
      assertThat(e.tenant()).isEqualTo("acme");
      assertThat(e.taskId()).isEqualTo("conversation-7");
      assertThat(e.rung()).isEqualTo(DegradeLevel.L0);
      assertThat(e.confidence()).isPositive();
    });
    assertThat(modelEvents.get(0).delayMillis()).isGreaterThanOrEqualTo(1000);
  }

  @Test
  @DisplayName("model calls count in the task's report beside the tool calls, a refusal as an escalation")
  void modelCallsCountInTheTaskReport(RecoveryEngine engine, Hfr hfr, VirtualTime time, List<DecisionEvent> events) {
    server.script("gpt-4o", Reply.rateLimited(1), Reply.toolCall("c1", "checkStock", "{\"sku\":\"SKU-42\"}"), Reply.overloaded(),
        Reply.contentPolicyViolation());
    server.script("gpt-4o-backup", Reply.from(r -> Reply.text("stock is " + r.toolResults().get(0))));

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-8").build())) {
      HfrChatModel model = HfrChatModel.builder()
          .primary("gpt-4o", ModelFixtures.openAi(server, "gpt-4o"))
          .fallback(DegradeLevel.L2, "gpt-4o@backup", ModelFixtures.openAi(server, "gpt-4o-backup"))
          .classifier(new DefaultFailureClassifier())
          .time(time, time)
          .decisionSink(events::add, () -> task)
          .build();
      Clerk clerk = HfrTools.wrap(AiServices.builder(Clerk.class), OrderDesk_Recovering.create(engine)).chatModel(model).build();
      assertThat(clerk.chat("stock?")).isEqualTo("stock is 17");
      assertThatThrownBy(() -> clerk.chat("something the policy refuses")).isInstanceOf(ModelRefusalException.class);

      // Model: a retried tool-call answer (2 attempts), a degraded answer (2 attempts), a refusal (1).
      // Tool: checkStock once.
      TaskReport report = task.report();
      assertThat(report.calls()).isEqualTo(4);
      assertThat(report.succeeded()).isEqualTo(3);
      assertThat(report.degraded()).isEqualTo(1);
      assertThat(report.escalated()).isEqualTo(1);
      assertThat(report.attempts()).isEqualTo(2 + 1 + 2 + 1);
      assertThat(task.lastOutcome().tool()).isEqualTo("model:gpt-4o");
      assertThat(task.lastOutcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    }
  }
}
