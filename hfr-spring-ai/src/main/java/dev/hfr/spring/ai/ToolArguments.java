package dev.hfr.spring.ai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Edits of a tool's JSON: a property out of its input schema, an argument out of the model's input. */
final class ToolArguments {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ToolArguments() {}

  /** {@code schema} without {@code property}: not among the properties, not required. */
  static String withoutProperty(String schema, String property) {
    try {
      JsonNode root = JSON.readTree(schema);
      if (root instanceof ObjectNode object) {
        if (object.get("properties") instanceof ObjectNode properties) {
          properties.remove(property);
        }
        if (object.get("required") instanceof ArrayNode required) {
          for (int i = required.size() - 1; i >= 0; i--) {
            if (property.equals(required.get(i).asText())) {
              required.remove(i);
            }
          }
        }
        return object.toString();
      }
      return schema;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Spring AI produced an input schema that is not JSON: " + schema, e);
    }
  }

  /** The model's {@code input} without {@code argument}; input that is not a JSON object is left to fail binding. */
  static String withoutArgument(String input, String argument) {
    if (input == null || !input.contains(argument)) {
      return input;
    }
    try {
      if (JSON.readTree(input) instanceof ObjectNode object && object.remove(argument) != null) {
        return object.toString();
      }
    } catch (JsonProcessingException notJson) {
      // Spring AI reports arguments it cannot read; nothing to strip from them.
    }
    return input;
  }
}
