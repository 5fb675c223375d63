package dev.hfr.benchmarks.report;

import dev.hfr.benchmarks.CallPathBenchmark;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.management.ObjectName;

/**
 * Every object one failure-then-success call allocates, by class: the calls of {@link CallPathBenchmark}'s
 * {@code failureThenSuccess*} benchmarks, warmed up, then counted between two class histograms of the whole heap.
 * Run on Epsilon (a collector that never collects), the difference of the histograms is exactly what the calls
 * allocated; the histograms' own text is a few objects, nothing once divided by the calls.
 *
 * <pre>
 * java -XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xms2g -Xmx2g \
 *     -cp benchmarks/target/benchmarks.jar dev.hfr.benchmarks.report.FailurePathAllocations
 * </pre>
 *
 * <p>Prints one Markdown table per library: the classes of which a call allocates at least one object on average,
 * with bytes per call, and their total (what JMH's {@code -prof gc} reports per call, to the byte; the rest of the
 * heap's growth is the harness's and the JIT's own, not the calls').
 */
public final class FailurePathAllocations {

  private static final int WARM_UP = 200_000;
  private static final int CALLS = 100_000;

  private FailurePathAllocations() {}

  public static void main(String[] args) throws Exception {
    if (!ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(gc -> gc.getName().startsWith("Epsilon"))) {
      System.err.println("Run on Epsilon (-XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xms2g -Xmx2g): on another"
          + " collector the histograms miss what was collected between them.");
      System.exit(2);
    }
    CallPathBenchmark bench = new CallPathBenchmark();
    bench.setUp();
    try {
      print("HFR generated proxy, builder defaults", () -> {
        try {
          return bench.failureThenSuccessHfr();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      print("Resilience4j Retry + CircuitBreaker", () -> {
        try {
          return bench.failureThenSuccessResilience4j();
        } catch (Throwable e) {
          throw new IllegalStateException(e);
        }
      });
    } finally {
      bench.tearDown();
    }
  }

  private static void print(String name, LongSupplier call) throws Exception {
    for (int i = 0; i < WARM_UP; i++) {
      call.getAsLong();
    }
    Map<String, long[]> before = histogram();
    for (int i = 0; i < CALLS; i++) {
      call.getAsLong();
    }
    Map<String, long[]> after = histogram();
    List<Map.Entry<String, long[]>> perCall = new ArrayList<>();
    double total = 0;
    for (Map.Entry<String, long[]> e : after.entrySet()) {
      long[] was = before.getOrDefault(e.getKey(), new long[2]);
      long instances = e.getValue()[0] - was[0];
      long bytes = e.getValue()[1] - was[1];
      if (instances >= CALLS) {
        total += (double) bytes / CALLS;
        perCall.add(Map.entry(e.getKey(), new long[] {instances, bytes}));
      }
    }
    perCall.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    System.out.printf(Locale.ROOT, "%n#### %s%n%n| class | objects per call | bytes per call |%n|---|---:|---:|%n",
        name);
    for (Map.Entry<String, long[]> e : perCall) {
      System.out.printf(Locale.ROOT, "| `%s` | %.2f | %.1f |%n", e.getKey(), (double) e.getValue()[0] / CALLS,
          (double) e.getValue()[1] / CALLS);
    }
    System.out.printf(Locale.ROOT, "| **total** | | **%.1f** |%n", total);
  }

  /** Instances and bytes of each class on the heap, reachable or not (Epsilon keeps them all). */
  private static Map<String, long[]> histogram() throws Exception {
    String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[] {"-all"}}, new String[] {String[].class.getName()});
    Map<String, long[]> counts = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":")) {
        // A lambda's class is named after its place in the JVM's run (Foo$$Lambda$187/0x00007f...): keep Foo$$Lambda.
        String name = f[3].replaceAll("\\$\\$Lambda.*", "\\$\\$Lambda");
        long[] sum = counts.computeIfAbsent(name, n -> new long[2]);
        sum[0] += Long.parseLong(f[1]);
        sum[1] += Long.parseLong(f[2]);
      }
    }
    return counts;
  }
}
