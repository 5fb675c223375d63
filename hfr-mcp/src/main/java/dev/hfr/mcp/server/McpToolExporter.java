package dev.hfr.mcp.server;

import com.fasterxml.jackson.databind.JavaType;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.mcp.McpMetaKeys;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.registry.ToolRegistry;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Exposes annotated HFR tool classes as MCP tools: one tool per method of the generated registry, called
 * through the class's {@code _Recovering} proxy, so every call runs through the engine.
 *
 * <pre>{@code
 * Hfr hfr = Hfr.builder().build();
 * List<SyncToolSpecification> tools = McpToolExporter.builder(hfr)
 *     .tools(IssueTools_Recovering.create(hfr))
 *     .build()
 *     .specifications();
 * McpServer.sync(transportProvider).tools(tools).build();
 * }</pre>
 *
 * <ul>
 *   <li><b>Hints</b> from the registry's risk: R0 → {@code readOnlyHint}; R1 → {@code idempotentHint},
 *       not destructive; R2 → not destructive; R3 → {@code destructiveHint}.
 *   <li><b>Input schema</b> from the method's parameters, without the {@code @IdempotencyKey} one: its value
 *       comes from the request's {@code _meta} ({@value McpMetaKeys#IDEMPOTENCY_KEY}) or HFR derives it.
 *   <li><b>Result</b>: structured content {@code {"result": ..., "execution": {contract}}} — the method's
 *       return value and the article's execution contract; a call HFR could not complete answers
 *       {@code isError: true} with the contract, never a stack trace.
 *   <li><b>Task</b>: each call runs in a task of its own, named by the request's
 *       {@value McpMetaKeys#TASK_ID} / {@value McpMetaKeys#TENANT} when given.
 * </ul>
 *
 * Methods are found once, when the exporter is built; a call binds its JSON arguments with Jackson and
 * invokes the proxy method.
 */
public final class McpToolExporter {

  private final Hfr hfr;
  private final List<McpServerFeatures.SyncToolSpecification> specifications;
  private final AtomicLong calls = new AtomicLong();

  private McpToolExporter(Hfr hfr, List<Binding> bindings) {
    this.hfr = hfr;
    List<McpServerFeatures.SyncToolSpecification> specs = new ArrayList<>();
    for (Binding b : bindings) {
      specs.add(McpServerFeatures.SyncToolSpecification.builder()
          .tool(b.tool)
          .callHandler((exchange, request) -> call(b, exchange, request))
          .build());
    }
    this.specifications = List.copyOf(specs);
  }

  public static Builder builder(Hfr hfr) {
    return new Builder(hfr);
  }

  /** The tool specifications to give the SDK's server builder. */
  public List<McpServerFeatures.SyncToolSpecification> specifications() {
    return specifications;
  }

  /** The MCP hints of a risk, as DESIGN §7 maps them. */
  public static McpSchema.ToolAnnotations hints(Risk risk, String title) {
    return switch (risk) {
      case R0 -> new McpSchema.ToolAnnotations(title, true, false, true, null, null);
      case R1 -> new McpSchema.ToolAnnotations(title, false, false, true, null, null);
      case R2 -> new McpSchema.ToolAnnotations(title, false, false, false, null, null);
      case R3 -> new McpSchema.ToolAnnotations(title, false, true, false, null, null);
    };
  }

  /** One exported method: the MCP tool, the proxy method and how its parameters bind. */
  private record Binding(McpSchema.Tool tool, ToolDescriptor descriptor, Object proxy, Method method,
      List<String> names, List<JavaType> types) {}

  private McpSchema.CallToolResult call(Binding b, McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    Map<String, Object> meta = request.meta() == null ? Map.of() : request.meta();
    Object[] args;
    try {
      args = bind(b, request.arguments() == null ? Map.of() : request.arguments(), meta);
    } catch (IllegalArgumentException e) {
      // nothing ran: a contract fault the caller can fix
      return error(ExecutionContract.unmanaged(b.descriptor.name(), b.descriptor.risk() != Risk.R0,
          "invalid_arguments", Fault.T5, false), "invalid arguments for " + b.tool.name() + ": " + e.getMessage());
    }
    String tenant = text(meta.get(McpMetaKeys.TENANT), Hfr.DEFAULT_TENANT);
    String taskId = text(meta.get(McpMetaKeys.TASK_ID),
        "mcp-" + (exchange == null ? "local" : exchange.sessionId()) + "-" + calls.incrementAndGet());
    TaskScope task = hfr.openTask(TaskSpec.builder(tenant, taskId).build());
    try {
      Object result = b.method.invoke(b.proxy, args);
      ToolOutcome outcome = task.lastOutcome();
      Map<String, Object> contract = outcome != null ? ExecutionContract.of(outcome) : Map.of("status", "success");
      Map<String, Object> structured = new LinkedHashMap<>();
      if (result != null) {
        structured.put("result", ExecutionContract.JSON.convertValue(result, Object.class));
      }
      structured.put("execution", contract);
      return McpSchema.CallToolResult.builder()
          .structuredContent(structured)
          .addTextContent(json(structured))
          .build();
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ToolCallException tce) {
        return error(ExecutionContract.of(tce.outcome()), b.tool.name() + " " + tce.outcome().status().name()
            .toLowerCase(java.util.Locale.ROOT) + ": " + tce.outcome().reason());
      }
      // HFR did not handle it (mode OFF): a write that may have run is reported as possibly committed
      return error(ExecutionContract.unmanaged(b.descriptor.name(), b.descriptor.risk() != Risk.R0,
          "unhandled_failure", Fault.UNCLASSIFIED, true), b.tool.name() + " failed");
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(b.method + " is not accessible", e);
    } finally {
      task.close();
    }
  }

  private static Object[] bind(Binding b, Map<String, Object> arguments, Map<String, Object> meta) {
    Object[] args = new Object[b.names.size()];
    int keyIndex = b.descriptor.idempotencyKeyParameter();
    for (int i = 0; i < args.length; i++) {
      if (i == keyIndex) {
        Object key = meta.get(McpMetaKeys.IDEMPOTENCY_KEY);
        args[i] = key instanceof String s && !s.isBlank() ? s : null;
        continue;
      }
      Object value = arguments.get(b.names.get(i));
      JavaType type = b.types.get(i);
      if (value == null && type.isPrimitive()) {
        throw new IllegalArgumentException("`" + b.names.get(i) + "` is required");
      }
      args[i] = value == null && type.getRawClass() == java.util.Optional.class ? java.util.Optional.empty()
          : ExecutionContract.JSON.convertValue(value, type);
    }
    return args;
  }

  private static McpSchema.CallToolResult error(Map<String, Object> contract, String text) {
    return McpSchema.CallToolResult.builder()
        .isError(true)
        .structuredContent(Map.of("execution", contract))
        .addTextContent(text + " " + json(contract))
        .build();
  }

  private static String json(Object value) {
    try {
      return ExecutionContract.JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a tool result that Jackson cannot write: " + e.getOriginalMessage(), e);
    }
  }

  private static String text(Object value, String otherwise) {
    return value instanceof String s && !s.isBlank() ? s : otherwise;
  }

  /** Collects the proxies whose tools are exported. */
  public static final class Builder {
    private final Hfr hfr;
    private ToolRegistry registry;
    private final List<Object> proxies = new ArrayList<>();

    private Builder(Hfr hfr) {
      this.hfr = Objects.requireNonNull(hfr, "hfr");
    }

    /** The registry the descriptors come from; by default every catalog on the class path. */
    public Builder registry(ToolRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * Exports the tools of a generated {@code Foo_Recovering} proxy (an instance built with this
     * builder's {@link Hfr}), one MCP tool per registered method of {@code Foo}, named after the method.
     */
    public Builder tools(Object recoveringProxy) {
      Objects.requireNonNull(recoveringProxy, "recoveringProxy");
      if (!recoveringProxy.getClass().getSimpleName().endsWith("_Recovering")) {
        throw new IllegalArgumentException("tools(...) takes a generated Foo_Recovering proxy, so that every call runs"
            + " through HFR; " + recoveringProxy.getClass().getName() + " is not one (use Foo_Recovering.create(hfr, ...))");
      }
      proxies.add(recoveringProxy);
      return this;
    }

    /**
     * @throws IllegalStateException when a proxy's class has no registered tool, or two exported tools
     *     would have the same name
     */
    public McpToolExporter build() {
      ToolRegistry r = registry != null ? registry : ToolRegistry.load();
      List<Binding> bindings = new ArrayList<>();
      Set<String> names = new HashSet<>();
      for (Object proxy : proxies) {
        Class<?> toolClass = proxy.getClass().getSuperclass();
        List<ToolDescriptor> descriptors = r.tools().stream()
            .filter(d -> d.toolClass().equals(toolClass.getName())).toList();
        if (descriptors.isEmpty()) {
          throw new IllegalStateException("no tool of " + toolClass.getName() + " is registered: is hfr-processor on"
              + " the annotation processor path of the module that compiles it?");
        }
        for (ToolDescriptor d : descriptors) {
          if (!names.add(d.method())) {
            throw new IllegalStateException("two exported tools are named " + d.method() + " (" + d.name()
                + "); export their classes from two servers or rename one method");
          }
          bindings.add(binding(d, proxy, method(toolClass, d)));
        }
      }
      return new McpToolExporter(hfr, bindings);
    }

    private static Method method(Class<?> toolClass, ToolDescriptor d) {
      for (Method m : toolClass.getMethods()) {
        if (m.getName().equals(d.method()) && m.getParameterCount() == d.parameterNames().size()
            && !Modifier.isStatic(m.getModifiers())) {
          return m;
        }
      }
      throw new IllegalStateException(toolClass.getName() + " has no public method " + d.method() + " with "
          + d.parameterNames().size() + " parameters, though its registry lists one: recompile it");
    }

    private static Binding binding(ToolDescriptor d, Object proxy, Method m) {
      Map<String, Type> inputs = new LinkedHashMap<>();
      List<JavaType> types = new ArrayList<>();
      Type[] generic = m.getGenericParameterTypes();
      for (int i = 0; i < generic.length; i++) {
        types.add(ExecutionContract.JSON.getTypeFactory().constructType(generic[i]));
        if (i != d.idempotencyKeyParameter()) {
          inputs.put(d.parameterNames().get(i), generic[i]);
        }
      }
      Map<String, Object> output = new LinkedHashMap<>();
      output.put("type", "object");
      Map<String, Object> props = new LinkedHashMap<>();
      if (m.getReturnType() != void.class) {
        props.put("result", JsonSchemas.of(m.getGenericReturnType()));
      }
      props.put("execution", Map.of("type", "object"));
      output.put("properties", props);
      output.put("required", List.of("execution"));
      McpSchema.Tool tool = McpSchema.Tool.builder(d.method(), JsonSchemas.object(inputs))
          .description(d.name() + " (" + d.risk() + ", reversible: " + d.reversible() + ")")
          .outputSchema(output)
          .annotations(hints(d.risk(), null))
          .build();
      return new Binding(tool, d, proxy, m, d.parameterNames(), types);
    }
  }
}
