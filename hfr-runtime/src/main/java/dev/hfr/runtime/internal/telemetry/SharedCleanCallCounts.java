package dev.hfr.runtime.internal.telemetry;

import dev.hfr.runtime.internal.access.InstalledOnce;
import dev.hfr.runtime.telemetry.ToolMeters;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's way in to a {@link ToolMeters}' shared clean-call counts, an optimisation of the clean path that is no
 * part of the meters' API: a tool's clean calls may be counted in a counter the engine shares with the tool's circuit
 * breaker, so that one increment serves both. The meters' methods for it are package-private; their class initialiser
 * installs the {@link Access} that reaches them.
 */
public final class SharedCleanCallCounts {

  /** What the meters' class hands over: its package-private methods. */
  public interface Access {
    LongAdder newSharedCount(ToolMeters meters);

    void countedCallTook(ToolMeters meters, long nanos);
  }

  private static final InstalledOnce<Access> INSTALLED = new InstalledOnce<>("ToolMeters");

  /**
   * The access as a constant, which the JIT folds into the calls below. Read first with a tool's meters at hand, so
   * after their class installed it.
   */
  private static final class Installed {
    static final Access ACCESS = INSTALLED.get();
  }

  private SharedCleanCallCounts() {}

  /**
   * Called by {@code ToolMeters}' class initialiser only.
   *
   * @throws IllegalStateException if an access was installed already
   */
  public static void install(Access metersAccess) {
    INSTALLED.install(metersAccess);
  }

  /**
   * A new counter of the tool's clean calls, to share with a circuit breaker that counts them as successes: each of
   * its increments is one clean call in the tool's meters ({@code harness.calls}, successful attempts), read at
   * scrape time.
   */
  public static LongAdder newSharedCount(ToolMeters meters) {
    return Installed.ACCESS.newSharedCount(meters);
  }

  /** A clean call already counted in a shared counter ({@link #newSharedCount}) that the engine timed: its duration. */
  public static void countedCallTook(ToolMeters meters, long nanos) {
    Installed.ACCESS.countedCallTook(meters, nanos);
  }
}
