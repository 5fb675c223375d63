package dev.hfr.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.ItemKind;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.ToolCallback;

/**
 * Spring AI's tool callbacks pass a person's answer through: the model's call of an e-mail whose answer was lost waits
 * in the inbox, and its next call gets the person's answer; an approval answers "waiting for a person" at once.
 */
@DisplayName("Spring AI tool callbacks and the inbox")
class HfrToolCallbacksInboxTest {

  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger(Clock.system())).decisionSink(DecisionSink.discarding())
      .sleeper(nanos -> {}).build();
  private final NoticeTools tools = NoticeTools_Recovering.create(hfr);
  private final ToolCallback[] callbacks = HfrToolCallbacks.from(tools);

  @AfterEach
  void close() {
    hfr.close();
  }

  private ToolCallback callback(String name) {
    return Arrays.stream(callbacks).filter(c -> c.getToolDefinition().name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("'it happened' in the inbox: the model's next call gets the provider's id as a replay, one e-mail sent")
  void happenedReachesTheModel() {
    tools.loseNextAnswer.set(true);
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("shop", "conversation-1").build())) {
      assertThat(callback("sendReceipt").call("{\"to\":\"bo@example.com\"}")).contains("\"call_again\":false");
      InboxItem item = hfr.inbox().list().get(0);
      assertThat(item.argsPreview()).doesNotContain("bo@example.com");

      hfr.inbox().answer(item.id(), Answer.HAPPENED, "ops", "in the provider's log", "msg-77");

      assertThat(callback("sendReceipt").call("{\"to\":\"bo@example.com\"}")).contains("msg-77").contains("\"replayed\":true");
    }
    assertThat(tools.sent).containsExactly("receipt to bo@example.com");
  }

  @Test
  @DisplayName("an approval: 'waiting for a person' at once; approved in the inbox, the next call sends once")
  void approvalReachesTheModel() {
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("shop", "conversation-2").build())) {
      assertThat(callback("sendRefundNote").call("{\"to\":\"cy@example.com\"}"))
          .contains("awaiting_approval").contains("\"call_again\":true");
      InboxItem request = hfr.inbox().list().get(0);
      assertThat(request.kind()).isEqualTo(ItemKind.APPROVAL);

      hfr.inbox().answer(request.id(), Answer.APPROVE, "lead", "");

      assertThat(callback("sendRefundNote").call("{\"to\":\"cy@example.com\"}")).contains("msg-1");
      assertThat(callback("sendRefundNote").call("{\"to\":\"cy@example.com\"}")).contains("msg-1");
    }
    assertThat(tools.sent).containsExactly("refund note to cy@example.com");
  }
}
