package dev.hfr.runtime.conversation;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.time.Clock;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * One HFR task per conversation of an agent, keyed by the id the framework already gives the conversation
 * (LangChain4j's memory id, Spring AI's conversation id). A conversation's tool calls share its budgets, limits,
 * report and ledger keys — so the model calling a write again is recognised as the same write — and two
 * conversations never share a task. Every HFR adapter uses one by default; nothing needs opening by hand.
 *
 * <p><b>What a task spans.</b> A conversation's task starts at its first tool call and ends when nothing ran in
 * it for the idle timeout ({@link #DEFAULT_IDLE_TIMEOUT} unless set) or when {@link #end} is called. Its id is
 * {@code conversation-<id>-<start>}, unique to that stretch of the conversation: an id that lives longer than one
 * conversation (a user id used as the memory id) starts a new task after the idle timeout, and never meets the
 * ledger records of last week's. An ended task is closed and its report handed to the {@link
 * Builder#onEnd listener}.
 *
 * <pre>{@code
 * ConversationTasks conversations = ConversationTasks.builder(hfr)
 *     .tenant("acme")
 *     .idleTimeout(Duration.ofMinutes(30))
 *     .onEnd(ended -> log.info("{} ended: {}", ended.taskId(), ended.report()))
 *     .build();
 * try (AutoCloseable joined = conversations.join(conversationId)) {
 *   orders.createOrder("SKU-42", 2);          // a generated proxy: runs in the conversation's task
 * }
 * }</pre>
 *
 * <p>Idle conversations are ended when a conversation is next joined (at most once per {@link
 * #SWEEP_INTERVAL} of the clock), or by {@link #endIdle()}; a conversation with a call running is never idle.
 * Thread-safe.
 */
public final class ConversationTasks {

  /** How long a conversation may stay without a call before its task ends, unless set. */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(30);

  /** How often, at most, joining a conversation also ends the other idle ones. */
  public static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);

  private final Hfr hfr;
  private final BiFunction<Object, String, TaskSpec> specs;
  private final long idleNanos;
  private final Clock clock;
  private final Consumer<EndedConversation> listener;
  private final ConcurrentHashMap<Object, Conversation> conversations = new ConcurrentHashMap<>();
  private volatile long lastSweep;

  private ConversationTasks(Builder b) {
    this.hfr = b.hfr;
    this.specs = b.specs;
    this.idleNanos = b.idleTimeout.toNanos();
    this.clock = b.clock;
    this.listener = b.listener;
    this.lastSweep = clock.nanoTime();
  }

  /** Starts the settings of an engine's conversation tasks: tenant {@link Hfr#DEFAULT_TENANT}, the default timeout. */
  public static Builder builder(Hfr hfr) {
    return new Builder(hfr);
  }

  /**
   * The engine's default conversation tasks — one per engine, shared by every adapter that is handed no
   * conversation tasks of its own: tenant {@link Hfr#DEFAULT_TENANT}, the default idle timeout, no listener. Kept
   * while anything uses it.
   */
  public static ConversationTasks of(Hfr hfr) {
    Objects.requireNonNull(hfr, "hfr");
    synchronized (DEFAULTS) {
      WeakReference<ConversationTasks> ref = DEFAULTS.get(hfr);
      ConversationTasks tasks = ref == null ? null : ref.get();
      if (tasks == null) {
        tasks = builder(hfr).build();
        DEFAULTS.put(hfr, new WeakReference<>(tasks));
      }
      return tasks;
    }
  }

  /** Each engine's default conversation tasks; weak both ways, so neither an engine nor its tasks are kept here. */
  private static final Map<Hfr, WeakReference<ConversationTasks>> DEFAULTS = new WeakHashMap<>();

  /**
   * Makes the current thread's calls run in conversation {@code conversationId}'s task (started if it has none,
   * or if its last one ended) until the handle is closed; while joined the conversation is never idle.
   *
   * @throws NullPointerException if {@code conversationId} is null
   */
  public Joined join(Object conversationId) {
    Objects.requireNonNull(conversationId, "conversationId");
    long now = clock.nanoTime();
    sweepIfDue(now);
    while (true) {
      Conversation c = conversations.computeIfAbsent(conversationId, this::start);
      Conversation.Entry entry = c.enter(now, idleNanos);
      if (entry == Conversation.Entry.JOINED) {
        return new Joined(c, c.task.bindCurrentThread());
      }
      // Ended (idle, or ended by another thread) between the lookup and the entry: start the next one.
      if (conversations.remove(conversationId, c) && entry == Conversation.Entry.EXPIRED) {
        close(c, EndedConversation.Reason.IDLE);
      }
    }
  }

  /** The task conversation {@code conversationId} runs in now, if it has one that has not ended. */
  public Optional<TaskScope> task(Object conversationId) {
    Conversation c = conversations.get(Objects.requireNonNull(conversationId, "conversationId"));
    return c == null || c.expired(clock.nanoTime(), idleNanos) ? Optional.empty() : Optional.of(c.task);
  }

  /**
   * Ends conversation {@code conversationId}'s task now: it is closed, its listener told, and a later call of the
   * conversation starts a new task. Calls still running in it finish in it.
   *
   * @return the ended task's report, empty when the conversation had no task
   */
  public Optional<TaskReport> end(Object conversationId) {
    Conversation c = conversations.remove(Objects.requireNonNull(conversationId, "conversationId"));
    if (c == null) {
      return Optional.empty();
    }
    c.end();
    return Optional.of(close(c, EndedConversation.Reason.ENDED).report());
  }

  /**
   * Ends every conversation idle for the timeout now.
   *
   * @return how many ended
   */
  public int endIdle() {
    long now = clock.nanoTime();
    lastSweep = now;
    List<Conversation> idle = new ArrayList<>();
    conversations.forEach((id, c) -> {
      if (c.endIfIdle(now, idleNanos) && conversations.remove(id, c)) {
        idle.add(c);
      }
    });
    idle.forEach(c -> close(c, EndedConversation.Reason.IDLE));
    return idle.size();
  }

  /** How many conversations have a task now (idle ones not yet ended included). */
  public int size() {
    return conversations.size();
  }

  /** The engine the tasks run in. */
  public Hfr engine() {
    return hfr;
  }

  private void sweepIfDue(long now) {
    long last = lastSweep;
    if (now - last >= SWEEP_INTERVAL.toNanos()) {
      endIdle();
    }
  }

  private Conversation start(Object conversationId) {
    String taskId = taskIdOf(conversationId, clock.epochMillis());
    TaskSpec spec = specs.apply(conversationId, taskId);
    if (spec == null || !taskId.equals(spec.taskId())) {
      throw new IllegalStateException("the spec of conversation " + conversationId + " must use the task id it was given ("
          + taskId + "), was " + (spec == null ? "null" : spec.taskId()) + ": fix the function passed to ConversationTasks.Builder.specs");
    }
    return new Conversation(conversationId, hfr.newTask(spec));
  }

  /** {@code conversation-<id>-<start>}: the start in base 36 milliseconds and four random base-36 digits. */
  static String taskIdOf(Object conversationId, long epochMillis) {
    int salt = ThreadLocalRandom.current().nextInt(36 * 36 * 36 * 36);
    return "conversation-" + conversationId + "-" + Long.toString(epochMillis, 36) + "-"
        + "0000".substring(Integer.toString(salt, 36).length()) + Integer.toString(salt, 36);
  }

  private EndedConversation close(Conversation c, EndedConversation.Reason reason) {
    c.task.close();
    EndedConversation ended = new EndedConversation(c.id, c.task.spec().taskId(), c.task.report(), reason);
    listener.accept(ended);
    return ended;
  }

  /** A conversation's current task, bound to the current thread until closed. */
  public static final class Joined implements AutoCloseable {
    private final Conversation conversation;
    private final AutoCloseable binding;
    private boolean closed;

    private Joined(Conversation conversation, AutoCloseable binding) {
      this.conversation = conversation;
      this.binding = binding;
    }

    /** The conversation's task. */
    public TaskScope task() {
      return conversation.task;
    }

    /** Unbinds the task from the thread; the conversation's idle time runs from now. */
    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      try {
        binding.close();
      } catch (Exception e) {
        throw new IllegalStateException("unbinding the conversation's task failed", e);
      } finally {
        conversation.exit(conversation.owner.clock.nanoTime());
      }
    }
  }

  /** One conversation's task and whether it is in use; its state changes under its own lock. */
  private final class Conversation {
    enum Entry { JOINED, EXPIRED, ENDED }

    final Object id;
    final TaskScope task;
    final ConversationTasks owner = ConversationTasks.this;
    private int running;
    private long lastUsed;
    private boolean ended;

    Conversation(Object id, TaskScope task) {
      this.id = id;
      this.task = task;
      this.lastUsed = clock.nanoTime();
    }

    synchronized Entry enter(long now, long idle) {
      if (ended) {
        return Entry.ENDED;
      }
      if (running == 0 && now - lastUsed >= idle) {
        ended = true;
        return Entry.EXPIRED;
      }
      running++;
      lastUsed = Math.max(lastUsed, now);
      return Entry.JOINED;
    }

    synchronized void exit(long now) {
      running--;
      lastUsed = Math.max(lastUsed, now);
    }

    synchronized boolean expired(long now, long idle) {
      return ended || (running == 0 && now - lastUsed >= idle);
    }

    synchronized boolean endIfIdle(long now, long idle) {
      if (!ended && running == 0 && now - lastUsed >= idle) {
        ended = true;
        return true;
      }
      return false;
    }

    synchronized void end() {
      ended = true;
    }
  }

  /** The settings of a {@link ConversationTasks}; arguments are checked as they are given. */
  public static final class Builder {
    private final Hfr hfr;
    private BiFunction<Object, String, TaskSpec> specs = (id, taskId) -> TaskSpec.builder(Hfr.DEFAULT_TENANT, taskId).build();
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Clock clock = Clock.system();
    private Consumer<EndedConversation> listener = ended -> { };

    private Builder(Hfr hfr) {
      this.hfr = Objects.requireNonNull(hfr, "hfr");
    }

    /** The tenant of every conversation's task (budgets, breakers and ledger records are per tenant). */
    public Builder tenant(String tenant) {
      TaskSpec.builder(tenant, "check");   // the same check as the task's own: not blank
      this.specs = (id, taskId) -> TaskSpec.builder(tenant, taskId).build();
      return this;
    }

    /**
     * The spec of a conversation's task (tenant, deadline, limits), from the conversation id and the task id it
     * must carry; replaces {@link #tenant}.
     */
    public Builder specs(BiFunction<Object, String, TaskSpec> specs) {
      this.specs = Objects.requireNonNull(specs, "specs");
      return this;
    }

    /** How long a conversation may stay without a call before its task ends; positive. */
    public Builder idleTimeout(Duration idleTimeout) {
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      if (idleTimeout.isNegative() || idleTimeout.isZero()) {
        throw new IllegalArgumentException("idleTimeout must be positive, was " + idleTimeout);
      }
      this.idleTimeout = idleTimeout;
      return this;
    }

    /** The clock idle time is measured on and task ids are stamped from ({@link Clock#system()} unless set). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Told of every conversation whose task ended, with its report; runs on the thread that ended it. */
    public Builder onEnd(Consumer<EndedConversation> listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public ConversationTasks build() {
      return new ConversationTasks(this);
    }
  }
}
