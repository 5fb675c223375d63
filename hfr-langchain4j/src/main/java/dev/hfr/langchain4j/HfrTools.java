package dev.hfr.langchain4j;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.conversation.ProxyEngines;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.AiServiceTool;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderResult;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Gives LangChain4j the {@code @Tool} methods of HFR-protected tool objects — the generated
 * {@code Foo_Recovering} proxies — so every tool call of an AI service runs through HFR and ends in the
 * structured tool execution contract:
 *
 * <pre>{@code
 * ShopTools tools = ShopTools_Recovering.create(hfr, shopClient);
 * Agent agent = HfrTools.wrap(AiServices.builder(Agent.class), tools)
 *     .chatModel(model)
 *     .build();
 * }</pre>
 *
 * <p>Each conversation (chat memory id) is a task by default: its budgets, limits, report and ledger keys are its
 * own, so the model calling a write again in it is the same write, answered from the ledger instead of sent twice
 * (see {@link ConversationTasks} for what a task spans). Pass a {@link TaskResolver} to choose the tenant, the idle
 * timeout or another task: {@code HfrTools.wrap(builder, ConversationTasks.of(hfr, "acme"), tools)}.
 *
 * <p>All reflection happens here, once, when the tools are registered: the {@code @Tool} methods are
 * found on the user's class (the proxy overrides them), the specification is LangChain4j's own
 * ({@link ToolSpecifications#toolSpecificationFrom(Method)}), and the risk is read from
 * {@code @SideEffect}. Per call, LangChain4j binds the arguments and invokes the proxy method, which runs
 * through the engine.
 */
public final class HfrTools {

  private static final String PROXY_SUFFIX = "_Recovering";

  private HfrTools() {}

  /**
   * Registers the tools of {@code recoveringTools} on {@code builder} and returns it; each conversation (chat
   * memory id) is a task of the proxies' engine ({@link #conversationTasks}).
   */
  public static <T> AiServices<T> wrap(AiServices<T> builder, Object... recoveringTools) {
    return builder.tools(aiServiceTools(recoveringTools));
  }

  /**
   * Registers the tools of {@code recoveringTools} on {@code builder}; a result from a degradation rung of
   * a call in the task {@code currentTask} supplies reaches the model marked as degraded.
   */
  public static <T> AiServices<T> wrap(AiServices<T> builder, Supplier<TaskScope> currentTask, Object... recoveringTools) {
    return builder.tools(aiServiceTools(currentTask, recoveringTools));
  }

  /**
   * Registers the tools of {@code recoveringTools} on {@code builder}; each call runs in the task {@code
   * tasks} resolves for it (with {@link ConversationTasks}: its conversation's).
   */
  public static <T> AiServices<T> wrap(AiServices<T> builder, TaskResolver tasks, Object... recoveringTools) {
    return builder.tools(aiServiceTools(tasks, recoveringTools));
  }

  /** The tools of {@code recoveringTools} as a static {@link ToolProvider}, each conversation a task ({@link #conversationTasks}). */
  public static ToolProvider toolProvider(Object... recoveringTools) {
    return toolProvider(conversationTasks(recoveringTools), recoveringTools);
  }

  /** The tools of {@code recoveringTools} as a static {@link ToolProvider}, marking degraded results. */
  public static ToolProvider toolProvider(Supplier<TaskScope> currentTask, Object... recoveringTools) {
    ToolProviderResult result = ToolProviderResult.builder().addAll(aiServiceTools(currentTask, recoveringTools)).build();
    return request -> result;
  }

  /** The tools of {@code recoveringTools} as a static {@link ToolProvider}, each call in the task {@code tasks} resolves. */
  public static ToolProvider toolProvider(TaskResolver tasks, Object... recoveringTools) {
    ToolProviderResult result = ToolProviderResult.builder().addAll(aiServiceTools(tasks, recoveringTools)).build();
    return request -> result;
  }

  /** The tools of {@code recoveringTools}, each conversation a task ({@link #conversationTasks}). */
  public static List<AiServiceTool> aiServiceTools(Object... recoveringTools) {
    return aiServiceTools(conversationTasks(recoveringTools), recoveringTools);
  }

  /**
   * The default task of a call: its conversation's ({@link ConversationTasks} of the proxies' engine, tenant {@code
   * default}, idle timeout 30 minutes), or the task open on the calling thread when there is one. When the proxies'
   * engine cannot be read (another {@code RecoveryEngine}, a module that does not open the proxies' package), the
   * thread's task only: pass a {@link ConversationTasks} then.
   */
  static TaskResolver conversationTasks(Object... recoveringTools) {
    for (Object proxy : recoveringTools) {
      Optional<Hfr> engine = ProxyEngines.of(proxy);
      if (engine.isPresent()) {
        return ConversationTasks.of(dev.hfr.runtime.conversation.ConversationTasks.of(engine.get()));
      }
    }
    return context -> null;
  }

  /**
   * The tools of {@code recoveringTools}, each executed through an {@link HfrToolExecutor}.
   *
   * @param currentTask the caller's open task, or a supplier answering {@code null} when there is none
   *
   * @throws IllegalArgumentException if an object is not a generated {@code _Recovering} proxy, or has
   *     no {@code @Tool} method, or a {@code @Tool} method lacks {@code @SideEffect}
   */
  public static List<AiServiceTool> aiServiceTools(Supplier<TaskScope> currentTask, Object... recoveringTools) {
    java.util.Objects.requireNonNull(currentTask, "currentTask");
    return aiServiceTools((TaskResolver) context -> currentTask.get(), recoveringTools);
  }

  /**
   * The tools of {@code recoveringTools}, each executed through an {@link HfrToolExecutor} in the task
   * {@code tasks} resolves for the call.
   *
   * @throws IllegalArgumentException if an object is not a generated {@code _Recovering} proxy, or has
   *     no {@code @Tool} method, or a {@code @Tool} method lacks {@code @SideEffect}
   */
  public static List<AiServiceTool> aiServiceTools(TaskResolver tasks, Object... recoveringTools) {
    java.util.Objects.requireNonNull(tasks, "tasks");
    List<AiServiceTool> tools = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Object object : recoveringTools) {
      Class<?> userClass = userClassOf(object);
      for (Method method : toolMethods(userClass)) {
        SideEffect sideEffect = method.getAnnotation(SideEffect.class);
        if (sideEffect == null) {
          throw new IllegalArgumentException("@Tool method " + userClass.getSimpleName() + "." + method.getName()
              + " has no @SideEffect: declare its risk (R0 for a read) so HFR knows whether it may retry it");
        }
        AiServiceTool tool = toolOf(object, userClass, method, sideEffect.value(), tasks);
        if (!names.add(tool.name())) {
          throw new IllegalArgumentException("two tools are named '" + tool.name() + "'; LangChain4j needs unique tool names");
        }
        tools.add(tool);
      }
    }
    return tools;
  }

  private static AiServiceTool toolOf(Object proxy, Class<?> userClass, Method method, Risk risk,
      TaskResolver tasks) {
    // The executor invokes the user's method on the proxy: virtual dispatch runs the proxy's override.
    DefaultToolExecutor invoker = DefaultToolExecutor.builder()
        .object(proxy)
        .originalMethod(method)
        .methodToInvoke(method)
        .wrapToolArgumentsExceptions(true)
        .propagateToolExecutionExceptions(true)
        .build();
    ToolSpecification specification = ToolSpecifications.toolSpecificationFrom(method);
    ToolExecutor bound = invoker;
    IdempotencyKeyParameter key = IdempotencyKeyParameter.of(method, specification);
    if (key != null) {
      specification = key.hideFrom(specification);
      bound = key.dropFromArguments(invoker);
    }
    return AiServiceTool.builder()
        .toolSpecification(specification)
        .toolExecutor(new HfrToolExecutor(bound, userClass.getSimpleName() + "." + method.getName(), risk, tasks))
        .returnBehavior(method.getAnnotation(Tool.class).returnBehavior())
        .build();
  }

  /** The class the user wrote: the superclass of a generated proxy. */
  private static Class<?> userClassOf(Object object) {
    if (object == null) {
      throw new IllegalArgumentException("a tool object is null");
    }
    if (object instanceof Class<?> c) {
      throw new IllegalArgumentException("pass a tool object, not the class " + c.getName());
    }
    Class<?> type = object.getClass();
    Class<?> parent = type.getSuperclass();
    if (parent != null && type.getName().equals(parent.getName() + PROXY_SUFFIX)) {
      return parent;
    }
    boolean annotated = toolMethods(type).stream().anyMatch(m -> m.isAnnotationPresent(SideEffect.class));
    throw new IllegalArgumentException(type.getName() + (annotated
        ? " carries HFR annotations but is not its generated proxy: pass " + type.getSimpleName() + PROXY_SUFFIX
            + ".create(hfr, ...) so each call runs through HFR"
        : " is not HFR-protected: annotate its @Tool methods (@SideEffect, ...) and pass its generated "
            + type.getSimpleName() + PROXY_SUFFIX + ", or register it with AiServices.tools(...) to leave it unprotected"));
  }

  private static List<Method> toolMethods(Class<?> type) {
    List<Method> methods = new ArrayList<>();
    for (Method m : type.getDeclaredMethods()) {
      if (m.isAnnotationPresent(Tool.class) && !m.isSynthetic() && !Modifier.isStatic(m.getModifiers())) {
        methods.add(m);
      }
    }
    if (methods.isEmpty()) {
      throw new IllegalArgumentException(type.getName() + " declares no @Tool method");
    }
    methods.sort(java.util.Comparator.comparing(Method::getName));
    return methods;
  }
}
