package dev.hfr.spring.ai;

import dev.hfr.runtime.conversation.ConversationTasks;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.util.ReflectionUtils;

/**
 * Turns the tool callbacks Spring AI makes from a tool bean into HFR's: a {@link MethodToolCallback} whose tool object
 * is a generated {@code _Recovering} proxy — what {@code defaultTools(bean)}, {@code tools(bean)}, {@code
 * ToolCallbacks.from(bean)} and a {@code MethodToolCallbackProvider} build from the starter's bean — becomes the
 * {@link HfrToolCallback} {@link HfrToolCallbacks#from} would build for that method: failures answered with the
 * execution contract, replays marked, the idempotency key hidden from the model. Every other callback (a plain
 * object's, an MCP tool's, one of HFR's already) is kept as it is, wrapped only so that a streamed call binds the
 * stream's task.
 *
 * <p>{@code MethodToolCallback} is final and does not expose the object and method it invokes; they are read from its
 * fields {@code toolObject} and {@code toolMethod} (Spring AI 2.0). If a later Spring AI renames them, callbacks are
 * left as Spring AI built them — the proxy still runs every call through HFR — and a warning says so once.
 */
public final class ProtectedToolCallbacks {

  private static final System.Logger LOG = System.getLogger(ProtectedToolCallbacks.class.getName());
  private static final Field TOOL_OBJECT = field("toolObject");
  private static final Field TOOL_METHOD = field("toolMethod");

  private final ConversationTasks conversations;

  /** Callbacks whose calls, without a task, run in the conversation the tool context names ({@code conversations}'). */
  public ProtectedToolCallbacks(ConversationTasks conversations) {
    this.conversations = Objects.requireNonNull(conversations, "conversations");
  }

  /** {@code request} with its tool callbacks {@linkplain #protect(ToolCallback) protected}; itself if it has none. */
  public ChatClientRequest protect(ChatClientRequest request) {
    if (!(request.prompt().getOptions() instanceof ToolCallingChatOptions options)
        || options.getToolCallbacks() == null || options.getToolCallbacks().isEmpty()) {
      return request;
    }
    List<ToolCallback> given = options.getToolCallbacks();
    List<ToolCallback> protectedCallbacks = new ArrayList<>(given.size());
    boolean changed = false;
    for (ToolCallback callback : given) {
      ToolCallback p = protect(callback);
      changed |= p != callback;
      protectedCallbacks.add(p);
    }
    if (!changed) {
      return request;
    }
    ToolCallingChatOptions rewritten = options.mutate().toolCallbacks(protectedCallbacks).build();
    Prompt prompt = request.prompt().mutate().chatOptions(rewritten).build();
    return request.mutate().prompt(prompt).build();
  }

  /** HFR's callback for a callback that invokes a generated proxy, the callback bound to the stream's task otherwise. */
  public ToolCallback protect(ToolCallback callback) {
    if (callback == null || callback instanceof HfrToolCallback || callback instanceof TaskBoundToolCallback) {
      return callback;
    }
    if (callback instanceof MethodToolCallback && TOOL_OBJECT != null && TOOL_METHOD != null) {
      Object tool = ReflectionUtils.getField(TOOL_OBJECT, callback);
      Method method = (Method) ReflectionUtils.getField(TOOL_METHOD, callback);
      ToolCallback hfr = tool != null && method != null && HfrToolCallbacks.isProxy(tool)
          ? HfrToolCallbacks.callbackOf(tool, method, callback.getToolDefinition(), conversations) : null;
      if (hfr != null) {
        return hfr;
      }
    }
    return new TaskBoundToolCallback(callback);
  }

  private static Field field(String name) {
    Field f = ReflectionUtils.findField(MethodToolCallback.class, name);
    if (f == null) {
      LOG.log(System.Logger.Level.WARNING, "Spring AI's MethodToolCallback has no field " + name + ": tools given as beans"
          + " run through HFR, but failures reach the model as Spring AI's messages and the idempotency key is in the"
          + " schema; give the ChatClient the hfrToolCallbacks provider (docs/SPRING.md)");
      return null;
    }
    try {
      ReflectionUtils.makeAccessible(f);
      return f;
    } catch (RuntimeException inaccessible) {   // InaccessibleObjectException on a module path without the package open
      LOG.log(System.Logger.Level.WARNING, "cannot read Spring AI's MethodToolCallback." + name + " (" + inaccessible
          + "): tools given as beans are not rewritten; open org.springframework.ai.tool.method to dev.hfr.spring.ai");
      return null;
    }
  }
}
