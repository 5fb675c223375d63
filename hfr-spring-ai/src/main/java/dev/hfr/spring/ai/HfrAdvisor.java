package dev.hfr.spring.ai;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.conversation.ConversationTasks;
import io.micrometer.context.ContextSnapshot;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.core.Ordered;
import reactor.core.publisher.Flux;

/**
 * Makes each {@code ChatClient} call an HFR task, with the tools given to it protected: the advisor the starter adds to
 * every {@code ChatClient} built from Boot's {@code ChatClient.Builder} ({@code builder.defaultAdvisors(HfrAdvisor.of(hfr))}
 * without the starter).
 *
 * <p><b>What a task spans.</b> A {@code call()} or {@code stream()} runs — the model's whole tool loop, every round of
 * tool calls and every re-call the model makes — in:
 * <ol>
 *   <li>the task the caller has open ({@code hfr.openTask(...)}), if any: it wins;
 *   <li>else the task of its conversation, when the request names one the way Spring AI's memory advisors read it:
 *       {@link ChatMemory#CONVERSATION_ID} in the advisor parameters ({@code .advisors(a -> a.param(CONVERSATION_ID,
 *       id))}) or in the tool context. The conversation's task ({@link ConversationTasks}: the engine's default, shared
 *       with {@link HfrToolCallbacks}) spans its calls until it is idle for 30 minutes;
 *   <li>else a task of this one request, opened here and closed when the call returns or the stream ends.
 * </ol>
 * Inside the task the model calling a write again with the same arguments is the same write, answered from the ledger.
 *
 * <p><b>Tools.</b> Every tool callback of the request that invokes a generated {@code _Recovering} proxy — the
 * {@code MethodToolCallback}s Spring AI makes from {@code defaultTools(bean)}, {@code tools(bean)} or {@code
 * ToolCallbacks.from(bean)} — is replaced by its {@link HfrToolCallback} ({@link ProtectedToolCallbacks}): failures as
 * the execution contract, replays marked, the idempotency key hidden from the model.
 *
 * <p><b>Streaming.</b> The task is written into the stream's Reactor context (Micrometer context-propagation), and the
 * tools Spring AI runs on its bounded-elastic threads bind it from there.
 *
 * <p>Its order, {@link #DEFAULT_ORDER}, puts it outside Spring AI's memory advisors and tool-calling advisor, so the
 * task spans all they do.
 */
public final class HfrAdvisor implements CallAdvisor, StreamAdvisor {

  /** Before the memory advisors ({@code HIGHEST_PRECEDENCE + 200}) and the tool-calling advisor ({@code + 300}). */
  public static final int DEFAULT_ORDER = Ordered.HIGHEST_PRECEDENCE + 100;

  /**
   * The key of the {@link dev.hfr.runtime.TaskReport} a {@code call()}'s response context carries: what the task it ran
   * in did so far — tool calls, retries, escalations ({@code chat.prompt()...call().chatClientResponse().context()}).
   */
  public static final String TASK_REPORT = "hfr.task-report";

  private final Hfr hfr;
  private final ConversationTasks conversations;
  private final ProtectedToolCallbacks tools;
  private final String tenant;
  private final int order;

  private HfrAdvisor(Builder b) {
    this.hfr = b.hfr;
    this.conversations = b.conversations != null ? b.conversations : ConversationTasks.of(b.hfr);
    this.tools = new ProtectedToolCallbacks(this.conversations);
    this.tenant = b.tenant;
    this.order = b.order;
  }

  /** The advisor on {@code hfr}: the engine's default conversation tasks, tenant {@link Hfr#DEFAULT_TENANT}. */
  public static HfrAdvisor of(Hfr hfr) {
    return builder(hfr).build();
  }

  public static Builder builder(Hfr hfr) {
    return new Builder(hfr);
  }

  @Override
  public String getName() {
    return "HFR";
  }

  @Override
  public int getOrder() {
    return order;
  }

  /** The tools' rewriting, for a tool resolver that hands out callbacks outside a request's options. */
  public ProtectedToolCallbacks tools() {
    return tools;
  }

  @Override
  public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
    ChatClientRequest protectedRequest = tools.protect(request);
    Optional<TaskScope> callers = hfr.currentTask();
    if (callers.isPresent()) {
      return withReport(chain.nextCall(protectedRequest), callers.get());
    }
    Object conversation = conversationId(request);
    if (conversation != null) {
      try (ConversationTasks.Joined joined = conversations.join(conversation)) {
        return withReport(chain.nextCall(protectedRequest), joined.task());
      }
    }
    try (TaskScope task = hfr.openTask(requestTask())) {
      return withReport(chain.nextCall(protectedRequest), task);
    }
  }

  /** The response, its context telling what the task did so far ({@link #TASK_REPORT}). */
  private static ChatClientResponse withReport(ChatClientResponse response, TaskScope task) {
    return response.mutate().context(TASK_REPORT, task.report()).build();
  }

  @Override
  public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
    return Flux.deferContextual(reactorContext -> {
      ChatClientRequest protectedRequest = tools.protect(request);
      if (hfr.currentTask().isPresent()) {
        // the caller's task, bound to the subscribing thread: carried to the tools' threads
        ContextSnapshot callers = TaskInReactorContext.captureCurrent();
        return chain.nextStream(protectedRequest).contextWrite(c -> TaskInReactorContext.write(c, callers));
      }
      if (TaskInReactorContext.carriesTask(reactorContext)) {
        return chain.nextStream(protectedRequest);   // the caller's task, already in the chain's context
      }
      Object conversation = conversationId(request);
      if (conversation != null) {
        ContextSnapshot joined;
        // joined only to capture it: the conversation's task lives on, and its idle time runs from the stream's start
        try (ConversationTasks.Joined j = conversations.join(conversation)) {
          joined = TaskInReactorContext.captureCurrent();
        }
        return chain.nextStream(protectedRequest).contextWrite(c -> TaskInReactorContext.write(c, joined));
      }
      TaskScope task = hfr.newTask(requestTask());
      ContextSnapshot own;
      try (AutoCloseable bound = task.bindCurrentThread()) {
        own = TaskInReactorContext.captureCurrent();
      } catch (Exception e) {
        task.close();
        throw new IllegalStateException("binding the request's task failed", e);
      }
      return chain.nextStream(protectedRequest)
          .contextWrite(c -> TaskInReactorContext.write(c, own))
          .doFinally(signal -> task.close());
    });
  }

  /** {@link ChatMemory#CONVERSATION_ID} from the advisor parameters, else from the tool context; {@code null}: none. */
  static Object conversationId(ChatClientRequest request) {
    Object id = request.context().get(ChatMemory.CONVERSATION_ID);
    if (isBlank(id) && request.prompt().getOptions() instanceof ToolCallingChatOptions options) {
      Map<String, Object> toolContext = options.getToolContext();
      id = toolContext == null ? null : toolContext.get(ChatMemory.CONVERSATION_ID);
    }
    return isBlank(id) ? null : id;
  }

  private static boolean isBlank(Object id) {
    return id == null || (id instanceof String s && s.isBlank());
  }

  /** A task of one request: {@code chat-<start>-<random>}, unique, in the advisor's tenant. */
  private TaskSpec requestTask() {
    String id = "chat-" + Long.toString(System.currentTimeMillis(), 36) + "-"
        + Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
    return TaskSpec.builder(tenant, id).build();
  }

  /** The advisor's settings. */
  public static final class Builder {
    private final Hfr hfr;
    private ConversationTasks conversations;
    private String tenant = Hfr.DEFAULT_TENANT;
    private int order = DEFAULT_ORDER;

    private Builder(Hfr hfr) {
      this.hfr = Objects.requireNonNull(hfr, "hfr");
    }

    /**
     * The conversations' tasks (tenant, idle timeout, listener of ended conversations); by default the engine's
     * ({@link ConversationTasks#of}), which {@link HfrToolCallbacks} use too.
     *
     * @throws IllegalArgumentException if they run on another engine
     */
    public Builder conversations(ConversationTasks conversations) {
      Objects.requireNonNull(conversations, "conversations");
      if (conversations.engine() != hfr) {
        throw new IllegalArgumentException("the conversations' tasks run on another engine than the advisor's");
      }
      this.conversations = conversations;
      return this;
    }

    /** The tenant of a request's own task (a conversation's task has its {@link ConversationTasks}' tenant). */
    public Builder tenant(String tenant) {
      TaskSpec.builder(tenant, "check");   // the task's own check: not blank
      this.tenant = tenant;
      return this;
    }

    /** Where the advisor sits in the chain; keep it before the tool-calling advisor, or the task spans one round. */
    public Builder order(int order) {
      this.order = order;
      return this;
    }

    public HfrAdvisor build() {
      return new HfrAdvisor(this);
    }
  }
}
