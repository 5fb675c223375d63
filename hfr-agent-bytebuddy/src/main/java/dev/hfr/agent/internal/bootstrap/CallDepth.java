package dev.hfr.agent.internal.bootstrap;

/**
 * How deep the current thread is inside instrumented methods of one client. Only the outermost call
 * is recorded: {@code HttpURLConnection.getResponseCode} calls {@code getInputStream}, which calls
 * {@code getResponseCode} again; {@code HttpClient.send} calls {@code sendAsync}; the agent's own look at a
 * finished connection calls them once more. Without the guard one request would count several times.
 *
 * <p>Lives in the bootstrap class loader with {@link HfrBridge}; uses only {@code java.base}.
 */
public final class CallDepth {

  private static final ThreadLocal<int[]> DEPTHS = new Depths();

  private CallDepth() {}

  /** Enters one level for {@code client}; true when this is the outermost call on this thread. */
  public static boolean enter(int client) {
    return DEPTHS.get()[client]++ == 0;
  }

  /** Leaves one level for {@code client}; never goes below zero. */
  public static void exit(int client) {
    int[] depths = DEPTHS.get();
    if (depths[client] > 0) {
      depths[client]--;
    }
  }

  /** A class rather than {@code ThreadLocal.withInitial}'s lambda, whose linkage costs start-up time. */
  private static final class Depths extends ThreadLocal<int[]> {
    @Override
    protected int[] initialValue() {
      return new int[HfrBridge.CLIENTS];
    }
  }
}
