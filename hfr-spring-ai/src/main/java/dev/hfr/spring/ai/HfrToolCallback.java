package dev.hfr.spring.ai;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.StepScope;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.conversation.ConversationTasks;
import dev.hfr.runtime.conversation.ModelAnswers;
import io.micrometer.context.ContextSnapshot;
import java.util.Objects;
import java.util.function.Function;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * One tool as the model calls it: Spring AI's callback of the proxy's method, with three changes. A call runs in the
 * task open on its thread, else the task of the streamed {@code ChatClient} call it belongs to ({@link HfrAdvisor}
 * writes it into the stream's Reactor context), else its conversation's task (the conversation id its {@link
 * ToolContext} carries, see {@link ConversationTasks}), so the model calling a write again is the same write, answered
 * from the ledger. A failure HFR could
 * not recover (failed, escalated) is answered with the article's execution contract — status, error type, fault,
 * retryable, side effect, artifact references, verification required — and {@link ModelAnswers}' advice ({@code
 * call_again}, {@code message}), so the model learns that an order of unknown outcome must not simply be placed
 * again, where Spring AI would hand it the exception's message. And an idempotency key the model sends despite the
 * schema is dropped: the proxy then passes the ledger key.
 */
public final class HfrToolCallback implements ToolCallback {

  /**
   * The {@link ToolContext} entry holding a stable id the caller binds to the tool calls of a conversation turn
   * ({@code chatClient.prompt().toolContext(Map.of(HfrToolCallback.STEP_ID, turnId))}): the writes of that turn are
   * then keyed by this id, the tool and the arguments instead of by how many equal writes the task made before, so a
   * replay of the turn — or the model calling the same write again in it — gets the same idempotency key. Spring AI
   * 2.0 does not hand a callback the model's tool-call id; where a conversation has one, bind it here.
   */
  public static final String STEP_ID = "hfr.step-id";

  /**
   * The conversation id a call's {@link ToolContext} carries by default: Spring AI's own key, {@value
   * ChatMemory#CONVERSATION_ID} ({@code chatClient.prompt().toolContext(Map.of(ChatMemory.CONVERSATION_ID, id))}).
   */
  public static final Function<ToolContext, Object> CONVERSATION_ID_FROM_TOOL_CONTEXT =
      context -> context == null ? null : context.getContext().get(ChatMemory.CONVERSATION_ID);

  private final ToolCallback delegate;
  private final String toolName;
  private final Risk risk;
  private final String keyProperty;
  private final ConversationTasks conversations;
  private final Function<ToolContext, Object> conversationIds;

  /**
   * A callback whose calls run in the task open on the calling thread, if any, else in a task of their own.
   *
   * @param delegate Spring AI's callback, invoking the proxy
   * @param toolName HFR's name of the tool, {@code SimpleClass.method}
   * @param keyProperty the argument the model must not supply, or {@code null}
   */
  public HfrToolCallback(ToolCallback delegate, String toolName, Risk risk, String keyProperty) {
    this(delegate, toolName, risk, keyProperty, null, CONVERSATION_ID_FROM_TOOL_CONTEXT);
  }

  /**
   * A callback whose calls run in their conversation's task: the task open on the calling thread if there is one,
   * else the task of the conversation {@code conversationIds} reads from the call's {@link ToolContext}, else a
   * task of their own.
   *
   * @param delegate Spring AI's callback, invoking the proxy
   * @param toolName HFR's name of the tool, {@code SimpleClass.method}
   * @param keyProperty the argument the model must not supply, or {@code null}
   * @param conversations the conversations' tasks, or {@code null} for none
   * @param conversationIds the conversation id of a call from its tool context ({@code null}: none)
   */
  public HfrToolCallback(ToolCallback delegate, String toolName, Risk risk, String keyProperty,
      ConversationTasks conversations, Function<ToolContext, Object> conversationIds) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.toolName = Objects.requireNonNull(toolName, "toolName");
    this.risk = Objects.requireNonNull(risk, "risk");
    this.keyProperty = keyProperty;
    this.conversations = conversations;
    this.conversationIds = Objects.requireNonNull(conversationIds, "conversationIds");
  }

  @Override
  public ToolDefinition getToolDefinition() {
    return delegate.getToolDefinition();
  }

  @Override
  public ToolMetadata getToolMetadata() {
    return delegate.getToolMetadata();
  }

  /** HFR's name of the tool ({@code SimpleClass.method}) and its risk, for logs and tests. */
  @Override
  public String toString() {
    return "HfrToolCallback[" + toolName + ", " + risk + "]";
  }

  @Override
  public String call(String toolInput) {
    return call(toolInput, null);
  }

  @Override
  public String call(String toolInput, ToolContext toolContext) {
    String input = keyProperty == null ? toolInput : ToolArguments.withoutArgument(toolInput, keyProperty);
    String stepId = toolContext != null && toolContext.getContext().get(STEP_ID) instanceof String id && !id.isBlank() ? id : null;
    // a streamed ChatClient call runs its tools on Reactor's threads: its task comes with the Reactor context
    ContextSnapshot.Scope streamTask = conversations == null || conversations.engine().currentTask().isEmpty()
        ? TaskInReactorContext.bindFromToolCall() : null;
    ConversationTasks.Joined conversation = joinConversation(toolContext);
    StepScope step = stepId == null ? null : StepScope.open(stepId);
    TaskScope task = conversations == null ? null : conversations.engine().currentTask().orElse(null);
    ToolOutcome before = task == null ? null : task.lastOutcome();
    try {
      String result = toolContext == null ? delegate.call(input) : delegate.call(input, toolContext);
      ToolOutcome after = task == null ? null : task.lastOutcome();
      // The model called a write its conversation already made: it reads the recorded result, marked as a replay.
      return after != before && ModelAnswers.isReplay(after) && toolName.equals(after.tool())
          ? ModelAnswers.renderReplay(after, result) : result;
    } catch (RuntimeException e) {
      ToolCallException hfr = hfrFailure(e);
      if (hfr == null) {
        throw e;
      }
      return ModelAnswers.render(hfr.outcome());
    } finally {
      if (step != null) {
        step.close();
      }
      if (conversation != null) {
        conversation.close();
      }
      if (streamTask != null) {
        streamTask.close();
      }
    }
  }

  /** The conversation's task joined for this call; {@code null} when a task is already open here, or there is no id. */
  private ConversationTasks.Joined joinConversation(ToolContext toolContext) {
    if (conversations == null || conversations.engine().currentTask().isPresent()) {
      return null;
    }
    Object id = conversationIds.apply(toolContext);
    return id == null || (id instanceof String s && s.isBlank()) ? null : conversations.join(id);
  }

  private static ToolCallException hfrFailure(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof ToolCallException e) {
        return e;
      }
    }
    return null;
  }
}
