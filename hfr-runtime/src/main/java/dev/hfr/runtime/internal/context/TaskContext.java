package dev.hfr.runtime.internal.context;

import dev.hfr.runtime.internal.engine.TaskState;

/**
 * The task the current thread works for: the calls made on it join that task. One slot per thread for
 * the whole JVM, so that context-propagation can carry it without knowing which engine opened the task
 * (each engine joins only its own tasks). Set by {@code TaskScope} (open, close, bind), by
 * {@code TaskScope.wrap(...)} and by {@link TaskContextAccessor}; user code uses those, not this class.
 *
 * <p>The thread's slot is a small holder kept in one {@code ThreadLocal} entry, created the first time the
 * thread gets a task and kept (holding {@code null} when it has none, so no task stays reachable): binding
 * and unbinding are then one lookup and a field write, and an open does not create an entry each time.
 * The slot holds the task in a small binding object that it renews every so often, so that the write of a task
 * lands in a young object, which G1's write barrier lets through without a fence ({@link Slot#BINDINGS_PER_HOLDER}).
 */
public final class TaskContext {

  /**
   * A thread's slot: the holder of its current task. A scope opened on a thread keeps its slot, so that closing
   * it there needs no lookup ({@link #replace(TaskState, TaskState)}).
   */
  public static final class Slot {
    /**
     * How many bindings a slot makes in one {@link Binding} before it moves to a new one. A slot lives as long as its
     * thread and soon lies in the old generation; a binding this young is still in the young one, where G1 writes
     * a task into it without the fence its write barrier puts on a store into an old object (a {@code lock}ed
     * instruction, about 8 ns of a task's open on a virtualised host). The move itself pays that fence once.
     */
    static final int BINDINGS_PER_HOLDER = 64;

    private final Thread owner = Thread.currentThread();
    /** The thread's binding; only the owner thread reads or writes it and its fields. */
    private Binding binding = new Binding();
    /** Bindings made in {@link #binding} since it was created. */
    private int bindings;

    private Slot() {}

    /**
     * The holder of the slot's task, renewed every {@value #BINDINGS_PER_HOLDER} bindings so that it stays young
     * (see {@link #BINDINGS_PER_HOLDER}). Nothing but its slot refers to it, so the move loses nothing.
     */
    private static final class Binding {
      TaskState task;
      /** Whether {@link #task} was bound here by the open of its scope on this thread, not handed over to it. */
      boolean byOpen;
    }

    /** The binding to write a new task into: the current one, or a young copy of it every so often. */
    private Binding forBinding() {
      Binding b = binding;
      if (++bindings < BINDINGS_PER_HOLDER) {
        return b;
      }
      bindings = 0;
      Binding young = new Binding();
      young.task = b.task;
      young.byOpen = b.byOpen;
      binding = young;
      return young;
    }

    /** Makes {@code next} the owner thread's task and returns the one it replaces; called on the owner thread. */
    public TaskState swap(TaskState next) {
      Binding b = forBinding();
      TaskState before = b.task;
      b.task = next;
      b.byOpen = false;
      return before;
    }

    /** {@link #swap}, for the open of {@code next}'s scope on the owner thread; called on the owner thread. */
    public TaskState open(TaskState next) {
      Binding b = forBinding();
      TaskState before = b.task;
      b.task = next;
      b.byOpen = true;
      return before;
    }

    /** The owner thread's task, or {@code null}. */
    public TaskState task() {
      return binding.task;
    }

    /** Whether the current task was bound here by its scope's open (not by a handover); on the owner thread. */
    public boolean boundByOpen() {
      return binding.byOpen;
    }

    /**
     * If {@code expected} is the current thread's task, makes {@code next} current instead; says whether it did.
     * On the slot's own thread without a lookup ({@code nextByOpen}: whether {@code next} was bound here by its
     * open); on another thread, that thread's slot is looked up.
     */
    public boolean replace(TaskState expected, TaskState next, boolean nextByOpen) {
      if (owner != Thread.currentThread()) {
        return TaskContext.replace(expected, next);
      }
      return replaceHere(expected, next, nextByOpen);
    }

    private boolean replaceHere(TaskState expected, TaskState next, boolean nextByOpen) {
      Binding b = binding;
      if (b.task != expected) {
        return false;
      }
      b.task = next;
      b.byOpen = nextByOpen;
      return true;
    }
  }

  private static final ThreadLocal<Slot> CURRENT = new ThreadLocal<>();

  private TaskContext() {}

  /** The task of the current thread, or {@code null}. */
  public static TaskState current() {
    Slot slot = CURRENT.get();
    return slot == null ? null : slot.task();
  }

  /** Makes {@code task} the current thread's task; {@code null} clears it. */
  public static void set(TaskState task) {
    swap(task);
  }

  /** Makes {@code task} the current thread's task ({@code null}: none) and returns the one it replaces. */
  public static TaskState swap(TaskState task) {
    Slot slot = CURRENT.get();
    if (slot == null) {
      if (task == null) {
        return null;
      }
      slot = new Slot();
      CURRENT.set(slot);
    }
    return slot.swap(task);
  }

  /** The current thread's slot (read it on this thread only), or {@code null} if it never had a task. */
  public static Slot slotIfAny() {
    return CURRENT.get();
  }

  /** The current thread's slot, created if it has none. */
  public static Slot slot() {
    Slot slot = CURRENT.get();
    if (slot == null) {
      slot = new Slot();
      CURRENT.set(slot);
    }
    return slot;
  }

  /** If {@code expected} is the current thread's task, makes {@code next} current instead; says whether it did. */
  public static boolean replace(TaskState expected, TaskState next) {
    Slot slot = CURRENT.get();
    return slot != null && slot.replaceHere(expected, next, false);
  }
}
