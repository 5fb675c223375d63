package dev.hfr.samples.spring;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.samples.spring.LoopbackShop.Service;
import dev.hfr.spring.ai.HfrAdvisor;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.stereotype.Component;

/**
 * Runs the shop assistant's requests, written as Spring AI's guide writes a tool app: a {@code ChatClient} from the
 * injected {@code ChatClient.Builder} with {@code .defaultTools(shopTools)}, one {@code chat.prompt().user(...).call()}
 * per request. With the starter that is all HFR needs: each call is an HFR task (the model's whole tool loop) and the
 * tool bean's calls run through its proxy. To show what HFR prevents, the same requests also run on a {@code ChatClient}
 * Spring AI builds by itself ({@code ChatClient.builder(chatModel)}) with a plain {@code ShopTools}: the same code
 * without HFR.
 */
@Component
public class ShopAssistant {

  private static final String SYSTEM = "You are the shop's order assistant. Look the product up, place the order, charge"
      + " the card, send the confirmation.";

  private final ChatClient chat;
  private final ChatClient withoutHfr;
  private final Hfr hfr;
  private final LoopbackShop shop;

  public ShopAssistant(ChatClient.Builder chat, ShopTools shopTools, ChatModel chatModel, Hfr hfr, LoopbackShop shop) {
    // tag::client[]
    this.chat = chat.defaultSystem(SYSTEM).defaultTools(shopTools).build();   // the injected builder, the tool bean
    // end::client[]
    this.withoutHfr = ChatClient.builder(chatModel).defaultSystem(SYSTEM).defaultTools(new ShopTools(shop)).build();
    this.hfr = hfr;
    this.shop = shop;
  }

  /**
   * One request and what it cost.
   *
   * @param withHfr whether the tools ran through HFR
   * @param answer the assistant's answer
   * @param calls the calls HFR ran in the request's task: tool calls and model requests (0 without HFR)
   * @param retries the retries HFR made inside those calls
   * @param escalated the calls HFR handed to a human
   */
  public record Conversation(boolean withHfr, String answer, int calls, int retries, int escalated) {}

  /**
   * The duplicates the services counted for a batch of requests, with and without HFR.
   *
   * @param completedWithHfr requests that ended with every step done, with HFR
   * @param escalatedByHfr tool calls HFR handed to a human (a write whose outcome stayed unknown); the model was told
   *     {@code "call_again": false}, and its re-calls were answered from the ledger, never sent
   * @param completedWithoutHfr requests that ended with every step done, without HFR
   * @param retriesByHfr the retries HFR made inside the tools, each write with its idempotency key
   * @param breakersOpened how often a circuit breaker of the engine opened (the model's re-calls must open none)
   * @param unfinishedWithHfr what the assistant told the user in each request with HFR it could not complete
   */
  public record Reproduction(int conversations, double faultRate, Map<Service, Integer> duplicatesWithHfr,
      Map<Service, Integer> duplicatesWithoutHfr, int completedWithHfr, int escalatedByHfr, int completedWithoutHfr,
      int retriesByHfr, long breakersOpened, List<String> unfinishedWithHfr) {}

  public Conversation converse(String message, boolean withHfr) {
    if (!withHfr) {
      return new Conversation(false, withoutHfr.prompt().user(message).call().content(), 0, 0, 0);
    }
    // tag::call[]
    ChatClientResponse response = chat.prompt().user(message).call().chatClientResponse();
    // end::call[]
    String answer = response.chatResponse().getResult().getOutput().getText();
    // what the request's task did: HFR's advisor puts its report in the response's context
    TaskReport report = (TaskReport) response.context().get(HfrAdvisor.TASK_REPORT);
    return report == null ? new Conversation(true, answer, 0, 0, 0)
        : new Conversation(true, answer, report.calls(), report.retryCount(), report.escalated());
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
      Conversation with = converse(order(i, "hfr-c"), true);
      retries += with.retries();
      escalated += with.escalated();
      if (with.answer().startsWith("Done")) {
        completedWith++;
      } else {
        unfinished.add(with.answer());
      }
      completedWithout += converse(order(i, "plain-c"), false).answer().startsWith("Done") ? 1 : 0;
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
