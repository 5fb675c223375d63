package dev.hfr.samples.spring;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.conversation.ConversationTasks;
import dev.hfr.samples.spring.LoopbackShop.Service;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * Runs conversations of the shop assistant: with the starter's {@code hfrToolCallbacks} (every tool call through
 * HFR, each conversation its own HFR task from the conversation id in the tool context — nothing opened by hand), or
 * — to show what HFR prevents — with the callbacks Spring AI builds itself from a plain {@code ShopTools}, the same
 * code without the proxy.
 */
@Component
public class ShopAssistant {

  private final ChatClient chat;
  private final Hfr hfr;
  private final ToolCallbackProvider protectedTools;
  private final ToolCallback[] unprotectedTools;
  private final LoopbackShop shop;

  public ShopAssistant(ChatClient.Builder chat, Hfr hfr, @Qualifier("hfrToolCallbacks") ToolCallbackProvider protectedTools,
      LoopbackShop shop) {
    this.chat = chat.defaultSystem("You are the shop's order assistant. Look the product up, place the order, charge"
        + " the card, send the confirmation.").build();
    this.hfr = hfr;
    this.protectedTools = protectedTools;
    this.unprotectedTools = ToolCallbacks.from(new ShopTools(shop));
    this.shop = shop;
  }

  /**
   * One conversation turn and what it cost.
   *
   * @param conversation the conversation id (its HFR task id is {@code conversation-<id>-<start>})
   * @param withHfr whether the tools ran through HFR
   * @param answer the assistant's answer
   * @param toolCalls the tool calls HFR saw (0 without HFR)
   * @param retries the retries HFR made inside those calls
   * @param escalated the calls HFR handed to a human
   */
  public record Conversation(String conversation, boolean withHfr, String answer, int toolCalls, int retries, int escalated) {}

  /**
   * The duplicates the services counted for a batch of conversations, with and without HFR.
   *
   * @param completedWithHfr conversations that ended with every step done, with HFR
   * @param escalatedByHfr tool calls HFR handed to a human (a write whose outcome stayed unknown); the model was told
   *     {@code "call_again": false}, and its re-calls were answered from the ledger, never sent
   * @param completedWithoutHfr conversations that ended with every step done, without HFR
   * @param retriesByHfr the retries HFR made inside the tools, each write with its idempotency key
   * @param breakersOpened how often a circuit breaker of the engine opened (the model's re-calls must open none)
   * @param unfinishedWithHfr what the assistant told the user in each conversation with HFR it could not complete
   */
  public record Reproduction(int conversations, double faultRate, Map<Service, Integer> duplicatesWithHfr,
      Map<Service, Integer> duplicatesWithoutHfr, int completedWithHfr, int escalatedByHfr, int completedWithoutHfr,
      int retriesByHfr, long breakersOpened, List<String> unfinishedWithHfr) {}

  public Conversation converse(String conversation, String message, boolean withHfr) {
    ChatClient.ChatClientRequestSpec prompt = chat.prompt().user(message);
    if (!withHfr) {
      return new Conversation(conversation, false, prompt.toolCallbacks(unprotectedTools).call().content(), 0, 0, 0);
    }
    // The conversation id is all HFR needs: the conversation's tool calls share one task, so the model calling a
    // write again is the same write, answered from the ledger.
    // tag::call[]
    String answer = prompt.toolCallbacks(protectedTools).toolContext(Map.of(ChatMemory.CONVERSATION_ID, conversation))
        .call().content();
    // end::call[]
    TaskReport report = ConversationTasks.of(hfr).task(conversation).map(TaskScope::report).orElse(null);
    return report == null ? new Conversation(conversation, true, answer, 0, 0, 0)
        : new Conversation(conversation, true, answer, report.calls(), report.retryCount(), report.escalated());
  }

  /** Whether a circuit breaker of the engine opened since it started: refusals and replays must not open one. */
  public long breakersOpened() {
    return hfr.circuitBreakers().map(b -> b.all().stream().mapToLong(CircuitBreaker::openedCount).sum()).orElse(0L);
  }

  /**
   * The reproduction: {@code count} orders placed with HFR and the same {@code count} without, against the
   * same failing services; the services count the duplicates.
   */
  public Reproduction reproduce(int count, double faultRate) {
    int retries = 0;
    int escalated = 0;
    int completedWith = 0;
    int completedWithout = 0;
    List<String> unfinished = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      Conversation with = converse("hfr-c" + i, order(i, "hfr-c"), true);
      retries += with.retries();
      escalated += with.escalated();
      if (with.answer().startsWith("Done")) {
        completedWith++;
      } else {
        unfinished.add(with.answer());
      }
      completedWithout += converse("plain-c" + i, order(i, "plain-c"), false).answer().startsWith("Done") ? 1 : 0;
    }
    return new Reproduction(count, faultRate, duplicates("hfr-c"), duplicates("plain-c"), completedWith, escalated,
        completedWithout, retries, breakersOpened(), unfinished);
  }

  private Map<Service, Integer> duplicates(String prefix) {
    Map<Service, Integer> out = new EnumMap<>(Service.class);
    for (Service s : Service.values()) {
      out.put(s, shop.duplicates(s, prefix));
    }
    return out;
  }

  private static String order(int i, String prefix) {
    return "Order " + (1 + i % 3) + " x SKU-" + (40 + i) + ", reference " + prefix + i + ", e-mail customer" + i + "@example.com";
  }
}
