package dev.hfr.runtime.breaker.internal;

import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.internal.access.InstalledOnce;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's way in to a {@link CircuitBreaker}'s shared success counts, an optimisation of the clean path that is
 * no part of the breaker's API: a breaker may count its lock-free successes in a counter the engine shares with the
 * tool's meters, so that one increment serves both. The breaker's methods for it are package-private; its class
 * initialiser installs the {@link Access} that reaches them.
 */
public final class SharedSuccessCounts {

  /** What the breaker's class hands over: its package-private methods. */
  public interface Access {
    void share(CircuitBreaker breaker, LongAdder shared);

    boolean onSuccessCountedIn(CircuitBreaker breaker, long latencyNanos, long endNanos, LongAdder shared);
  }

  private static final InstalledOnce<Access> INSTALLED = new InstalledOnce<>("CircuitBreaker");

  /**
   * The access as a constant, which the JIT folds into the calls below. Read first by a call with a breaker, so
   * after the breaker's class installed it.
   */
  private static final class Installed {
    static final Access ACCESS = INSTALLED.get();
  }

  private SharedSuccessCounts() {}

  /**
   * Called by {@code CircuitBreaker}'s class initialiser only.
   *
   * @throws IllegalStateException if an access was installed already
   */
  public static void install(Access breakerAccess) {
    INSTALLED.install(breakerAccess);
  }

  /**
   * Lets {@code shared}, a counter the caller owns and reads, count {@code breaker}'s lock-free successes too: its
   * increments from now on are the breaker's closed-state successes, folded into its window like its own. What it
   * counted before is not.
   */
  public static void share(CircuitBreaker breaker, LongAdder shared) {
    Installed.ACCESS.share(breaker, shared);
  }

  /**
   * {@link CircuitBreaker#onSuccess(long, long)}, for a caller that counts its successes itself: a success the breaker
   * counts without its lock (closed, not slow) is counted in {@code shared} — a counter given to {@link #share} — and
   * nowhere else, and the answer is {@code true}; any other is recorded as {@code onSuccess} records it, and the answer
   * is {@code false} (the caller counts it itself).
   */
  public static boolean onSuccessCountedIn(CircuitBreaker breaker, long latencyNanos, long endNanos, LongAdder shared) {
    return Installed.ACCESS.onSuccessCountedIn(breaker, latencyNanos, endNanos, shared);
  }
}
