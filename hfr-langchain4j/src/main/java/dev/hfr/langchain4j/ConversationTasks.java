package dev.hfr.langchain4j;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.langchain4j.invocation.InvocationContext;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One HFR task per conversation, keyed by LangChain4j's chat memory id — the LangChain4j face of the runtime's
 * {@link dev.hfr.runtime.conversation.ConversationTasks}, which says what a task spans: a conversation's task
 * starts at its first tool call, ends after an idle timeout (30 minutes unless set) or {@link #end}, and its id
 * ({@code conversation-<memory id>-<start>}) is unique to that stretch of the conversation, so a memory id that
 * lives longer (a user id) starts a new task instead of meeting old ledger records. {@link HfrTools#wrap} uses
 * one by default; pass your own to set the tenant, the timeout or a listener of ended conversations. Give the AI
 * service a {@code @MemoryId} parameter (without one LangChain4j uses the one id {@code "default"} for every
 * call, and so would this).
 *
 * <pre>{@code
 * ConversationTasks conversations = ConversationTasks.of(dev.hfr.runtime.conversation.ConversationTasks.builder(hfr)
 *     .tenant("acme").idleTimeout(Duration.ofMinutes(30)).onEnd(ended -> audit(ended.report())).build());
 * Assistant assistant = HfrTools.wrap(AiServices.builder(Assistant.class), conversations, tools)
 *     .chatModel(model).build();
 * assistant.chat(userId, "Order 2 units of SKU-42");
 * }</pre>
 *
 * <p>A call made while the caller's thread has a task of the same engine open runs in that task instead: an
 * explicit {@code hfr.openTask(...)} wins. Thread-safe.
 */
public final class ConversationTasks implements TaskResolver {

  private final dev.hfr.runtime.conversation.ConversationTasks conversations;
  private final boolean keysFromToolCallIds;

  private ConversationTasks(dev.hfr.runtime.conversation.ConversationTasks conversations, boolean keysFromToolCallIds) {
    this.conversations = Objects.requireNonNull(conversations, "conversations");
    this.keysFromToolCallIds = keysFromToolCallIds;
  }

  /** The memory ids of an AI service as conversations of {@code conversations}. */
  public static ConversationTasks of(dev.hfr.runtime.conversation.ConversationTasks conversations) {
    return new ConversationTasks(conversations, false);
  }

  /** Tasks in {@code tenant}, each conversation's id {@code conversation-<memory id>-<start>}, the default idle timeout. */
  public static ConversationTasks of(Hfr hfr, String tenant) {
    return of(dev.hfr.runtime.conversation.ConversationTasks.builder(hfr).tenant(tenant).build());
  }

  /**
   * Tasks with the tenant, criticality, deadline, quality floor and limits of the spec {@code specOfConversation}
   * gives for a memory id; its task id is replaced by the conversation's unique one.
   *
   * @deprecated a fixed task id per memory id met the ledger records of earlier conversations of the same id; use
   *     {@link #of(dev.hfr.runtime.conversation.ConversationTasks)} with {@code Builder.specs}, which is handed the
   *     unique task id
   */
  @Deprecated(since = "0.1.0")
  public static ConversationTasks of(Hfr hfr, Function<Object, TaskSpec> specOfConversation) {
    Objects.requireNonNull(specOfConversation, "specOfConversation");
    return of(dev.hfr.runtime.conversation.ConversationTasks.builder(hfr)
        .specs((id, taskId) -> withTaskId(specOfConversation.apply(id), taskId)).build());
  }

  private static TaskSpec withTaskId(TaskSpec spec, String taskId) {
    TaskSpec.Builder b = TaskSpec.builder(spec.tenant(), taskId);
    if (spec.criticality() != null) {
      b.criticality(spec.criticality());
    }
    if (spec.deadline() != null) {
      b.deadline(spec.deadline());
    }
    if (!Double.isNaN(spec.qualityFloor())) {
      b.qualityFloor(spec.qualityFloor());
    }
    if (spec.limits() != null) {
      b.limits(spec.limits());
    }
    return b.build();
  }

  /** The runtime's conversation tasks behind this resolver (for its {@code endIdle()}, its size). */
  public dev.hfr.runtime.conversation.ConversationTasks conversations() {
    return conversations;
  }

  /**
   * The task of the conversation of {@code context} (started if needed); {@code null} when LangChain4j gives no
   * memory id. {@link HfrToolExecutor} joins the conversation for the length of each call instead.
   */
  @Override
  public TaskScope taskOf(InvocationContext context) {
    Object memoryId = context == null ? null : context.chatMemoryId();
    if (memoryId == null) {
      return null;
    }
    try (dev.hfr.runtime.conversation.ConversationTasks.Joined joined = conversations.join(memoryId)) {
      return joined.task();
    }
  }

  /**
   * Joins the call of {@code context} to its task on this thread until the handle is closed: the thread's own
   * open task of this engine if it has one, else the conversation's. {@code null} without a memory id.
   */
  AutoCloseableTask join(InvocationContext context) {
    Optional<TaskScope> open = conversations.engine().currentTask();
    if (open.isPresent()) {
      return new AutoCloseableTask(open.get(), () -> { });
    }
    Object memoryId = context == null ? null : context.chatMemoryId();
    if (memoryId == null) {
      return null;
    }
    dev.hfr.runtime.conversation.ConversationTasks.Joined joined = conversations.join(memoryId);
    return new AutoCloseableTask(joined.task(), joined::close);
  }

  /** A task joined for one call, and how to leave it. */
  record AutoCloseableTask(TaskScope task, Runnable leave) {}

  @Override
  public boolean keysFromToolCallIds() {
    return keysFromToolCallIds;
  }

  @Override
  public TaskResolver keyedByToolCallIds() {
    return new ConversationTasks(conversations, true);
  }

  /** The task conversation {@code memoryId} runs in now, if it has one that has not ended. */
  public Optional<TaskScope> task(Object memoryId) {
    return conversations.task(memoryId);
  }

  /**
   * Binds the task of conversation {@code memoryId} (started if needed) to the current thread until the handle
   * is closed: the model's calls (their decisions, {@code hfr.currentTask()}) belong to it too, and the
   * conversation is not idle meanwhile.
   */
  public AutoCloseable bind(Object memoryId) {
    return conversations.join(memoryId);
  }

  /** Ends conversation {@code memoryId}'s task now: a later call starts a new task. Returns the ended task, for its report. */
  public Optional<TaskScope> end(Object memoryId) {
    Optional<TaskScope> task = conversations.task(memoryId);
    conversations.end(memoryId);
    return task;
  }
}
