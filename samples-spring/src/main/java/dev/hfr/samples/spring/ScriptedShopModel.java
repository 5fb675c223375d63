package dev.hfr.samples.spring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hfr.junit.openai.RecordedRequest;
import dev.hfr.junit.openai.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "LLM" of the sample: a rule that plays a shop assistant over the conversation it is sent, as a real model
 * would, and answers in the OpenAI chat-completions format. For a request such as
 * {@code Order 2 x SKU-42, reference c-07, e-mail ana@example.com} it calls, in order, {@code lookUpProduct},
 * {@code placeOrder}, {@code chargeCard} and {@code sendConfirmation}, then answers in text.
 *
 * <p>After a failed tool result it does what models do with an error message: it calls the same tool again with the
 * same arguments, up to three times ({@value #MAX_CALLS_PER_STEP} calls per step), whatever the result says — the
 * worst case, a model that ignores {@code "call_again": false}. Then it gives up and tells the user what the last
 * result said. A result HFR answered from the ledger ({@code "replayed": true}) or from a fallback ({@code
 * "degraded": true}) carries the result under {@code result}, and counts as done.
 */
final class ScriptedShopModel {

  static final String MODEL = "gpt-4o";
  static final int MAX_CALLS_PER_STEP = 4;   // the first call and three re-calls

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern REQUEST =
      Pattern.compile("Order (\\d+) x (\\S+), reference (\\S+), e-mail (\\S+)", Pattern.CASE_INSENSITIVE);
  private static final List<String> PLAN = List.of("lookUpProduct", "placeOrder", "chargeCard", "sendConfirmation");

  private ScriptedShopModel() {}

  /** The reply to one request of the conversation. */
  static Reply answer(RecordedRequest request) {
    JsonNode messages = request.body().path("messages");
    Matcher order = REQUEST.matcher(firstUserMessage(messages));
    if (!order.find()) {
      return Reply.text("I can place orders: say \"Order 2 x SKU-42, reference c-07, e-mail ana@example.com\".");
    }
    int quantity = Integer.parseInt(order.group(1));
    String sku = order.group(2);
    String reference = order.group(3);
    String email = order.group(4).replaceAll("[.]$", "");

    int step = 0;
    int callsOfStep = 0;
    long priceCents = 0;
    String lastResult = null;
    boolean lastFailed = false;
    for (ToolResult r : toolResults(messages)) {
      lastResult = r.content();
      JsonNode json = payload(parse(r.content()));
      lastFailed = !succeeded(json);
      if (!PLAN.get(step).equals(r.tool())) {
        continue;
      }
      callsOfStep++;
      if (!lastFailed) {
        if (step == 0) {
          priceCents = json.path("price_cents").asLong();
        }
        step++;
        callsOfStep = 0;
        if (step == PLAN.size()) {
          break;
        }
      }
    }
    if (step == PLAN.size()) {
      return Reply.text("Done: " + quantity + " x " + sku + " ordered under " + reference + ", card charged "
          + priceCents * quantity + " cents, confirmation sent to " + email + ".");
    }
    if (lastFailed && callsOfStep >= MAX_CALLS_PER_STEP) {
      JsonNode failure = parse(lastResult);
      String why = failure.path("message").asText(failure.path("error_type").asText(lastResult));
      return Reply.text("I could not finish " + reference + " after " + callsOfStep + " calls of " + PLAN.get(step) + ": "
          + why);
    }
    String callId = "call_" + request.messageCount();
    return switch (PLAN.get(step)) {
      case "lookUpProduct" -> Reply.toolCall(callId, "lookUpProduct", args(Map.of("sku", sku)));
      case "placeOrder" -> Reply.toolCall(callId, "placeOrder",
          args(Map.of("reference", reference, "sku", sku, "quantity", quantity)));
      case "chargeCard" -> Reply.toolCall(callId, "chargeCard",
          args(Map.of("reference", reference, "cents", priceCents * quantity)));
      default -> Reply.toolCall(callId, "sendConfirmation", args(Map.of("reference", reference, "email", email)));
    };
  }

  private record ToolResult(String tool, String content) {}

  /** The tool messages in order, each with the name of the tool the assistant called under its id. */
  private static List<ToolResult> toolResults(JsonNode messages) {
    Map<String, String> toolOfCall = new HashMap<>();
    List<ToolResult> out = new ArrayList<>();
    for (JsonNode m : messages) {
      for (JsonNode call : m.path("tool_calls")) {
        toolOfCall.put(call.path("id").asText(), call.path("function").path("name").asText());
      }
      if ("tool".equals(m.path("role").asText())) {
        out.add(new ToolResult(toolOfCall.getOrDefault(m.path("tool_call_id").asText(), "?"), m.path("content").asText("")));
      }
    }
    return out;
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

  /** The tool result as JSON (Spring AI sends a returned string as a JSON string: unwrapped here); else a text node. */
  private static JsonNode parse(String content) {
    try {
      JsonNode node = JSON.readTree(content);
      return node != null && node.isTextual() ? parse(node.asText()) : node == null ? JSON.getNodeFactory().textNode("") : node;
    } catch (JsonProcessingException notJson) {
      return JSON.getNodeFactory().textNode(content);
    }
  }

  private static String firstUserMessage(JsonNode messages) {
    for (JsonNode m : messages) {
      if ("user".equals(m.path("role").asText())) {
        JsonNode content = m.path("content");
        return content.isArray() ? content.path(0).path("text").asText("") : content.asText("");
      }
    }
    return "";
  }

  private static String args(Map<String, Object> arguments) {
    ObjectNode node = JSON.createObjectNode();
    arguments.forEach((k, v) -> node.set(k, JSON.valueToTree(v)));
    return node.toString();
  }
}
