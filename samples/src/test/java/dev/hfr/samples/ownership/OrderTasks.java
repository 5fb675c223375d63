package dev.hfr.samples.ownership;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
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
