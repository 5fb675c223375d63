package dev.hfr.agent.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the agent's JSON-lines events file. */
final class Events {

  private Events() {}

  static List<JsonNode> read(Path file) throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<JsonNode> events = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.isBlank()) {
        events.add(json.readTree(line));
      }
    }
    return events;
  }

  /** {@code "status fault action"} of an event, e.g. {@code "429 T2 RETRY"}, {@code "200 - -"}. */
  static String outcome(JsonNode event) {
    return event.get("status").asInt() + " " + text(event, "fault") + " " + text(event, "action");
  }

  private static String text(JsonNode event, String field) {
    JsonNode n = event.get(field);
    return n == null || n.isNull() ? "-" : n.asText();
  }
}
