package dev.hfr.bench.live;

import dev.hfr.bench.live.service.FaultPlan;
import dev.hfr.bench.live.service.LiveServices;
import dev.hfr.bench.live.service.WireFault;
import dev.hfr.bench.live.tools.SteadyShopTools;
import dev.hfr.bench.live.tools.SteadyShopTools_Recovering;
import dev.hfr.bench.live.tools.ToolHttp;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain Java service under steady load, with HFR's defaults: {@code rate} tasks a second for {@code seconds}, each
 * a search (R0), an order (R2, looked up after an ambiguous failure), a charge under its key (R1) and a receipt
 * e-mail (R3), against the live services on 127.0.0.1, a fifth of whose answers are faulty — uniformly a 503, a 429
 * with {@code Retry-After: 1}, or the answer dropped (after the write was applied, for the writes). Prints tasks ok,
 * breaker opens, budget refusals, duplicates and the calls' ends by reason.
 *
 * <pre>mvn -B -q -pl hfr-bench -am compile exec:java -Dexec.mainClass=dev.hfr.bench.live.SteadyShopRun \
 *     -Dexec.args="--seconds 180 --rate 100 --faults 0.2"</pre>
 */
public final class SteadyShopRun {

  private SteadyShopRun() {}

  /** The decisions counted by what they say, not kept. */
  static final class Counts implements DecisionSink {
    final Map<String, AtomicInteger> ends = new ConcurrentHashMap<>();
    final AtomicInteger budgetRefusals = new AtomicInteger();
    final AtomicInteger budgetWaits = new AtomicInteger();
    final AtomicInteger r1EscalatedForRefusal = new AtomicInteger();

    @Override
    public void record(DecisionEvent e) {
      if (e.reason() == Reason.TENANT_BUDGET_EXHAUSTED) {
        (e.action() == Action.RETRY ? budgetWaits : budgetRefusals).incrementAndGet();
      }
      if (e.action().isTerminal()) {
        ends.computeIfAbsent(e.tool() + " " + e.action().name().toLowerCase() + " " + e.reason().code(), k -> new AtomicInteger())
            .incrementAndGet();
        if (e.action() == Action.ESCALATE && e.risk() == dev.hfr.annotations.Risk.R1
            && (e.reason() == Reason.TENANT_BUDGET_EXHAUSTED || e.reason() == Reason.CIRCUIT_OPEN)) {
          r1EscalatedForRefusal.incrementAndGet();
        }
      }
    }
  }

  public static void main(String[] args) throws Exception {
    int seconds = 180;
    int rate = 100;
    double faults = 0.2;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        case "--rate" -> rate = Integer.parseInt(args[i + 1]);
        case "--faults" -> faults = Double.parseDouble(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "; use --seconds, --rate, --faults");
      }
    }
    java.util.logging.Logger.getLogger("dev.hfr").setLevel(java.util.logging.Level.WARNING);
    List<WireFault> writeFaults = List.of(WireFault.UNAVAILABLE, WireFault.RATE_LIMITED, WireFault.COMMIT_THEN_DROP);
    FaultPlan plan = new FaultPlan(1, faults, 0, 1, Map.of(
        LiveServices.OP_SEARCH, List.of(WireFault.UNAVAILABLE, WireFault.RATE_LIMITED, WireFault.DROP),
        LiveServices.OP_ORDER_CREATE, writeFaults,
        LiveServices.OP_ORDER_LOOKUP, List.of(WireFault.UNAVAILABLE, WireFault.RATE_LIMITED),
        LiveServices.OP_PAYMENT, writeFaults,
        LiveServices.OP_EMAIL, writeFaults));
    Counts counts = new Counts();
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    int tasks = seconds * rate;
    long start;
    long opens;
    try (LiveServices services = LiveServices.start(plan, 5_000);
        Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(counts).build()) {
      SteadyShopTools tools = SteadyShopTools_Recovering.create(hfr, new ToolHttp(Duration.ofSeconds(2)),
          services.searchUri(), services.orderUri(), services.paymentUri(), services.emailUri());
      // Java 17: a thread per task in flight (a few hundred at most)
      ExecutorService workers = Executors.newCachedThreadPool();
      start = System.nanoTime();
      for (int n = 0; n < tasks; n++) {
        long due = start + n * (1_000_000_000L / rate);
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        int task = n;
        workers.execute(() -> {
          String ref = "order-" + task;
          try (TaskScope scope = hfr.openTask(TaskSpec.builder("shop", "task-" + task).build())) {
            tools.search(task, "item " + (task % 50));
            tools.createOrder(task, ref, "item " + (task % 50));
            tools.charge(null, task, ref, 1_000);
            tools.sendMail(task, ref, "buyer-" + task + "@example.com");
            ok.incrementAndGet();
          } catch (ToolCallException e) {
            failed.incrementAndGet();
          }
        });
        if (n % (rate * 30) == 0 && n > 0) {
          System.out.printf("%4d s: %d tasks ok, %d failed%n", n / rate, ok.get(), failed.get());
        }
      }
      workers.shutdown();
      workers.awaitTermination(5, TimeUnit.MINUTES);
      opens = hfr.circuitBreakers().map(b -> b.all().stream().mapToLong(CircuitBreaker::openedCount).sum()).orElse(0L);
      int calls = services.search().requests() + services.orders().requests() + services.payments().requests()
          + services.emails().requests();
      int duplicates = services.orders().duplicates() + services.payments().duplicates() + services.emails().duplicates();
      System.out.printf("%n%d tasks in %d s at %d/s, %.0f %% faults%n", tasks, seconds, rate, faults * 100);
      System.out.printf("| tasks ok | breaker opens | budget refusals | budget waits | R1 escalated for a refusal | duplicates | requests |%n");
      System.out.printf("|---:|---:|---:|---:|---:|---:|---:|%n");
      System.out.printf("| %.1f %% (%d) | %d | %d (%.2f %% of requests) | %d | %d | %d | %d |%n", 100.0 * ok.get() / tasks, ok.get(),
          opens, counts.budgetRefusals.get(), 100.0 * counts.budgetRefusals.get() / Math.max(1, calls), counts.budgetWaits.get(),
          counts.r1EscalatedForRefusal.get(), duplicates, calls);
      System.out.println("\nhow calls ended without a result:");
      new TreeMap<>(counts.ends).forEach((k, v) -> System.out.printf("  %6d  %s%n", v.get(), k));
    }
  }
}
