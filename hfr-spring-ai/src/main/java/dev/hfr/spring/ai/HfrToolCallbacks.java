package dev.hfr.spring.ai;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.conversation.ConversationTasks;
import dev.hfr.runtime.conversation.ProxyEngines;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolCallResultConverter;
import org.springframework.ai.tool.metadata.ToolMetadata;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.ai.tool.support.ToolDefinitions;
import org.springframework.ai.tool.support.ToolUtils;

/**
 * Spring AI {@link ToolCallback}s of the {@code @Tool} methods of generated {@code _Recovering} proxies: every call
 * the model makes runs through HFR with the risk, idempotency, verification and ladder the HFR annotations on the
 * same methods declare, and a call HFR could not complete reaches the model as the article's execution contract
 * ({@link HfrToolCallback}) instead of an exception's message.
 *
 * <pre>{@code
 * ChatClient.create(chatModel).prompt("Order two pairs of shoes")
 *     .toolCallbacks(HfrToolCallbacks.from(shopTools))      // shopTools: the starter's bean, a ShopTools_Recovering
 *     .call().content();
 * }</pre>
 *
 * <p>All reflection happens here, once: the {@code @Tool} methods are found on the user's class (the proxy
 * overrides them), the definition is Spring AI's own ({@link ToolDefinitions#from(Method)}) minus the
 * {@code @IdempotencyKey} parameter, and Spring AI's {@link MethodToolCallback} invokes the user's method on the
 * proxy, so virtual dispatch runs the proxy's override and the call goes through the engine.
 */
public final class HfrToolCallbacks {

  private static final String PROXY_SUFFIX = "_Recovering";

  private HfrToolCallbacks() {}

  /**
   * The callbacks of every {@code @Tool} method of {@code recoveringTools}, each conversation a task of the proxies'
   * engine ({@link ConversationTasks#of(Hfr)}: tenant {@code default}, idle timeout 30 minutes), its id read from
   * the call's tool context under {@code ChatMemory.CONVERSATION_ID}
   * ({@link HfrToolCallback#CONVERSATION_ID_FROM_TOOL_CONTEXT}). A call made while its thread has a task open runs
   * in that task; a call without either runs in a task of its own.
   *
   * @throws IllegalArgumentException if an object is not a generated proxy, has no {@code @Tool} method, a
   *     {@code @Tool} method lacks {@code @SideEffect}, or two tools share a name
   */
  public static ToolCallback[] from(Object... recoveringTools) {
    ConversationTasks conversations = null;
    for (Object proxy : recoveringTools) {
      Optional<Hfr> engine = ProxyEngines.of(proxy);
      if (engine.isPresent()) {
        conversations = ConversationTasks.of(engine.get());
        break;
      }
    }
    return from(conversations, HfrToolCallback.CONVERSATION_ID_FROM_TOOL_CONTEXT, recoveringTools);
  }

  /**
   * The callbacks of every {@code @Tool} method of {@code recoveringTools}, each call in the task of the conversation
   * {@code conversationIds} reads from its tool context (its tenant, idle timeout and listener {@code
   * conversations}'); a call made while its thread has a task open runs in that task.
   *
   * @param conversations the conversations' tasks, or {@code null} for none
   * @param conversationIds the conversation id of a call from its {@link ToolContext}, {@code null} when it has none
   * @throws IllegalArgumentException as {@link #from(Object...)}
   */
  public static ToolCallback[] from(ConversationTasks conversations, Function<ToolContext, Object> conversationIds,
      Object... recoveringTools) {
    Objects.requireNonNull(conversationIds, "conversationIds");
    List<ToolCallback> callbacks = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Object proxy : recoveringTools) {
      Class<?> userClass = userClassOf(proxy);
      List<Method> methods = toolMethods(userClass);
      if (methods.isEmpty()) {
        throw new IllegalArgumentException(userClass.getName() + " has no @Tool method");
      }
      for (Method method : methods) {
        SideEffect sideEffect = method.getAnnotation(SideEffect.class);
        if (sideEffect == null) {
          throw new IllegalArgumentException("@Tool method " + userClass.getSimpleName() + "." + method.getName()
              + " has no @SideEffect: declare its risk (R0 for a read) so HFR knows whether it may retry it");
        }
        ToolCallback callback = callbackOf(proxy, userClass, method, sideEffect, conversations, conversationIds);
        if (!names.add(callback.getToolDefinition().name())) {
          throw new IllegalArgumentException("two tools are named '" + callback.getToolDefinition().name()
              + "'; Spring AI needs unique tool names");
        }
        callbacks.add(callback);
      }
    }
    return callbacks.toArray(ToolCallback[]::new);
  }

  /** {@link #from} as a provider, for {@code ChatClient.Builder.defaultToolCallbacks(provider)} or a bean. */
  public static ToolCallbackProvider provider(Object... recoveringTools) {
    return ToolCallbackProvider.from(from(recoveringTools));
  }

  /**
   * Whether {@code toolClassName} (a user's class, not its proxy) has a Spring AI {@code @Tool} method: a proxy of a
   * class without one is a tool for another framework, which {@link #from} would refuse. {@code false} for a class
   * that cannot be loaded.
   */
  public static boolean declaresTools(ClassLoader classLoader, String toolClassName) {
    try {
      return !toolMethods(Class.forName(toolClassName, false, classLoader)).isEmpty();
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static ToolCallback callbackOf(Object proxy, Class<?> userClass, Method method, SideEffect sideEffect,
      ConversationTasks conversations, Function<ToolContext, Object> conversationIds) {
    Prepared prepared = PREPARED.get(userClass).computeIfAbsent(method, m -> prepare(userClass, m, sideEffect));
    return prepared.callback(proxy, conversations, conversationIds);
  }

  /**
   * Whether {@code tool} is a generated {@code _Recovering} proxy (its class extends the user's class and is named after
   * it).
   */
  static boolean isProxy(Object tool) {
    Class<?> type = tool.getClass();
    Class<?> parent = type.getSuperclass();
    return parent != null && type.getName().equals(parent.getName() + PROXY_SUFFIX);
  }

  /**
   * HFR's callback of {@code invoked} — the method of a generated proxy (its override) or of the user's class — on
   * {@code proxy}, as {@link #from} builds it, but under the name and description of {@code asGiven} (the definition
   * Spring AI built, which an application may have named); each call in the conversation the tool context names.
   * {@code null} for a method that is no {@code @Tool} with {@code @SideEffect} of the user's class.
   */
  static ToolCallback callbackOf(Object proxy, Method invoked, ToolDefinition asGiven, ConversationTasks conversations) {
    Class<?> userClass = proxy.getClass().getSuperclass();
    Method userMethod;
    try {
      userMethod = userClass.getDeclaredMethod(invoked.getName(), invoked.getParameterTypes());
    } catch (NoSuchMethodException e) {
      return null;
    }
    SideEffect sideEffect = userMethod.getAnnotation(SideEffect.class);
    if (sideEffect == null || !userMethod.isAnnotationPresent(Tool.class)) {
      return null;
    }
    Prepared prepared = PREPARED.get(userClass).computeIfAbsent(userMethod, m -> prepare(userClass, m, sideEffect));
    if (!prepared.definition().name().equals(asGiven.name())
        || !prepared.definition().description().equals(asGiven.description())) {
      prepared = prepared.named(asGiven.name(), asGiven.description());
    }
    return prepared.callback(proxy, conversations, HfrToolCallback.CONVERSATION_ID_FROM_TOOL_CONTEXT);
  }

  /** Per user class, what its {@code @Tool} methods' callbacks share: computed once, holding no instance. */
  private static final ClassValue<Map<Method, Prepared>> PREPARED = new ClassValue<>() {
    @Override
    protected Map<Method, Prepared> computeValue(Class<?> type) {
      return new ConcurrentHashMap<>();
    }
  };

  /** A {@code @Tool} method's definition without the key, its key property, risk and HFR's name of it. */
  private record Prepared(Method method, ToolDefinition definition, ToolMetadata metadata,
      ToolCallResultConverter converter, String toolName, Risk risk, String key) {

    ToolCallback callback(Object proxy, ConversationTasks conversations, Function<ToolContext, Object> conversationIds) {
      MethodToolCallback invoker = MethodToolCallback.builder()
          .toolDefinition(definition)
          .toolMetadata(metadata)
          .toolMethod(method)
          .toolObject(proxy)
          .toolCallResultConverter(converter)
          .build();
      return new HfrToolCallback(invoker, toolName, risk, key, conversations, conversationIds);
    }

    Prepared named(String name, String description) {
      ToolDefinition renamed = ToolDefinition.builder().name(name).description(description)
          .inputSchema(definition.inputSchema()).build();
      return new Prepared(method, renamed, metadata, converter, toolName, risk, key);
    }
  }

  private static Prepared prepare(Class<?> userClass, Method method, SideEffect sideEffect) {
    ToolDefinition definition = ToolDefinitions.from(method);
    String key = keyParameterName(method);
    if (key != null) {
      definition = ToolDefinition.builder()
          .name(definition.name())
          .description(definition.description())
          .inputSchema(ToolArguments.withoutProperty(definition.inputSchema(), key))
          .build();
    }
    return new Prepared(method, definition, ToolMetadata.from(method), ToolUtils.getToolCallResultConverter(method),
        userClass.getSimpleName() + "." + method.getName(), sideEffect.value(), key);
  }

  /** The property name Spring AI gives the {@code @IdempotencyKey} parameter, or {@code null}. */
  private static String keyParameterName(Method method) {
    Parameter[] parameters = method.getParameters();
    for (Parameter p : parameters) {
      if (p.isAnnotationPresent(IdempotencyKey.class)) {
        return p.getName();
      }
    }
    return null;
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
        ? " carries HFR annotations but is not its generated proxy: pass the starter's bean or "
            + type.getSimpleName() + PROXY_SUFFIX + ".create(hfr, ...) so each call runs through HFR"
        : " is not HFR-protected: annotate its @Tool methods (@SideEffect, ...) and pass its generated "
            + type.getSimpleName() + PROXY_SUFFIX + ", or give it to Spring AI directly to leave it unprotected"));
  }

  private static List<Method> toolMethods(Class<?> type) {
    List<Method> methods = new ArrayList<>();
    for (Method m : type.getDeclaredMethods()) {
      if (m.isAnnotationPresent(Tool.class) && !m.isSynthetic() && !Modifier.isStatic(m.getModifiers())) {
        methods.add(m);
      }
    }
    methods.sort(java.util.Comparator.comparing(Method::getName));
    return methods;
  }
}
