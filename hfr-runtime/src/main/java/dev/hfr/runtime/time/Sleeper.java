package dev.hfr.runtime.time;

/**
 * Waits out a backoff. Production sleeps the thread; {@link VirtualTime} advances its clock instead.
 * Nothing in the engine calls {@code Thread.sleep} directly.
 */
@FunctionalInterface
public interface Sleeper {

  /** Waits {@code nanos} nanoseconds (returns at once for zero or less). */
  void sleep(long nanos) throws InterruptedException;

  /** Sleeps the calling thread. */
  static Sleeper system() {
    return SystemTime.INSTANCE;
  }
}
