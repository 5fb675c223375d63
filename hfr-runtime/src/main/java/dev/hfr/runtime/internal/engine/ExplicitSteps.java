package dev.hfr.runtime.internal.engine;

/**
 * The step id an agent gave the writes it makes on this thread ({@code TaskScope.step}); such a write's
 * key uses the step id instead of its occurrence. Per thread, because a step is a stretch of the agent's
 * own code; a call handed to another thread does not carry it.
 */
public final class ExplicitSteps {

  private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

  private ExplicitSteps() {}

  /** Makes {@code stepId} current on this thread; returns the one it replaces (for {@link #restore}). */
  public static String enter(String stepId) {
    String previous = CURRENT.get();
    CURRENT.set(stepId);
    return previous;
  }

  /** Puts back what {@link #enter} replaced. */
  public static void restore(String previous) {
    if (previous == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(previous);
    }
  }

  /** The step id current on this thread, or {@code null}. */
  static String current() {
    return CURRENT.get();
  }
}
