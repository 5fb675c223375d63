package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** With {@code keyedByToolCallIds()}, the model's tool-call id is the stable id of the write's idempotency key. */
class ToolCallIdKeysTest {

  private static final String ARGS = "{\"account\":\"ACC-1\",\"cents\":500}";

  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger(Clock.system())).decisionSink(DecisionSink.discarding())
      .sleeper(nanos -> {}).build();
  private final PaymentDesk desk = PaymentDesk_Recovering.create(hfr);
  private final ConversationTasks conversations = ConversationTasks.of(hfr, "acme");

  @AfterEach
  void close() {
    hfr.close();
  }

  @Test
  void aReplayedToolCallRunsUnderItsFirstKey() {
    ToolExecutor charge = HfrTools.aiServiceTools(conversations.keyedByToolCallIds(), desk).get(0).toolExecutor();
    charge.executeWithContext(request("call_abc"), conversation("c-1"));
    charge.executeWithContext(request("call_abc"), conversation("c-1"));   // the same call, replayed from memory
    assertThat(desk.keysSeen).isNotEmpty().allMatch(k -> k.equals(desk.keysSeen.get(0)));
  }

  @Test
  void aNewToolCallOfTheModelIsANewWrite() {
    ToolExecutor charge = HfrTools.aiServiceTools(conversations.keyedByToolCallIds(), desk).get(0).toolExecutor();
    charge.executeWithContext(request("call_abc"), conversation("c-2"));
    charge.executeWithContext(request("call_def"), conversation("c-2"));
    assertThat(desk.keysSeen).hasSize(2).doesNotHaveDuplicates();
  }

  @Test
  void withoutItTheIdIsNotPartOfTheKey() {
    ToolExecutor charge = HfrTools.aiServiceTools(conversations, desk).get(0).toolExecutor();
    charge.executeWithContext(request("call_abc"), conversation("c-3"));
    charge.executeWithContext(request("call_def"), conversation("c-3"));
    assertThat(desk.keysSeen).as("two equal charges of a task are one write: the second is answered from the ledger")
        .hasSize(1);
  }

  private static ToolExecutionRequest request(String id) {
    return ToolExecutionRequest.builder().id(id).name("charge").arguments(ARGS).build();
  }

  private static InvocationContext conversation(String memoryId) {
    return InvocationContext.builder().chatMemoryId(memoryId).build();
  }
}
