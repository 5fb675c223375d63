package dev.hfr.langchain4j;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.langchain4j.invocation.InvocationContext;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One HFR task per conversation, keyed by LangChain4j's chat memory id: each conversation's tool calls
 * share its budgets, limits and report, and conversations running at the same time never share a task.
 * Give the AI service a {@code @MemoryId} parameter (without one LangChain4j uses the one id
 * {@code "default"} for every call, and so would this).
 *
 * <pre>{@code
 * ConversationTasks conversations = ConversationTasks.of(hfr, "acme");
 * Assistant assistant = HfrTools.wrap(AiServices.builder(Assistant.class), conversations, tools)
 *     .chatModel(model).build();
 *
 * try (AutoCloseable bound = conversations.bind(userId)) {   // optional: model decisions see the task too
 *   assistant.chat(userId, "Order 2 units of SKU-42");
 * }
 * TaskReport report = conversations.task(userId).orElseThrow().report();
 * conversations.end(userId);                                  // forget it when the conversation is over
 * }</pre>
 *
 * <p>Tasks are created on a conversation's first tool call (or {@link #bind}) with {@link Hfr#newTask},
 * bound to no thread: each call binds its conversation's task while it runs. Thread-safe.
 */
public final class ConversationTasks implements TaskResolver {

  private final Hfr hfr;
  private final Function<Object, TaskSpec> specOfConversation;
  private final ConcurrentHashMap<Object, TaskScope> tasks = new ConcurrentHashMap<>();

  private ConversationTasks(Hfr hfr, Function<Object, TaskSpec> specOfConversation) {
    this.hfr = Objects.requireNonNull(hfr, "hfr");
    this.specOfConversation = Objects.requireNonNull(specOfConversation, "specOfConversation");
  }

  /** Tasks in {@code tenant} with the id {@code conversation-<memory id>} and the tenant's configured limits. */
  public static ConversationTasks of(Hfr hfr, String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    return new ConversationTasks(hfr, memoryId -> TaskSpec.builder(tenant, "conversation-" + memoryId).build());
  }

  /** Tasks made from the spec {@code specOfConversation} gives for a memory id (its tenant, limits, deadline). */
  public static ConversationTasks of(Hfr hfr, Function<Object, TaskSpec> specOfConversation) {
    return new ConversationTasks(hfr, specOfConversation);
  }

  /** The task of the conversation of {@code context}; {@code null} when LangChain4j gives no memory id. */
  @Override
  public TaskScope taskOf(InvocationContext context) {
    Object memoryId = context == null ? null : context.chatMemoryId();
    return memoryId == null ? null : task(memoryId, true);
  }

  /** The task of conversation {@code memoryId}, if it has one. */
  public Optional<TaskScope> task(Object memoryId) {
    return Optional.ofNullable(task(memoryId, false));
  }

  /**
   * Binds the task of conversation {@code memoryId} (created if needed) to the current thread until the
   * handle is closed: the model's calls (their decisions, {@code hfr.currentTask()}) and any work handed on
   * with {@code TaskScope.wrap} belong to it too.
   */
  public AutoCloseable bind(Object memoryId) {
    return task(memoryId, true).bindCurrentThread();
  }

  /** Forgets conversation {@code memoryId}: a later call starts a new task. Returns its task, for its report. */
  public Optional<TaskScope> end(Object memoryId) {
    return Optional.ofNullable(tasks.remove(Objects.requireNonNull(memoryId, "memoryId")));
  }

  private TaskScope task(Object memoryId, boolean create) {
    Objects.requireNonNull(memoryId, "memoryId");
    return create ? tasks.computeIfAbsent(memoryId, id -> hfr.newTask(specOfConversation.apply(id))) : tasks.get(memoryId);
  }
}
