package dev.hfr.samples.ownership;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's work in the ownership tests: task {@code i} reads the stock, places the order {@code
 * ref-i} and charges it, through the generated proxy. A runner works through tasks 0..n-1 on a few
 * threads, as a worker that picked up the job would, and tallies how each task ended.
 */
final class OrderTasks {

  static final String TENANT = "shop";

  private OrderTasks() {}

  static String ref(int i) {
    return "ref-" + i;
  }

  /**
   * The engines' configuration in these tests: a reconcile may take 30 s instead of the default 1.5 s. On two
   * cores at load 20 a {@code findOrder} call behind 8 racing threads can take longer than 1.5 s; the engine
   * then rightly escalates ({@code reconcile_unknown}) instead of guessing, which is safe but is not the
   * outcome this race is about.
   */
  static HfrConfig config() {
    return HfrConfigLoader.parse("""
        hfr:
          idempotency:
            reconcile_timeout_ms: 30000
        """, "OrderTasks.config()");
  }

  static String taskId(int i) {
    return "order-task-" + i;
  }

  /** Runs task {@code i}; returns {@code ok} or the reason the engine gave. */
  @SuppressWarnings("try") // the scope binds the task to this thread
  static String runTask(Hfr hfr, OrderDesk desk, int i) throws Exception {
    try (TaskScope task = hfr.openTask(TaskSpec.builder(TENANT, taskId(i)).build())) {
      desk.stock("sku-" + (i % 7));
      desk.placeOrder(ref(i), 1 + i % 3);
      desk.charge(ref(i), 100L + i, null);
      return "ok";
    } catch (ToolCallException e) {
      // kept in the test's output: a tally alone cannot tell a slow service from a wrong answer
      System.out.println("task " + taskId(i) + " ended " + e.outcome().reason() + ": " + e + (e.getCause() != null ? ", cause " + e.getCause() : ""));
      return e.outcome().reason();
    }
  }

  /** Runs tasks 0..tasks-1 on {@code threads} threads; returns how many ended with each reason. */
  static Map<String, Integer> runAll(Hfr hfr, OrderDesk desk, int tasks, int threads) throws Exception {
    Map<String, AtomicInteger> tally = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        done.add(pool.submit(() -> {
          for (int i = first; i < tasks; i += threads) {
            tally.computeIfAbsent(runTask(hfr, desk, i), k -> new AtomicInteger()).incrementAndGet();
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Map<String, Integer> out = new TreeMap<>();
    tally.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
