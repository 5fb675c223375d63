package dev.hfr.runtime.internal.context;

import dev.hfr.runtime.internal.engine.TaskState;

/**
 * The task the current thread works for: the calls made on it join that task. One slot per thread for
 * the whole JVM, so that context-propagation can carry it without knowing which engine opened the task
 * (each engine joins only its own tasks). Set by {@code TaskScope} (open, close, bind), by
 * {@code TaskScope.wrap(...)} and by {@link TaskContextAccessor}; user code uses those, not this class.
 *
 * <p>What binds a task for a while and then puts back the one before (wrapped work, a binding by hand, an
 * asynchronous call's steps, context-propagation) saves the slot's flag with its task and restores both
 * ({@link Slot#restore}, {@link #saved()} and {@link #restore(Object)}): a task put back as handed over would
 * no longer be released when its scope is closed on another thread.
 *
 * <p>The thread's slot is a small holder kept in one {@code ThreadLocal} entry, created the first time the
 * thread gets a task and kept (holding {@code null} when it has none, so no task stays reachable): binding
 * and unbinding are then one lookup and a field write, and an open does not create an entry each time.
 */
public final class TaskContext {

  /**
   * A thread's slot: the holder of its current task. A scope opened on a thread keeps its slot, so that closing
   * it there needs no lookup ({@link #replace(TaskState, TaskState)}).
   */
  public static final class Slot {
    private final Thread owner = Thread.currentThread();
    private TaskState task;
    /** Whether {@link #task} was bound here by the open of its scope on this thread, not handed over to it. */
    private boolean byOpen;

    private Slot() {}

    /** Makes {@code next} the owner thread's task and returns the one it replaces; called on the owner thread. */
    public TaskState swap(TaskState next) {
      TaskState before = task;
      task = next;
      byOpen = false;
      return before;
    }

    /**
     * Gives the owner thread back a binding {@link #swap} replaced: {@code task}, bound here by its open if it was
     * ({@code byOpen}: {@link #boundByOpen()} read before the swap). Only a task opened on this slot can be bound
     * by its open. Called on the owner thread.
     */
    public void restore(TaskState task, boolean byOpen) {
      this.task = task;
      this.byOpen = byOpen && task != null && task.openSlot() == this;
    }

    /** {@link #swap}, for the open of {@code next}'s scope on the owner thread; called on the owner thread. */
    public TaskState open(TaskState next) {
      TaskState before = task;
      task = next;
      byOpen = true;
      return before;
    }

    /** The thread whose slot this is. */
    public Thread owner() {
      return owner;
    }

    /** The owner thread's task, or {@code null}. */
    public TaskState task() {
      return task;
    }

    /** Whether the current task was bound here by its scope's open (not by a handover); on the owner thread. */
    public boolean boundByOpen() {
      return byOpen;
    }

    /**
     * If {@code expected} is the current thread's task, makes {@code next} current instead; says whether it did.
     * On the slot's own thread without a lookup ({@code nextByOpen}: whether {@code next} was bound here by its
     * open). On another thread, where {@code expected} was handed over, that thread's slot is looked up and left with
     * no task: {@code next} is the owner thread's, and what that thread had before comes back when its binding ends.
     */
    public boolean replace(TaskState expected, TaskState next, boolean nextByOpen) {
      if (owner != Thread.currentThread()) {
        return TaskContext.replace(expected, null);
      }
      if (task != expected) {
        return false;
      }
      task = next;
      byOpen = nextByOpen;
      return true;
    }
  }

  /**
   * A task bound to its thread by its open, as {@link #saved()} gives it: the mark carries the flag through a save
   * and restore it knows nothing of (context-propagation's).
   */
  private record BoundByOpen(TaskState task) {}

  private static final ThreadLocal<Slot> CURRENT = new ThreadLocal<>();

  private TaskContext() {}

  /** The task of the current thread, or {@code null}. */
  public static TaskState current() {
    Slot slot = CURRENT.get();
    return slot == null ? null : slot.task;
  }

  /** Makes {@code task} the current thread's task; {@code null} clears it. */
  public static void set(TaskState task) {
    swap(task);
  }

  /** Makes {@code task} the current thread's task ({@code null}: none) and returns the one it replaces. */
  public static TaskState swap(TaskState task) {
    Slot slot = slotToBind(task);
    return slot == null ? null : slot.swap(task);
  }

  /** The current thread's slot, created if {@code task} is to be bound and it has none; {@code null}: none needed. */
  private static Slot slotToBind(TaskState task) {
    Slot slot = CURRENT.get();
    if (slot == null && task != null) {
      slot = new Slot();
      CURRENT.set(slot);
    }
    return slot;
  }

  /**
   * The current thread's binding, to be put back with {@link #restore(Object)}, or handed over with {@link
   * #handOver(Object)}: {@code null} (no task), the task, or the task marked as bound here by its open. A task its open
   * bound here and that was closed on another thread is first let go of ({@link ClosedElsewhere}).
   */
  public static Object saved() {
    Slot slot = CURRENT.get();
    if (slot == null || slot.task == null) {
      return null;
    }
    if (slot.byOpen && slot.task.closed()) {
      // Closed on another thread since: work handed over now follows the task this thread's next call would join.
      ClosedElsewhere.openTaskInstead(slot, slot.task);
      if (slot.task == null) {
        return null;
      }
    }
    return slot.byOpen ? new BoundByOpen(slot.task) : slot.task;
  }

  /** Makes the task of {@code saved} (from {@link #saved()}, on any thread) the current thread's, as handed over. */
  public static void handOver(Object saved) {
    swap(saved instanceof BoundByOpen b ? b.task() : (TaskState) saved);
  }

  /** Gives the current thread back the binding {@code saved} (from {@link #saved()} on this thread), flag included. */
  public static void restore(Object saved) {
    if (saved instanceof BoundByOpen b) {
      restore(b.task(), true);
    } else {
      restore((TaskState) saved, false);
    }
  }

  /** Gives the current thread back {@code task} ({@code null}: none), bound by its open if {@code byOpen} ({@link Slot#restore}). */
  public static void restore(TaskState task, boolean byOpen) {
    Slot slot = slotToBind(task);
    if (slot != null) {
      slot.restore(task, byOpen);
    }
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
    if (slot == null || slot.task != expected) {
      return false;
    }
    slot.task = next;
    slot.byOpen = false;
    return true;
  }
}
