package dev.hfr.bench.live;

import dev.hfr.bench.Progress;
import dev.hfr.bench.live.service.FaultPlan;
import dev.hfr.bench.live.service.LiveServices;
import dev.hfr.bench.live.service.WireFault;
import dev.hfr.bench.live.tools.OrderTools;
import dev.hfr.bench.live.tools.OrderTools_Recovering;
import dev.hfr.bench.live.tools.ToolHttp;
import dev.hfr.bench.live.tools.VerifiedOrderTools;
import dev.hfr.bench.live.tools.VerifiedOrderTools_Recovering;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Issue 12's breaker cases on the wire, against the live order service (R2: {@code POST /orders} creates an
 * order each time, {@code GET /orders?ref=} finds it) through the generated {@code OrderTools_Recovering}
 * proxy. HFR runs with the defaults a user gets ({@code Hfr.builder()} with nothing but an in-memory
 * ledger); the comparison is a blind 3-try retry of the plain tool — what an application writes without HFR.
 *
 * <ul>
 *   <li>Transient: each {@code POST} fails with a 500, before anything is committed, with probability 20 %
 *       or 50 % (a seeded schedule per order and request, so both strategies meet the same failures).
 *   <li>Outage: every request answers 503 for 30 s while {@link #OUTAGE_THREADS} callers keep placing
 *       orders; when does the service stop hearing from the client, and how fast do calls end?
 *   <li>Rejected writes: a {@code POST} answers a receipt that names no order, after placing it or without;
 *       the verifier rejects it, and HFR reconciles, cancels a placed order and places it again.
 * </ul>
 */
public final class BreakerScenarios {

  static final int TASKS = 1_000;
  static final int THREADS = 8;
  static final int OUTAGE_THREADS = 4;
  static final Duration OUTAGE = Duration.ofSeconds(30);
  /** Callers pause this long between orders in the outage: a steady stream, not a busy loop. */
  static final long OUTAGE_PAUSE_MILLIS = 20;
  /** Issue 12: on a service that is down the breaker stops attempts within this. */
  static final Duration STOP_WITHIN = Duration.ofSeconds(2);
  static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(2);
  static final String HFR = "HFR (defaults)";
  static final String BLIND = "blind 3-try retry";
  static final int REJECTED_TASKS = 200;
  static final double REJECTED_RATE = 0.20;
  static final String HFR_UNDO = "HFR, order can be cancelled";
  static final String HFR_NO_UNDO = "HFR, no compensate method";
  static final String BLIND_CHECKED = "blind 3-try retry on a wrong receipt";

  private final long seed;
  private final Progress progress;

  public BreakerScenarios(long seed, Progress progress) {
    this.seed = seed;
    this.progress = progress;
  }

  /** Runs both transient rates and the outage, each for HFR and the blind retry. */
  public BreakerResults run() throws IOException, InterruptedException {
    long start = System.nanoTime();
    List<BreakerResults.Transient> transients = new ArrayList<>();
    progress.start("breaker and rejected-write scenarios", 12);
    for (double rate : new double[] {0.20, 0.50}) {
      transients.add(transientRun(rate, true));
      progress.advance(1);
      transients.add(transientRun(rate, false));
      progress.advance(1);
    }
    List<BreakerResults.Outage> outages = List.of(outageRun(true), outageRun(false));
    progress.advance(2);
    List<BreakerResults.Rejected> rejected = new ArrayList<>();
    for (boolean committed : new boolean[] {true, false}) {
      for (String strategy : List.of(HFR_UNDO, HFR_NO_UNDO, BLIND_CHECKED)) {
        rejected.add(rejectedRun(committed, strategy));
        progress.advance(1);
      }
    }
    progress.done();
    return new BreakerResults(seed, TASKS, THREADS, OUTAGE.toSeconds(), OUTAGE_THREADS, transients, outages, rejected,
        (System.nanoTime() - start) / 1e9);
  }

  /**
   * Orders whose {@code POST} answers, with probability {@link #REJECTED_RATE}, a receipt that names no order
   * — after placing it ({@code committed}) or without — through the verified order tool: HFR with a
   * cancellable order, HFR with a tool that declares no compensate method, or the plain tool retried blindly
   * (up to three tries) while its receipt is wrong.
   */
  private BreakerResults.Rejected rejectedRun(boolean committed, String strategy) throws IOException, InterruptedException {
    WireFault wrong = committed ? WireFault.COMMIT_THEN_WRONG_RECEIPT : WireFault.WRONG_RECEIPT_NOTHING_COMMITTED;
    FaultPlan faults = new FaultPlan(seed, REJECTED_RATE, 0, 1, Map.of(LiveServices.OP_ORDER_CREATE, List.of(wrong)));
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (LiveServices services = LiveServices.start(faults, CLIENT_TIMEOUT.toMillis() * 2);
        InMemoryLedger ledger = new InMemoryLedger();
        Hfr hfr = hfr(ledger, new AtomicInteger())) {
      ToolHttp http = new ToolHttp(CLIENT_TIMEOUT);
      VerifiedOrderTools tools = strategy.equals(BLIND_CHECKED) ? new VerifiedOrderTools(http, services.orderUri())
          : VerifiedOrderTools_Recovering.create(hfr, http, services.orderUri());
      List<Future<Integer>> calls = new ArrayList<>();
      for (int i = 0; i < REJECTED_TASKS; i++) {
        int task = i;
        calls.add(pool.submit(() -> placeChecked(tools, strategy, task)));
      }
      int accepted = 0;
      int escalated = 0;
      for (Future<Integer> f : calls) {
        int outcome = get(f);
        accepted += outcome == 1 ? 1 : 0;
        escalated += outcome == 2 ? 1 : 0;
      }
      return new BreakerResults.Rejected(committed, REJECTED_RATE, strategy, REJECTED_TASKS, accepted, escalated,
          services.orders().standing(), services.orders().duplicates(), services.orders().undone(), services.orders().requests());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Places one verified order: 1 accepted, 2 escalated, 0 otherwise. */
  private static int placeChecked(VerifiedOrderTools tools, String strategy, int task) {
    String ref = "order-" + task;
    if (strategy.equals(BLIND_CHECKED)) {
      for (int i = 0; i < 3; i++) {
        try {
          if (!tools.placeOrder(task, ref, "widget", 1).orderId().isEmpty()) {
            return 1;
          }
        } catch (RuntimeException e) {
          // a failed try: the blind retry tries again
        }
      }
      return 0;
    }
    try {
      if (strategy.equals(HFR_UNDO)) {
        tools.placeOrder(task, ref, "widget", 1);
      } else {
        tools.placeOrderNoUndo(task, ref, "widget", 1);
      }
      return 1;
    } catch (ToolCallException e) {
      return e.outcome().status() == ToolOutcome.Status.ESCALATED ? 2 : 0;
    }
  }

  private Hfr hfr(InMemoryLedger ledger, AtomicInteger breakerStops) {
    DecisionSink countStops = event -> {
      if (event.reason() == Reason.CIRCUIT_OPEN) {
        breakerStops.incrementAndGet();
      }
    };
    return Hfr.builder().ledger(ledger).seed(seed).meterRegistry(new SimpleMeterRegistry()).decisionSink(countStops).build();
  }

  /** Places an order with {@code tools}, once through HFR or up to three times blindly; whether it was placed. */
  private static boolean place(OrderTools tools, boolean throughHfr, int task) {
    int tries = throughHfr ? 1 : 3;
    for (int i = 0; i < tries; i++) {
      try {
        tools.placeOrder(task, "order-" + task, "widget", 1);
        return true;
      } catch (RuntimeException e) {
        // HFR has already done what could be done; the blind retry tries again
      }
    }
    return false;
  }

  private BreakerResults.Transient transientRun(double rate, boolean throughHfr) throws IOException, InterruptedException {
    FaultPlan faults = new FaultPlan(seed, rate, 0, 1, Map.of(LiveServices.OP_ORDER_CREATE, List.of(WireFault.SERVER_ERROR)));
    AtomicInteger breakerStops = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (LiveServices services = LiveServices.start(faults, CLIENT_TIMEOUT.toMillis() * 2);
        InMemoryLedger ledger = new InMemoryLedger();
        Hfr hfr = hfr(ledger, breakerStops)) {
      ToolHttp http = new ToolHttp(CLIENT_TIMEOUT);
      OrderTools tools = throughHfr ? OrderTools_Recovering.create(hfr, http, services.orderUri())
          : new OrderTools(http, services.orderUri());
      List<Future<Boolean>> calls = new ArrayList<>();
      for (int i = 0; i < TASKS; i++) {
        int task = i;
        calls.add(pool.submit(() -> place(tools, throughHfr, task)));
      }
      int succeeded = 0;
      for (Future<Boolean> f : calls) {
        succeeded += get(f) ? 1 : 0;
      }
      return new BreakerResults.Transient(rate, throughHfr ? HFR : BLIND, TASKS, succeeded, services.orders().duplicates(),
          services.orders().requests(), breakerStops.get());
    } finally {
      pool.shutdownNow();
    }
  }

  private BreakerResults.Outage outageRun(boolean throughHfr) throws IOException, InterruptedException {
    FaultPlan faults = new FaultPlan(seed, 0, 0, 1, Map.of());
    AtomicInteger breakerStops = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(OUTAGE_THREADS);
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    try (LiveServices services = LiveServices.start(faults, CLIENT_TIMEOUT.toMillis() * 2);
        InMemoryLedger ledger = new InMemoryLedger();
        Hfr hfr = hfr(ledger, breakerStops)) {
      ToolHttp http = new ToolHttp(CLIENT_TIMEOUT);
      OrderTools tools = throughHfr ? OrderTools_Recovering.create(hfr, http, services.orderUri())
          : new OrderTools(http, services.orderUri());
      faults.outage(OUTAGE);
      long outageStart = System.nanoTime();
      long outageEnd = outageStart + OUTAGE.toNanos();
      AtomicInteger tasks = new AtomicInteger();
      // What the service heard in the first two seconds, read at that moment.
      Future<Integer> firstTwoSeconds = sampler.schedule(() -> services.orders().requests(), STOP_WITHIN.toMillis(),
          TimeUnit.MILLISECONDS);
      List<Future<long[]>> callers = new ArrayList<>();
      for (int t = 0; t < OUTAGE_THREADS; t++) {
        callers.add(pool.submit(() -> {
          // per call: its duration in microseconds, negated when it succeeded
          long[] durations = new long[16_384];
          int n = 0;
          while (System.nanoTime() < outageEnd && n < durations.length) {
            long s = System.nanoTime();
            boolean ok = place(tools, throughHfr, tasks.getAndIncrement());
            long micros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - s);
            durations[n++] = ok ? -micros : micros;
            Thread.sleep(OUTAGE_PAUSE_MILLIS);
          }
          return Arrays.copyOf(durations, n);
        }));
      }
      List<Long> all = new ArrayList<>();
      int succeeded = 0;
      for (Future<long[]> f : callers) {
        for (long d : get(f)) {
          succeeded += d < 0 ? 1 : 0;
          all.add(Math.abs(d));
        }
      }
      long requests = services.orders().requests();
      int early = get(firstTwoSeconds);
      double lastRequest = (services.orders().lastRequestNanos() - outageStart) / 1e9;
      all.sort(null);
      return new BreakerResults.Outage(throughHfr ? HFR : BLIND, all.size(), succeeded, (int) requests, early,
          (int) requests - early, lastRequest,
          percentile(all, 0.50) / 1000.0, percentile(all, 0.95) / 1000.0, breakerStops.get());
    } finally {
      pool.shutdownNow();
      sampler.shutdownNow();
    }
  }

  private static long percentile(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
  }

  private static <T> T get(Future<T> f) throws InterruptedException {
    try {
      return f.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("a benchmark caller failed", e.getCause());
    }
  }
}
