package dev.hfr.mcp.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Which fault the next call of each tool gets: faults queued for a tool come first, in order; then, when
 * a random source is set, each call draws one. Thread-safe.
 */
public final class FaultPlan {

  /** The name faults of the session's listening stream (the client's GET) are queued under. */
  public static final String LISTENING_STREAM = "GET /mcp";

  private final Map<String, Deque<McpFault>> queued = new ConcurrentHashMap<>();
  private final Map<String, McpFault> drawn = new ConcurrentHashMap<>();
  private final AtomicLong injected = new AtomicLong();
  private volatile Map<String, Supplier<McpFault>> random = Map.of();

  /** Queues {@code faults} for the next calls of {@code tool}. */
  public FaultPlan next(String tool, McpFault... faults) {
    Deque<McpFault> q = queued.computeIfAbsent(tool, t -> new ArrayDeque<>());
    synchronized (q) {
      for (McpFault f : faults) {
        q.addLast(f);
      }
    }
    return this;
  }

  /**
   * From now on, each call of {@code tool} without a queued fault gets one of {@code faults} with
   * probability {@code rate} (chosen evenly), drawn from {@code seed}.
   */
  public FaultPlan random(String tool, long seed, double rate, McpFault... faults) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Map<String, Supplier<McpFault>> next = new ConcurrentHashMap<>(random);
    next.put(tool, () -> {
      synchronized (rnd) {
        return rnd.nextDouble() < rate ? faults[rnd.nextInt(faults.length)] : null;
      }
    });
    random = next;
    return this;
  }

  /** Stops random faults. */
  public void clearRandom() {
    random = Map.of();
  }

  /** How many faults were injected. */
  public long injected() {
    return injected.get();
  }

  /**
   * The fault of the call of {@code tool} now arriving at the wire, or {@code null}. A fault for the tool
   * handler is kept for it ({@link #forHandler}).
   */
  McpFault atWire(String tool) {
    McpFault f = take(tool);
    if (f == null) {
      Supplier<McpFault> r = random.get(tool);
      f = r == null ? null : r.get();
    }
    if (f == null) {
      return null;
    }
    if (!f.onTheWire()) {
      drawn.put(tool, f);
      return null;
    }
    injected.incrementAndGet();
    return f;
  }

  /** The handler fault drawn for the call of {@code tool} the handler now runs, or {@code null}. */
  McpFault forHandler(String tool) {
    McpFault f = drawn.remove(tool);
    if (f != null) {
      injected.incrementAndGet();
    }
    return f;
  }

  private McpFault take(String tool) {
    Deque<McpFault> q = queued.get(tool);
    if (q == null) {
      return null;
    }
    synchronized (q) {
      return q.pollFirst();
    }
  }
}
