package dev.hfr.junit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A chat-completions request the {@link ScriptedOpenAiServer} received.
 *
 * @param model the {@code model} the client asked for
 * @param body the parsed request body
 * @param reply the label of the reply it got
 */
public record RecordedRequest(String model, JsonNode body, String reply) {

  /** The number of messages in the request. */
  public int messageCount() {
    return body.path("messages").size();
  }

  /** The contents of the {@code tool} messages, in order (the tool results the client sent back). */
  public List<String> toolResults() {
    List<String> out = new ArrayList<>();
    for (JsonNode m : body.path("messages")) {
      if ("tool".equals(m.path("role").asText())) {
        out.add(m.path("content").asText());
      }
    }
    return out;
  }

  /** The content of the last message, or an empty string. */
  public String lastMessageContent() {
    JsonNode messages = body.path("messages");
    return messages.size() == 0 ? "" : messages.get(messages.size() - 1).path("content").asText("");
  }
}
