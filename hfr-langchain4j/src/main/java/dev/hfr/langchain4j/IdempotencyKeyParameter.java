package dev.hfr.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hfr.annotations.IdempotencyKey;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model never supplies an idempotency key (DESIGN §7): the {@code @IdempotencyKey} parameter of a tool is
 * removed from the specification the model sees, and whatever the model sends under its name anyway is dropped, so
 * the method receives {@code null} and the generated proxy passes the runtime's ledger key — the same on every
 * attempt of the call, derived from the task, the step and the arguments.
 */
final class IdempotencyKeyParameter {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;

  private IdempotencyKeyParameter(String name) {
    this.name = name;
  }

  /** The key parameter of {@code method} as the specification names it, or {@code null} when it has none. */
  static IdempotencyKeyParameter of(Method method, ToolSpecification specification) {
    Parameter[] parameters = method.getParameters();
    for (int i = 0; i < parameters.length; i++) {
      if (parameters[i].isAnnotationPresent(IdempotencyKey.class)) {
        Map<String, JsonSchemaElement> properties = specification.parameters() == null ? Map.of()
            : specification.parameters().properties();
        // LangChain4j names a property after the parameter (compiled with -parameters) or argN without it.
        String named = properties.containsKey(parameters[i].getName()) ? parameters[i].getName() : "arg" + i;
        return properties.containsKey(named) ? new IdempotencyKeyParameter(named) : null;
      }
    }
    return null;
  }

  /** The name the model would have seen. */
  String name() {
    return name;
  }

  /** {@code specification} without the key: not among the properties, not required. */
  ToolSpecification hideFrom(ToolSpecification specification) {
    JsonObjectSchema schema = specification.parameters();
    Map<String, JsonSchemaElement> properties = new LinkedHashMap<>(schema.properties());
    properties.remove(name);
    List<String> required = schema.required() == null ? null
        : schema.required().stream().filter(r -> !r.equals(name)).toList();
    JsonObjectSchema.Builder without = JsonObjectSchema.builder()
        .description(schema.description())
        .addProperties(properties)
        .additionalProperties(schema.additionalProperties())
        .definitions(schema.definitions());
    if (required != null) {
      without.required(required);
    }
    return specification.toBuilder().parameters(without.build()).build();
  }

  /** {@code executor}, handed requests whose arguments no longer carry a key the model made up. */
  ToolExecutor dropFromArguments(ToolExecutor executor) {
    return new ToolExecutor() {
      @Override
      public String execute(ToolExecutionRequest request, Object memoryId) {
        return executor.execute(withoutKey(request), memoryId);
      }

      @Override
      public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
        return executor.executeWithContext(withoutKey(request), context);
      }
    };
  }

  private ToolExecutionRequest withoutKey(ToolExecutionRequest request) {
    String arguments = request.arguments();
    if (arguments == null || !arguments.contains(name)) {
      return request;
    }
    try {
      if (JSON.readTree(arguments) instanceof ObjectNode object && object.remove(name) != null) {
        return request.toBuilder().arguments(object.toString()).build();
      }
    } catch (JsonProcessingException notJson) {
      // Arguments that are not JSON fail to bind in the executor, which reports them as invalid arguments.
    }
    return request;
  }
}
