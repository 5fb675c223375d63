package dev.hfr.langchain4j.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * An MCP tool's input schema (JSON Schema as the server listed it) as LangChain4j's schema types. The plain
 * shapes (string, enum, integer, number, boolean, array, object) map one to one; anything else (anyOf,
 * references, several types) is passed on as raw JSON Schema, so nothing the server said is lost.
 */
final class McpJsonSchemas {

  private McpJsonSchemas() {}

  static JsonObjectSchema object(ObjectNode schema) {
    JsonObjectSchema.Builder b = JsonObjectSchema.builder();
    if (schema.hasNonNull("description")) {
      b.description(schema.get("description").asText());
    }
    JsonNode properties = schema.get("properties");
    if (properties != null && properties.isObject()) {
      properties.fields().forEachRemaining(p -> b.addProperty(p.getKey(), element(p.getValue())));
    }
    JsonNode required = schema.get("required");
    if (required != null && required.isArray()) {
      List<String> names = new ArrayList<>();
      required.forEach(r -> names.add(r.asText()));
      b.required(names);
    }
    JsonNode additional = schema.get("additionalProperties");
    if (additional != null && additional.isBoolean()) {
      b.additionalProperties(additional.asBoolean());
    }
    return b.build();
  }

  private static JsonSchemaElement element(JsonNode node) {
    if (!(node instanceof ObjectNode schema)) {
      return JsonRawSchema.from(String.valueOf(node));
    }
    String description = schema.hasNonNull("description") ? schema.get("description").asText() : null;
    JsonNode type = schema.get("type");
    JsonNode values = schema.get("enum");
    if (values != null && values.isArray() && (type == null || "string".equals(type.asText()))) {
      List<String> constants = new ArrayList<>();
      values.forEach(v -> constants.add(v.asText()));
      return JsonEnumSchema.builder().enumValues(constants).description(description).build();
    }
    if (type == null || !type.isTextual() || schema.has("anyOf") || schema.has("oneOf") || schema.has("$ref")) {
      return JsonRawSchema.from(schema.toString());
    }
    return switch (type.asText()) {
      case "string" -> JsonStringSchema.builder().description(description).build();
      case "integer" -> JsonIntegerSchema.builder().description(description).build();
      case "number" -> JsonNumberSchema.builder().description(description).build();
      case "boolean" -> JsonBooleanSchema.builder().description(description).build();
      case "array" -> {
        JsonArraySchema.Builder a = JsonArraySchema.builder().description(description);
        if (schema.get("items") != null) {
          a.items(element(schema.get("items")));
        }
        yield a.build();
      }
      case "object" -> object(schema);
      default -> JsonRawSchema.from(schema.toString());
    };
  }
}
