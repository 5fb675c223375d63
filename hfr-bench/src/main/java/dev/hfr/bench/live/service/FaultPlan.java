package dev.hfr.bench.live.service;

import dev.hfr.bench.workload.Draws;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fault schedule of a live run: which {@link WireFault} request {@code n} of operation {@code op} of
 * task {@code task} meets. It is a function of the seed and those coordinates, so every strategy meets
 * the same schedule (the paired design of §6.6.5), however the requests interleave. Burst mode: tasks in
 * struck windows find the primary model failing on every attempt (a provider incident).
 */
public final class FaultPlan {

  private final long seed;
  private final double rate;
  private final double burstShare;
  private final int burstWindowTasks;
  private final Map<String, List<WireFault>> faultsByOperation;
  private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  private final Map<String, WireFault> stuck = new ConcurrentHashMap<>();
  private volatile long outageFromNanos;
  private volatile long outageUntilNanos;

  /**
   * @param rate the chance that a request meets a fault (5 %, 10 %, 20 %)
   * @param burstShare the share of task windows struck by a provider incident (0 without burst mode)
   * @param burstWindowTasks consecutive task numbers per window
   * @param faultsByOperation the faults each operation may meet, drawn uniformly
   */
  public FaultPlan(long seed, double rate, double burstShare, int burstWindowTasks, Map<String, List<WireFault>> faultsByOperation) {
    if (!(rate >= 0 && rate <= 1) || !(burstShare >= 0 && burstShare <= 1) || burstWindowTasks < 1) {
      throw new IllegalArgumentException("rate and burstShare must be within [0, 1] and the window positive");
    }
    this.seed = seed;
    this.rate = rate;
    this.burstShare = burstShare;
    this.burstWindowTasks = burstWindowTasks;
    this.faultsByOperation = Map.copyOf(faultsByOperation);
  }

  public double rate() {
    return rate;
  }

  public double burstShare() {
    return burstShare;
  }

  /**
   * From now on, for {@code duration}, every request of every operation answers 503 (a service that is
   * down); afterwards the schedule applies again.
   */
  public void outage(Duration duration) {
    long now = System.nanoTime();
    outageUntilNanos = now + duration.toNanos();
    outageFromNanos = now;
  }

  /** The fault of the next request of {@code op} for task number {@code task}. */
  public WireFault next(String op, int task) {
    long from = outageFromNanos;
    if (from != 0) {
      long now = System.nanoTime();
      if (now - from >= 0 && now - outageUntilNanos < 0) {
        return WireFault.UNAVAILABLE;
      }
    }
    String key = op + '#' + task;
    int n = attempts.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement();
    WireFault previous = stuck.get(key);
    if (previous != null) {
      return previous;
    }
    if (burstShare > 0 && op.equals(LiveServices.OP_MODEL_PRIMARY)
        && Draws.uniform(seed, task / burstWindowTasks, 0, 0, 0, 91) < burstShare) {
      return Draws.uniform(seed, task, n, op.hashCode(), 0, 92) < 0.5 ? WireFault.OVERLOADED : WireFault.UNAVAILABLE;
    }
    List<WireFault> faults = faultsByOperation.getOrDefault(op, List.of());
    if (faults.isEmpty() || Draws.uniform(seed, task, n, op.hashCode(), 0, 93) >= rate) {
      return WireFault.NONE;
    }
    WireFault f = faults.get((int) (Draws.uniform(seed, task, n, op.hashCode(), 0, 94) * faults.size()));
    if (f.sticky()) {
      stuck.put(key, f);
    }
    return f;
  }
}
