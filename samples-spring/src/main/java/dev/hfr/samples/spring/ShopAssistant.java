package dev.hfr.samples.spring;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.samples.spring.LoopbackShop.Service;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * Runs conversations of the shop assistant, each in its own HFR task: with the starter's
 * {@code hfrToolCallbacks} (every tool call through HFR), or — to show what HFR prevents — with the callbacks Spring
 * AI builds itself from a plain {@code ShopTools}, the same code without the proxy.
 */
@Component
public class ShopAssistant {

  /** The HFR tenant of the sample's conversations. */
  static final String TENANT = "shop";

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
   * @param conversation the conversation id (the HFR task id)
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
   * @param escalatedByHfr tool calls HFR handed to a human instead of letting the model call again (a write whose
   *     outcome stayed unknown); the model was told {@code "retryable": false} and stopped
   * @param completedWithoutHfr conversations that ended with every step done, without HFR
   * @param retriesByHfr the retries HFR made inside the tools, each write with its idempotency key
   */
  public record Reproduction(int conversations, double faultRate, Map<Service, Integer> duplicatesWithHfr,
      Map<Service, Integer> duplicatesWithoutHfr, int completedWithHfr, int escalatedByHfr, int completedWithoutHfr,
      int retriesByHfr) {}

  public Conversation converse(String conversation, String message, boolean withHfr) {
    try (TaskScope task = hfr.openTask(TaskSpec.builder(TENANT, conversation).build())) {
      ChatClient.ChatClientRequestSpec prompt = chat.prompt().user(message);
      prompt = withHfr ? prompt.toolCallbacks(protectedTools) : prompt.toolCallbacks(unprotectedTools);
      String answer = prompt.call().content();
      TaskReport report = task.report();
      return new Conversation(conversation, withHfr, answer, report.calls(), report.retryCount(), report.escalated());
    }
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
    for (int i = 1; i <= count; i++) {
      Conversation with = converse("hfr-c" + i, order(i, "hfr-c"), true);
      retries += with.retries();
      escalated += with.escalated();
      completedWith += with.answer().startsWith("Done") ? 1 : 0;
      completedWithout += converse("plain-c" + i, order(i, "plain-c"), false).answer().startsWith("Done") ? 1 : 0;
    }
    return new Reproduction(count, faultRate, duplicates("hfr-c"), duplicates("plain-c"), completedWith, escalated,
        completedWithout, retries);
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
