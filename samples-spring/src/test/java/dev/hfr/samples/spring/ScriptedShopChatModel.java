package dev.hfr.samples.spring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.core.publisher.Flux;

/**
 * A Spring AI {@link ChatModel} that plays the shop assistant the way a model does, for a {@code ChatClient} whose tool
 * loop is Spring AI's own: for {@code Order 2 x SKU-42, reference c-07, e-mail ana@example.com} (the last user
 * message) it calls {@code lookUpProduct}, {@code placeOrder}, {@code chargeCard} and {@code sendConfirmation}, then
 * answers in text. After a failed result it calls the same tool again with the same arguments, up to three times
 * ({@value #MAX_CALLS_PER_STEP} calls per tool), whatever the result says; then it gives up and tells the user what the
 * last result said. A result HFR answered from the ledger or a fallback carries the result under {@code result} and
 * counts as done.
 *
 * <p>Asked to do it {@code all at once}, once the product is known it asks for the three writes in one response
 * (parallel tool calls), and for the failed ones again in the next. {@link #stream} answers the same, as chunks on another
 * thread. {@link #lostResults()} counts tool calls of a response that came back without their result.
 */
final class ScriptedShopChatModel implements ChatModel {

  static final int MAX_CALLS_PER_STEP = 4;   // the first call and three re-calls

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ORDER =
      Pattern.compile("Order (\\d+) x (\\S+), reference (\\S+), e-mail (\\S+)", Pattern.CASE_INSENSITIVE);
  private static final List<String> WRITES = List.of("placeOrder", "chargeCard", "sendConfirmation");

  private final AtomicInteger lostResults = new AtomicInteger();
  private final AtomicInteger callIds = new AtomicInteger();

  private ScriptedShopChatModel() {}

  static ScriptedShopChatModel create() {
    return new ScriptedShopChatModel();
  }

  /** Tool calls the model asked for that were answered with no result (their round's results discarded). */
  int lostResults() {
    return lostResults.get();
  }

  @Override
  public ChatOptions getOptions() {
    return ToolCallingChatOptions.builder().build();
  }

  @Override
  public ChatResponse call(Prompt prompt) {
    return new ChatResponse(List.of(new Generation(answer(prompt.getInstructions()))));
  }

  @Override
  public Flux<ChatResponse> stream(Prompt prompt) {
    AssistantMessage answer = answer(prompt.getInstructions());
    List<AssistantMessage> chunks = answer.hasToolCalls() ? List.of(answer) : splitText(answer.getText());
    return Flux.fromIterable(chunks)
        .delayElements(Duration.ofMillis(1))   // as a model's client does: on threads of its own
        .map(chunk -> new ChatResponse(List.of(new Generation(chunk))));
  }

  private static List<AssistantMessage> splitText(String text) {
    int half = text.length() / 2;
    return List.of(new AssistantMessage(text.substring(0, half)), new AssistantMessage(text.substring(half)));
  }

  /** What the model says next, from the last user message and the tool results since. */
  private AssistantMessage answer(List<Message> messages) {
    int lastUser = -1;
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i).getMessageType() == MessageType.USER) {
        lastUser = i;
      }
    }
    Matcher order = lastUser < 0 ? null : ORDER.matcher(messages.get(lastUser).getText());
    if (order == null || !order.find()) {
      return new AssistantMessage("I can place orders: say \"Order 2 x SKU-42, reference c-07, e-mail ana@example.com\".");
    }
    Request r = new Request(Integer.parseInt(order.group(1)), order.group(2), order.group(3),
        order.group(4).replaceAll("[.]$", ""));
    boolean parallel = messages.get(lastUser).getText().contains("all at once");
    Map<String, Tool> tools = replay(messages.subList(lastUser + 1, messages.size()));

    Tool lookUp = tools.get("lookUpProduct");
    if (!lookUp.done) {
      return lookUp.calls >= MAX_CALLS_PER_STEP ? gaveUp(r, lookUp) : calls(r, List.of("lookUpProduct"), lookUp.price);
    }
    long price = lookUp.price;
    List<String> next = new ArrayList<>();
    for (String write : WRITES) {
      Tool t = tools.get(write);
      if (t.done) {
        continue;
      }
      if (t.calls >= MAX_CALLS_PER_STEP) {
        return gaveUp(r, t);
      }
      next.add(write);
      if (!parallel) {
        break;
      }
    }
    if (next.isEmpty()) {
      return new AssistantMessage("Done: " + r.quantity + " x " + r.sku + " ordered under " + r.reference
          + ", card charged " + price * r.quantity + " cents, confirmation sent to " + r.email + ".");
    }
    return calls(r, next, price);
  }

  private record Request(int quantity, String sku, String reference, String email) {}

  /** A tool's calls since the last user message: how many, whether one succeeded, the last result. */
  private static final class Tool {
    final String name;
    int calls;
    boolean done;
    String lastResult;
    long price;

    Tool(String name) {
      this.name = name;
    }
  }

  private Map<String, Tool> replay(List<Message> turn) {
    Map<String, Tool> tools = new LinkedHashMap<>();
    for (String name : List.of("lookUpProduct", "placeOrder", "chargeCard", "sendConfirmation")) {
      tools.put(name, new Tool(name));
    }
    Map<String, String> toolOfCall = new HashMap<>();
    Set<String> unanswered = new HashSet<>();
    for (Message m : turn) {
      if (m instanceof AssistantMessage a) {
        for (AssistantMessage.ToolCall call : a.getToolCalls()) {
          toolOfCall.put(call.id(), call.name());
          unanswered.add(call.id());
        }
      } else if (m instanceof ToolResponseMessage responses) {
        for (ToolResponseMessage.ToolResponse response : responses.getResponses()) {
          unanswered.remove(response.id());
          Tool t = tools.get(toolOfCall.getOrDefault(response.id(), response.name()));
          if (t == null || t.done) {
            continue;
          }
          t.calls++;
          t.lastResult = response.responseData();
          JsonNode json = payload(parse(response.responseData()));
          t.done = succeeded(json);
          if (t.done && json.has("price_cents")) {
            t.price = json.path("price_cents").asLong();
          }
        }
      }
    }
    lostResults.addAndGet(unanswered.size());
    return tools;
  }

  private AssistantMessage calls(Request r, List<String> names, long price) {
    List<AssistantMessage.ToolCall> calls = new ArrayList<>();
    for (String name : names) {
      String args = switch (name) {
        case "lookUpProduct" -> args(Map.of("sku", r.sku));
        case "placeOrder" -> args(Map.of("reference", r.reference, "sku", r.sku, "quantity", r.quantity));
        case "chargeCard" -> args(Map.of("reference", r.reference, "cents", price * r.quantity));
        default -> args(Map.of("reference", r.reference, "email", r.email));
      };
      calls.add(new AssistantMessage.ToolCall("call_" + callIds.incrementAndGet(), "function", name, args));
    }
    return AssistantMessage.builder().content("").toolCalls(calls).build();
  }

  private static AssistantMessage gaveUp(Request r, Tool t) {
    JsonNode failure = parse(t.lastResult);
    String why = failure.path("message").asText(failure.path("error_type").asText(t.lastResult));
    return new AssistantMessage("I could not finish " + r.reference + " after " + t.calls + " calls of " + t.name + ": " + why);
  }

  /** A service's answer: a JSON object without {@code error}, and without a {@code status} other than success. */
  private static boolean succeeded(JsonNode result) {
    return result.isObject() && !result.has("error")
        && (!result.has("status") || "success".equals(result.path("status").asText()));
  }

  /** What a contract carries under {@code result} (a replayed or degraded result), otherwise the result itself. */
  private static JsonNode payload(JsonNode result) {
    if (result.isObject() && "success".equals(result.path("status").asText()) && result.has("result")) {
      JsonNode inner = parse(result.path("result").asText());
      return inner.isObject() ? inner : result;
    }
    return result;
  }

  /** The tool result as JSON (a returned string arrives as a JSON string: unwrapped); else a text node. */
  private static JsonNode parse(String content) {
    try {
      JsonNode node = JSON.readTree(content == null ? "" : content);
      return node != null && node.isTextual() ? parse(node.asText())
          : node == null || node.isMissingNode() ? JSON.getNodeFactory().textNode(content == null ? "" : content) : node;
    } catch (JsonProcessingException notJson) {
      return JSON.getNodeFactory().textNode(content);
    }
  }

  private static String args(Map<String, Object> arguments) {
    ObjectNode node = JSON.createObjectNode();
    arguments.forEach((k, v) -> node.set(k, JSON.valueToTree(v)));
    return node.toString();
  }
}
