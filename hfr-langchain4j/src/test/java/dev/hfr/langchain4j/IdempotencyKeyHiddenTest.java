package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.service.tool.AiServiceTool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The model is never asked for an idempotency key: HFR hides the parameter and passes its own ledger key. */
class IdempotencyKeyHiddenTest {

  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger(Clock.system())).decisionSink(DecisionSink.discarding())
      .sleeper(nanos -> {}).build();
  private final PaymentDesk desk = PaymentDesk_Recovering.create(hfr);
  private final AiServiceTool charge = HfrTools.aiServiceTools(desk).get(0);

  @AfterEach
  void close() {
    hfr.close();
  }

  @Test
  void theKeyParameterIsNotInTheSpecificationTheModelSees() {
    ToolSpecification spec = charge.toolSpecification();
    assertThat(spec.parameters().properties()).containsOnlyKeys("account", "cents");
    assertThat(spec.parameters().required()).containsExactlyInAnyOrder("account", "cents");
  }

  @Test
  void theToolGetsTheLedgerKeyTheSameOnEveryAttempt() {
    desk.refuseNext.set(1);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-1").build())) {
      String answer = charge.toolExecutor().execute(request("{\"account\":\"ACC-1\",\"cents\":500}"), "conversation-1");
      assertThat(answer).isEqualTo("charged 500 to ACC-1");
    }
    assertThat(desk.keysSeen).hasSize(2).doesNotContain("null");
    assertThat(desk.keysSeen.get(0)).as("the retry carries the first attempt's key").isEqualTo(desk.keysSeen.get(1))
        .matches("[0-9a-f]{64}");
  }

  @Test
  void aKeyTheModelMakesUpAnywayIsDropped() {
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-2").build())) {
      charge.toolExecutor().execute(request("{\"account\":\"ACC-1\",\"cents\":500,\"key\":\"made-up\"}"), "conversation-2");
    }
    assertThat(desk.keysSeen).singleElement().asString().matches("[0-9a-f]{64}");
  }

  private static ToolExecutionRequest request(String arguments) {
    return ToolExecutionRequest.builder().id("call-1").name("charge").arguments(arguments).build();
  }
}
