package dev.hfr.samples.langchain4j.loop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.junit.openai.RecordedRequest;
import dev.hfr.junit.openai.Reply;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The loop's "LLM", as an OpenAI-compatible policy: from the conversation it is sent, it runs the plan search →
 * createOrder → charge → sendReceipt and then says "Done". A tool result that is not a success is answered the way
 * models answer errors: the same call again, up to {@value #RECALLS} times — whatever the result says, even {@code
 * "call_again": false} (the worst case). After that it gives up and quotes the last result's message.
 */
public final class RecallingModel {

  /** The model's name on the scripted server. */
  public static final String NAME = "gpt-4o";

  /** How often a failed step is called again. */
  public static final int RECALLS = 3;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ORDER = Pattern.compile("Order (\\d+) x (\\S+), reference (\\S+), e-mail (\\S+)");
  private static final List<String> PLAN = List.of("search", "createOrder", "charge", "sendReceipt");

  private RecallingModel() {}

  /** The user message of conversation {@code i}, whose order reference starts with {@code prefix}. */
  public static String order(String prefix, int i) {
    return "Order " + (1 + i % 4) + " x SKU-" + (100 + i) + ", reference " + prefix + i + ", e-mail buyer" + i + "@example.com";
  }

  /** The next reply to {@code request}. */
  public static Reply reply(RecordedRequest request) {
    JsonNode messages = request.body().path("messages");
    Matcher order = ORDER.matcher(userText(messages));
    if (!order.find()) {
      return Reply.text("Say: Order 2 x SKU-42, reference r-1, e-mail ana@example.com");
    }
    int step = 0;
    int failures = 0;
    long price = 0;
    JsonNode last = null;
    Map<String, String> toolOfCall = new HashMap<>();
    for (JsonNode m : messages) {
      m.path("tool_calls").forEach(c -> toolOfCall.put(c.path("id").asText(), c.path("function").path("name").asText()));
      if (!"tool".equals(m.path("role").asText()) || step == PLAN.size()
          || !PLAN.get(step).equals(toolOfCall.get(m.path("tool_call_id").asText()))) {
        continue;
      }
      last = read(m.path("content").asText());
      JsonNode result = last.has("result") ? read(last.path("result").asText()) : last;
      if (result.has("error") || (last.has("status") && !"success".equals(last.path("status").asText()))) {
        failures++;
        continue;
      }
      price = step == 0 ? result.path("price_cents").asLong() : price;
      step++;
      failures = 0;
    }
    String reference = order.group(3);
    if (step == PLAN.size()) {
      return Reply.text("Done: order " + reference + " placed, charged and receipted.");
    }
    if (failures > RECALLS) {
      return Reply.text("I could not finish " + reference + " at " + PLAN.get(step) + ": "
          + last.path("message").asText(last.toString()));
    }
    int quantity = Integer.parseInt(order.group(1));
    String call = "call_" + messages.size();
    return switch (PLAN.get(step)) {
      case "search" -> Reply.toolCall(call, "search", "{\"sku\":\"" + order.group(2) + "\"}");
      case "createOrder" -> Reply.toolCall(call, "createOrder",
          "{\"reference\":\"" + reference + "\",\"sku\":\"" + order.group(2) + "\",\"quantity\":" + quantity + "}");
      case "charge" -> Reply.toolCall(call, "charge", "{\"reference\":\"" + reference + "\",\"cents\":" + price * quantity + "}");
      default -> Reply.toolCall(call, "sendReceipt", "{\"reference\":\"" + reference + "\",\"email\":\"" + order.group(4) + "\"}");
    };
  }

  private static String userText(JsonNode messages) {
    for (JsonNode m : messages) {
      if ("user".equals(m.path("role").asText())) {
        return m.path("content").isArray() ? m.path("content").path(0).path("text").asText() : m.path("content").asText();
      }
    }
    return "";
  }

  /** A tool result as JSON; a text that is not JSON is an error the model reads. */
  private static JsonNode read(String text) {
    try {
      JsonNode node = JSON.readTree(text);
      if (node != null && node.isTextual()) {
        return read(node.asText());
      }
      if (node != null && node.isObject()) {
        return node;
      }
    } catch (java.io.IOException notJson) {
      // a stack-trace message, as LangChain4j hands a plain tool's exception to the model
    }
    return JSON.createObjectNode().put("error", text);
  }
}
