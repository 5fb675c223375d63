package dev.hfr.bench.live;

import dev.hfr.bench.Progress;
import dev.hfr.bench.live.service.FaultPlan;
import dev.hfr.bench.live.service.LiveServices;
import dev.hfr.bench.live.service.WireFault;
import dev.hfr.bench.live.tools.OrderTools;
import dev.hfr.bench.live.tools.OrderTools_Recovering;
import dev.hfr.bench.live.tools.ToolHttp;
import dev.hfr.runtime.Hfr;
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
    progress.start("breaker scenarios", 6);
    for (double rate : new double[] {0.20, 0.50}) {
      transients.add(transientRun(rate, true));
      progress.advance(1);
      transients.add(transientRun(rate, false));
      progress.advance(1);
    }
    List<BreakerResults.Outage> outages = List.of(outageRun(true), outageRun(false));
    progress.advance(2);
    progress.done();
    return new BreakerResults(seed, TASKS, THREADS, OUTAGE.toSeconds(), OUTAGE_THREADS, transients, outages,
        (System.nanoTime() - start) / 1e9);
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
