package dev.hfr.runtime.breaker;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.breaker.internal.SharedSuccessCounts;
import dev.hfr.runtime.time.Clock;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

/**
 * A circuit breaker for one target (paper §4.7): CLOSED counts outcomes in a sliding window and trips on
 * error rate, 429 rate or a latency percentile once the window holds its minimum of calls — or, while it
 * holds fewer (a quiet target, where no rate means anything yet), on consecutive failures; OPEN refuses every
 * call for a jittered cooldown; HALF_OPEN lets a bounded number of probe calls through and judges them as the
 * window would: more failures than the error-rate threshold allows reopen it with a longer (capped) cooldown,
 * otherwise it closes once all have answered. So a partly faulty target that answers most calls recovers.
 *
 * <p>For one cooldown after its first outcome, timeouts do not count: a cold start (a JVM warming up on a busy
 * host, a pool filling) times out a burst of calls against a target that is fine, and would otherwise open the
 * breaker at t = 0 — whether or not the target answered a call first. A target that never answers trips once that
 * grace ends; errors it answers (a 503) count from the first.
 *
 * <p>Use: {@link #tryAcquire()} before the call; if it returned {@code true}, exactly one of
 * {@link #onSuccess}, {@link #onFailure} or {@link #releasePermit()} after it. A refused call must not be
 * retried against this target: the engine degrades or escalates instead.
 *
 * <p>Which failures count against the target's health: T1, T3, T4, T5 and unclassified failures are
 * errors; T2 is a 429 (its own rate, and a failure for the consecutive count). T6, T7, T8 and V1 say
 * the request was wrong, not that the target is unhealthy: they count as healthy answers.
 *
 * <p>Half-open details: a probe whose outcome has not come back within one cooldown is presumed lost
 * and its permit is issued again, so a caller that dies between acquire and report cannot keep the
 * breaker half-open for ever. Permits are not tagged, so the late outcome of a call admitted before the
 * breaker opened, arriving while it is half-open, counts as a probe's outcome; with cooldowns longer
 * than call timeouts (the defaults) this does not happen.
 *
 * <p>Thread-safe. In the closed state {@code tryAcquire} is one volatile read, and during the cooldown
 * a volatile read and a clock read. A success in the closed state that is not slow is counted in a
 * striped counter, without the lock: a success can never trip the breaker, so it is folded into the
 * window only when the window is next consulted under the lock (by a failure, a slow call or a state
 * change), in the order it arrived relative to those outcomes. Everything else is recorded under a short
 * lock. Nothing allocates after construction. Time comes only from the injected {@link Clock}.
 *
 * <p>A caller that counts the same successes itself (HFR's engine counts every clean call in the tool's
 * meters) can have one increment serve both: it gives the breaker a counter of its own ({@link
 * #shareSuccessCount}) and reports through {@link #onSuccessCountedIn}, which counts a lock-free success in
 * that counter instead of the breaker's. The breaker's count is then the sum of its own and the shared ones,
 * exactly as if it had counted them itself.
 */
public final class CircuitBreaker {

  private final TargetKind kind;
  private final String name;
  private final CircuitBreakerConfig config;
  private final Clock clock;
  private final RandomGenerator jitter;
  private final long slowNanos;
  private final CircuitBreakerListener listener;
  private final ReentrantLock lock = new ReentrantLock();
  private final OutcomeWindow window;
  /**
   * Successes in the closed state, counted without the lock, here and in {@link #sharedCounts}; {@link
   * #foldedSuccesses} of them (of the sum of all) are in the window.
   */
  private final LongAdder closedSuccesses = new LongAdder();
  /** Callers' counters that count closed-state successes for this breaker ({@link #shareSuccessCount}); copied on write, under lock. */
  private volatile LongAdder[] sharedCounts = new LongAdder[0];
  /**
   * The time the window gives the successes counted without the lock: each of them ended less than
   * {@link #STAMP_NANOS} after it (a later one takes the lock and moves it). Written under lock.
   */
  private volatile long lastSuccessNanos;

  private volatile CircuitState state = CircuitState.CLOSED;
  private volatile TripReason lastTripReason;
  /** Written under lock; volatile so a refused call during the cooldown needs no lock. */
  private volatile long openUntilNanos;
  // The fields below are guarded by lock.
  private int consecutiveFailures;
  private int reopenCount;
  private long halfOpenSinceNanos;
  private int probesIssued;
  private int probesSucceeded;
  private long openedCount;
  private long foldedSuccesses;
  private int probesFailed;
  /** When the first outcome was recorded: for a cooldown after it, timeouts are not counted (a cold start). */
  private long firstOutcomeNanos;
  private boolean anyOutcome;

  /** How often the time stamp of lock-free successes is refreshed: often enough for windows of seconds. */
  private static final long STAMP_NANOS = 1_000_000L;

  static {
    SharedSuccessCounts.install(new SharedSuccessCounts.Access() {
      @Override
      public void share(CircuitBreaker breaker, LongAdder shared) {
        breaker.shareSuccessCount(shared);
      }

      @Override
      public boolean onSuccessCountedIn(CircuitBreaker breaker, long latencyNanos, long endNanos, LongAdder shared) {
        return breaker.onSuccessCountedIn(latencyNanos, endNanos, shared);
      }
    });
  }

  /**
   * A closed breaker.
   *
   * @param jitter the source of cooldown jitter; used only under this breaker's lock, so it need not be
   *     thread-safe but must not be shared with other users
   */
  public CircuitBreaker(TargetKind kind, String name, CircuitBreakerConfig config, Clock clock, RandomGenerator jitter) {
    this(kind, name, config, clock, jitter, CircuitBreakerListener.NONE);
  }

  /** A closed breaker that tells {@code listener} about its state changes. */
  public CircuitBreaker(
      TargetKind kind, String name, CircuitBreakerConfig config, Clock clock, RandomGenerator jitter, CircuitBreakerListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    this.kind = Objects.requireNonNull(kind, "kind");
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    this.name = name;
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.jitter = Objects.requireNonNull(jitter, "jitter");
    this.slowNanos = config.latencyThreshold().isZero() ? Long.MAX_VALUE : config.latencyThreshold().toNanos();
    this.window = new OutcomeWindow(config.windowSize(), config.windowDuration().toNanos());
    this.lastSuccessNanos = clock.nanoTime();
  }

  /**
   * Asks to make a call. {@code true}: go ahead, and report the outcome. {@code false}: the target is
   * open (or its probes are all out); do not call it and do not retry it.
   */
  public boolean tryAcquire() {
    CircuitState seen = state;
    if (seen == CircuitState.CLOSED) {
      return true;
    }
    if (seen == CircuitState.OPEN && clock.nanoTime() - openUntilNanos < 0) {
      // Cooling down: refuse without touching the lock, so a storm against an open target stays cheap.
      return false;
    }
    boolean granted;
    boolean movedToHalfOpen = false;
    lock.lock();
    try {
      long now = clock.nanoTime();
      if (state == CircuitState.OPEN && now - openUntilNanos >= 0) {
        state = CircuitState.HALF_OPEN;
        halfOpenSinceNanos = now;
        probesIssued = 0;
        probesSucceeded = 0;
        probesFailed = 0;
        movedToHalfOpen = true;
      }
      if (state == CircuitState.HALF_OPEN) {
        // Probes whose outcome never came back (a caller crashed between acquire and report) would hold
        // the breaker half-open for ever; after a cooldown's worth of silence they are presumed lost.
        if (probesIssued >= config.halfOpenProbes() && now - halfOpenSinceNanos > config.cooldown().toNanos()) {
          probesIssued = probesSucceeded + probesFailed;
          halfOpenSinceNanos = now;
        }
        granted = probesIssued < config.halfOpenProbes();
        if (granted) {
          probesIssued++;
        }
      } else {
        granted = state == CircuitState.CLOSED;
      }
    } finally {
      lock.unlock();
    }
    if (movedToHalfOpen) {
      listener.onStateChange(this, CircuitState.OPEN, CircuitState.HALF_OPEN, null);
    }
    return granted;
  }

  /** Reports a successful call that took {@code latencyNanos} and ended now. */
  public void onSuccess(long latencyNanos) {
    onSuccess(latencyNanos, clock.nanoTime());
  }

  /**
   * Reports a successful call that took {@code latencyNanos} and ended at {@code endNanos}, a reading of
   * this breaker's clock that the caller already has (so reporting costs no clock read). A caller that
   * did not time the call may pass its latest reading and a latency of 0, if the breaker has no latency
   * threshold ({@link CircuitBreakerConfig#latencyThreshold()} zero).
   */
  public void onSuccess(long latencyNanos, long endNanos) {
    if (latencyNanos <= slowNanos && state == CircuitState.CLOSED && endNanos - lastSuccessNanos < STAMP_NANOS) {
      // The common case takes no lock: a success cannot trip the breaker, so it only needs counting. It
      // happened within STAMP_NANOS after the stamp the window will give it.
      closedSuccesses.increment();
      return;
    }
    // Once per STAMP_NANOS of clock time (and for anything but a closed breaker's fast success) the lock
    // folds the counted successes in at the old stamp and moves the stamp on.
    record(null, latencyNanos, endNanos);
  }

  /**
   * {@link #onSuccess(long, long)}, for a caller that counts its successes itself: a success the breaker
   * counts without its lock (closed, not slow) is counted in {@code shared} — one of the caller's counters
   * given to {@link #shareSuccessCount} — and nowhere else, and the answer is {@code true}; any other is
   * recorded as {@code onSuccess} records it, and the answer is {@code false} (the caller counts it itself).
   * One increment then serves the caller's count and the breaker's. The engine's optimisation, not API: it
   * reaches this through {@link SharedSuccessCounts}.
   */
  boolean onSuccessCountedIn(long latencyNanos, long endNanos, LongAdder shared) {
    if (latencyNanos <= slowNanos && state == CircuitState.CLOSED && endNanos - lastSuccessNanos < STAMP_NANOS) {
      shared.increment();
      return true;
    }
    record(null, latencyNanos, endNanos);
    return false;
  }

  /**
   * Lets {@code shared}, a counter the caller owns and reads, count this breaker's lock-free successes too
   * ({@link #onSuccessCountedIn}): its increments from now on are this breaker's closed-state successes,
   * folded into the window like its own. What it counted before is not. Reached through {@link SharedSuccessCounts}.
   */
  void shareSuccessCount(LongAdder shared) {
    Objects.requireNonNull(shared, "shared");
    lock.lock();
    try {
      // Its earlier increments were not this breaker's successes: they count as folded already.
      foldedSuccesses += shared.sum();
      LongAdder[] before = sharedCounts;
      LongAdder[] after = Arrays.copyOf(before, before.length + 1);
      after[before.length] = shared;
      sharedCounts = after;
    } finally {
      lock.unlock();
    }
  }

  /** The closed-state successes counted without the lock, here and in the shared counters, since construction. Under lock. */
  private long lockFreeSuccesses() {
    long total = closedSuccesses.sum();
    for (LongAdder shared : sharedCounts) {
      total += shared.sum();
    }
    return total;
  }

  /** Whether outcomes need their latency: only when a latency threshold is configured. */
  public boolean needsLatency() {
    return slowNanos != Long.MAX_VALUE;
  }

  /** Reports a failed call of class {@code fault} that took {@code latencyNanos}. */
  public void onFailure(Fault fault, long latencyNanos) {
    record(Objects.requireNonNull(fault, "fault"), latencyNanos, clock.nanoTime());
  }

  /** Returns a permit of {@link #tryAcquire()} whose call was not made (cancelled before it started). */
  public void releasePermit() {
    lock.lock();
    try {
      if (state == CircuitState.HALF_OPEN && probesIssued > probesSucceeded + probesFailed) {
        probesIssued--;
      }
    } finally {
      lock.unlock();
    }
  }

  private void record(Fault fault, long latencyNanos, long now) {
    byte outcome = outcomeOf(fault, latencyNanos);
    boolean failure = (outcome & (OutcomeWindow.ERROR | OutcomeWindow.RATE_LIMITED)) != 0;
    CircuitState from;
    CircuitState to;
    lock.lock();
    try {
      from = state;
      if (!anyOutcome) {
        anyOutcome = true;
        firstOutcomeNanos = now;
      }
      if (from == CircuitState.CLOSED && fault == Fault.T3 && now - firstOutcomeNanos < config.cooldown().toNanos()) {
        // A timeout in the breaker's first cooldown: our cold start as likely as the target's failure.
        return;
      }
      switch (from) {
        case CLOSED -> {
          foldClosedSuccesses(now);
          if (fault == null && now - lastSuccessNanos > 0) {
            lastSuccessNanos = now;
          }
          window.record(now, outcome);
          consecutiveFailures = failure ? consecutiveFailures + 1 : 0;
          TripReason reason = tripReason();
          if (reason != null) {
            open(now, reason, false);
          }
        }
        case HALF_OPEN -> {
          // The probes are judged as the window would judge them: a share of failures, not the first one.
          if (failure || (outcome & OutcomeWindow.SLOW) != 0) {
            probesFailed++;
          } else {
            probesSucceeded++;
          }
          // At most half of them may fail (less where the threshold is lower), whatever a lax threshold says.
          if (probesFailed > Math.min(config.errorRateThreshold(), 0.5) * config.halfOpenProbes()) {
            open(now, TripReason.PROBE_FAILED, true);
          } else if (probesSucceeded + probesFailed >= config.halfOpenProbes()) {
            close();
          }
        }
        case OPEN -> {
          // A call admitted before the breaker opened: the decision is already made, nothing to count.
        }
      }
      to = state;
    } finally {
      lock.unlock();
    }
    if (from != to) {
      listener.onStateChange(this, from, to, to == CircuitState.OPEN ? lastTripReason : null);
    }
  }

  /** Moves the successes counted without the lock into the window, ahead of the outcome being recorded. Under lock. */
  private void foldClosedSuccesses(long now) {
    long total = lockFreeSuccesses();
    long pending = total - foldedSuccesses;
    if (pending <= 0) {
      return;
    }
    foldedSuccesses = total;
    consecutiveFailures = 0;
    // Each ended less than STAMP_NANOS after the stamp: at most that much older in the window than they
    // are, which can only make them leave it a little sooner.
    window.recordSuccesses(pending, Math.min(lastSuccessNanos, now));
  }

  /** Forgets the successes counted without the lock that were not folded yet (the window is being cleared). Under lock. */
  private void dropClosedSuccesses() {
    foldedSuccesses = lockFreeSuccesses();
  }

  private byte outcomeOf(Fault fault, long latencyNanos) {
    byte outcome = latencyNanos > slowNanos ? OutcomeWindow.SLOW : 0;
    if (fault == null) {
      return outcome;
    }
    return switch (fault) {
      case T1, T3, T4, T5, UNCLASSIFIED -> (byte) (outcome | OutcomeWindow.ERROR);
      case T2 -> (byte) (outcome | OutcomeWindow.RATE_LIMITED);
      case T6, T7, T8, V1 -> outcome;
    };
  }

  private TripReason tripReason() {
    int calls = window.count();
    if (calls < config.minimumCalls()) {
      // Too few calls for a rate: a quiet target trips on failures in a row. A busy one never does, since at
      // a hundred calls a second a fifth of them failing at random makes five in a row every few seconds.
      return consecutiveFailures >= config.consecutiveFailures() ? TripReason.CONSECUTIVE_FAILURES : null;
    }
    if (window.errors() > config.errorRateThreshold() * calls) {
      return TripReason.ERROR_RATE;
    }
    if (window.rateLimited() > config.rateLimitedRateThreshold() * calls) {
      return TripReason.RATE_LIMITED_RATE;
    }
    // Nearest-rank percentile: the p-th percentile of n samples is the ceil(p·n)-th smallest, so it is
    // above the threshold exactly when more than n - ceil(p·n) samples are. Counting slow calls gives the
    // exact answer without keeping the latencies.
    if (slowNanos != Long.MAX_VALUE) {
      int rank = (int) Math.ceil(config.latencyPercentile() * calls - 1e-9);
      if (window.slow() > calls - rank) {
        return TripReason.SLOW_CALLS;
      }
    }
    return null;
  }

  private void open(long now, TripReason reason, boolean probeFailed) {
    reopenCount = probeFailed ? reopenCount + 1 : 0;
    openUntilNanos = now + cooldownNanos(reopenCount);
    lastTripReason = reason;
    openedCount++;
    window.clear();
    dropClosedSuccesses();
    consecutiveFailures = 0;
    state = CircuitState.OPEN;
  }

  private void close() {
    reopenCount = 0;
    window.clear();
    dropClosedSuccesses();
    consecutiveFailures = 0;
    state = CircuitState.CLOSED;
  }

  /** The nominal cooldown grown by the multiplier per failed probe, capped, then jittered within ± the jitter fraction. */
  private long cooldownNanos(int reopens) {
    double nominal = config.cooldown().toNanos() * Math.pow(config.cooldownMultiplier(), reopens);
    nominal = Math.min(nominal, (double) config.maxCooldown().toNanos());
    double j = config.cooldownJitter();
    double factor = j == 0.0 ? 1.0 : 1.0 - j + 2.0 * j * jitter.nextDouble();
    return Math.max(1L, (long) (nominal * factor));
  }

  /** Closes the breaker and forgets its history (an operator's reset). */
  public void reset() {
    CircuitState from;
    lock.lock();
    try {
      from = state;
      close();
    } finally {
      lock.unlock();
    }
    if (from != CircuitState.CLOSED) {
      listener.onStateChange(this, from, CircuitState.CLOSED, null);
    }
  }

  /**
   * Keeps this breaker open until {@code untilNanos} (this breaker's clock) because another worker of the
   * fleet opened its breaker for the same target. Extends an open state, never shortens it; the history of
   * a closed breaker is cleared as when it trips. Listeners hear a move to OPEN with {@link TripReason#FLEET}.
   */
  public void holdOpen(long untilNanos) {
    CircuitState from;
    lock.lock();
    try {
      from = state;
      if (from == CircuitState.OPEN && openUntilNanos - untilNanos >= 0) {
        return;
      }
      if (from != CircuitState.OPEN) {
        openedCount++;
        window.clear();
        dropClosedSuccesses();
        consecutiveFailures = 0;
        lastTripReason = TripReason.FLEET;
        state = CircuitState.OPEN;
      }
      openUntilNanos = untilNanos;
    } finally {
      lock.unlock();
    }
    if (from != CircuitState.OPEN) {
      listener.onStateChange(this, from, CircuitState.OPEN, TripReason.FLEET);
    }
  }

  /**
   * Ends the cooldown of an open breaker now, so its next {@link #tryAcquire()} moves it to HALF_OPEN: this
   * worker won the fleet's right to probe the target.
   */
  public void probeNow() {
    lock.lock();
    try {
      if (state == CircuitState.OPEN) {
        openUntilNanos = clock.nanoTime();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The current state, without moving it: an OPEN breaker whose cooldown has ended stays OPEN until the next {@link #tryAcquire()}. */
  public CircuitState state() {
    return state;
  }

  /** Whether a retry may be sent to this target now: only when CLOSED (paper §4.3: an open breaker stops retries). */
  public boolean allowsRetries() {
    return state == CircuitState.CLOSED;
  }

  /** Why the breaker last opened, or {@code null} if it never has. */
  public TripReason lastTripReason() {
    return lastTripReason;
  }

  /** How many times the breaker has opened. */
  public long openedCount() {
    lock.lock();
    try {
      return openedCount;
    } finally {
      lock.unlock();
    }
  }

  /** When the open state ends, on the clock's time line; meaningful only while OPEN. */
  public long openUntilNanos() {
    return openUntilNanos;
  }

  public TargetKind kind() {
    return kind;
  }

  public String name() {
    return name;
  }

  public CircuitBreakerConfig config() {
    return config;
  }

  @Override
  public String toString() {
    return "CircuitBreaker[" + kind.tag() + ":" + name + ", " + state + "]";
  }
}
