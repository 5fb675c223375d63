package dev.hfr.benchmarks.ledger;

import dev.hfr.benchmarks.PaymentTools;
import dev.hfr.benchmarks.PaymentTools_Recovering;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionSink;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * What the embedded ledger costs as its history grows (docs/LEDGER.md, "Capacity"): a service writes N records
 * from 32 threads, then a fresh JVM with a small heap opens them. Not JMH: the subjects are a disk and a
 * restart. Each phase runs in its own JVM, as a service and its restart do:
 *
 * <ul>
 *   <li>{@code fill} (heap 2 GB): N R1 writes as the engine makes them ({@code prepareIfAbsent} leased, then
 *       {@code PREPARED -> COMMITTED}), or through a generated proxy ({@code proxy}: a plain-Java app with the
 *       builder's defaults); throughput, write latency, the heap the records keep once housekeeping has moved
 *       them (after a full GC, minus the heap before the ledger opened), the disk.
 *   <li>{@code open} (heap 256 MB): {@code EmbeddedFileLedger.open} in a fresh JVM, the heap it keeps, and 2,000
 *       reads of random records written by the fill.
 * </ul>
 *
 * Backends: {@code new} (this build), {@code old=DIR} (the same harness on another build's hfr-runtime classes,
 * e.g. the journal that kept every record in memory), {@code sqlite} (every record in SQLite, {@link
 * SqliteOnlyLedger}). Retention: {@code retention=S} fills with a retention of S seconds, so that records expire,
 * and are deleted, while the fill runs; the default 24 h deletes nothing. Rate: {@code rate=N} offers N writes a
 * second instead of as many as the threads can make, to read the latency of a service below saturation. Threads:
 * {@code threads=N} writes from N threads instead of 32 ({@code threads=1}: one write at a time, each its own force).
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.hfr.benchmarks.ledger.LedgerCapacityHarness run DIR RECORDS[,RECORDS...] BACKEND[,BACKEND...] [ledger|proxy] [retention=S] [rate=N] [threads=N]
 * </pre>
 */
public final class LedgerCapacityHarness {

  private static final String TENANT = "bench";
  private static final String TOOL = "PaymentTools.charge";
  private static final int DEFAULT_THREADS = 32;

  private LedgerCapacityHarness() {}

  public static void main(String[] args) throws Exception {
    Locale.setDefault(Locale.ROOT);
    switch (args[0]) {
      case "run" -> run(Path.of(args[1]), args[2].split(","), args[3].split(","), args.length > 4 ? args[4] : "ledger",
          option(args, "retention="), option(args, "rate="), (int) option(args, "threads="));
      case "fill" -> fill(Path.of(args[1]), Long.parseLong(args[2]), args[3], args[4], Long.parseLong(args[5]), Long.parseLong(args[6]),
          Integer.parseInt(args[7]));
      case "open" -> open(Path.of(args[1]), Long.parseLong(args[2]), args[3], args[4]);
      default -> throw new IllegalArgumentException("run, fill or open, not " + args[0]);
    }
  }

  /** The number after {@code prefix} in the arguments past the mode ({@code retention=30}, {@code rate=15000}), or 0. */
  private static long option(String[] args, String prefix) {
    for (int i = 5; i < args.length; i++) {
      if (args[i].startsWith(prefix)) {
        return Long.parseLong(args[i].substring(prefix.length()));
      }
    }
    return 0;
  }

  /** Each backend and size: a fill in one JVM, an open in another; prints one table row per pair. */
  private static void run(Path base, String[] sizes, String[] backends, String mode, long retentionSeconds, long rate, int threadsAsked)
      throws Exception {
    int threads = threadsAsked > 0 ? threadsAsked : DEFAULT_THREADS;
    System.out.println("| backend | mode | records | retention | writes/s (" + threads + " threads) | write p50 / p99 / p99.9 / max (ms) | writes > 50 ms"
        + " | lock wait p50 / p99.9 / max (ms) | in memory when the fill ended | heap kept per record | disk | open (fresh JVM, -Xmx256m)"
        + " | heap after open | read p50 / p99 (ms) | load average during the fill |");
    System.out.println("|---|---|---:|---|---:|---|---:|---|---|---:|---:|---:|---:|---|---|");
    for (String backend : backends) {
      for (String size : sizes) {
        long records = parseCount(size);
        Path dir = base.resolve(backend.replaceAll("[^a-z]", "") + "-" + mode + "-" + records);
        deleteRecursively(dir);
        Files.createDirectories(dir);
        String classpath = classpathFor(backend);
        String loadBefore = loadAverage();
        Map<String, String> fill = fork(classpath, "-Xmx2g", "fill", dir.toString(), String.valueOf(records), kind(backend), mode,
            String.valueOf(retentionSeconds), String.valueOf(rate), String.valueOf(threads));
        String loadAfter = loadAverage();
        Map<String, String> open = fork(classpath, "-Xmx256m", "open", dir.toString(), String.valueOf(records), kind(backend), mode);
        System.out.printf("| %s | %s%s | %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", backend.startsWith("old") ? "old" : backend, mode,
            rate > 0 ? String.format(", %,d offered/s", rate) : "", records, retentionSeconds > 0 ? retentionSeconds + " s (deleting)" : "24 h", fill.getOrDefault("throughput", "?"),
            fill.getOrDefault("latency", "?"), fill.getOrDefault("slow", "?"), fill.getOrDefault("probe", "—"), fill.getOrDefault("backlog", "—"),
            fill.getOrDefault("heapPerRecord", fill.getOrDefault("error", "?")),
            fill.getOrDefault("disk", "?"), open.getOrDefault("openSeconds", open.getOrDefault("error", "?")), open.getOrDefault("heap", "?"),
            open.getOrDefault("reads", "?"), loadBefore + " → " + loadAfter);
        deleteRecursively(dir);
      }
    }
  }

  /** The one-minute load average (2 cores here: above 2, something else competes for them). */
  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }

  private static String kind(String backend) {
    return backend.startsWith("old") ? "new" : backend; // the old build's classes answer to the same API
  }

  private static String classpathFor(String backend) {
    String own = System.getProperty("java.class.path");
    return backend.startsWith("old=") ? backend.substring(4) + java.io.File.pathSeparator + own : own;
  }

  /** Runs one phase in a fresh JVM; returns the {@code key=value} lines it printed last. */
  private static Map<String, String> fork(String classpath, String heap, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), heap,
        "-XX:+UseG1GC", "-cp", classpath, LedgerCapacityHarness.class.getName()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    Map<String, String> out = new LinkedHashMap<>();
    StringBuilder log = new StringBuilder();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
      for (String line; (line = r.readLine()) != null; ) {
        int eq = line.indexOf('=');
        if (line.startsWith("@") && eq > 0) {
          out.put(line.substring(1, eq), line.substring(eq + 1));
        } else {
          log.append(line).append('\n');
        }
      }
    }
    int exit = p.waitFor();
    if (exit != 0) {
      String last = log.toString().lines().filter(l -> l.contains("Error") || l.contains("Exception")).findFirst().orElse("exit " + exit);
      out.putIfAbsent("error", last.length() > 80 ? last.substring(0, 80) : last);
      System.err.print(log);
    }
    return out;
  }

  /**
   * Writes {@code records} records from {@code threads} threads, as fast as they go or, with {@code rate} > 0, at that many a
   * second offered (write i is due at start + i / rate, and its latency counts from then, so a write delayed by
   * the ones before it is not hidden); prints throughput, latency, heap kept, disk.
   */
  private static void fill(Path dir, long records, String kind, String mode, long retentionSeconds, long rate, int threads)
      throws Exception {
    long heapBefore = usedHeapAfterGc();
    Writer writer = writerFor(dir, kind, mode, retentionSeconds);
    AtomicLong next = new AtomicLong();
    long[][] latencies = new long[threads][];
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    long[] probes = new long[1 << 20];
    int[] probeCount = new int[1];
    Thread prober = new Thread(() -> {
      // a read every millisecond while the fill runs: the longest wait any housekeeping made a call endure
      while (next.get() < records && probeCount[0] < probes.length) {
        probes[probeCount[0]++] = writer.probe();
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
      }
    }, "probe");
    long start = System.nanoTime();
    prober.start();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        long[] mine = new long[(int) (records / threads) + 2];
        int n = 0;
        for (long i; (i = next.getAndIncrement()) < records; ) {
          long t0 = System.nanoTime();
          if (rate > 0) {
            long due = start + i * 1_000_000_000L / rate;
            if (due > t0) {
              java.util.concurrent.locks.LockSupport.parkNanos(due - t0);
            }
            t0 = due;
          }
          writer.write(thread, i);
          if (n == mine.length) {
            mine = Arrays.copyOf(mine, n * 2);
          }
          mine[n++] = System.nanoTime() - t0;
        }
        latencies[thread] = Arrays.copyOf(mine, n);
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    prober.join();
    long[] waits = Arrays.copyOf(probes, probeCount[0]);
    Arrays.sort(waits);
    if (waits.length > 0 && waits[waits.length - 1] > 0) {
      System.out.printf("@probe=%.2f / %.2f / %.0f%n", ms(waits, 0.5), ms(waits, 0.999), waits[waits.length - 1] / 1e6);
    }
    long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
    Arrays.fill(latencies, null);
    System.out.printf("@throughput=%,.0f%n", records / seconds);
    System.out.printf("@latency=%.2f / %.2f / %.2f / %.0f%n", ms(all, 0.5), ms(all, 0.99), ms(all, 0.999), all[all.length - 1] / 1e6);
    System.out.printf("@slow=%d%n", Arrays.stream(all).filter(n -> n > 50_000_000L).count());
    all = null; // the heap measured next is the ledger's, not these samples'
    writer.settle();
    long heapAfter = usedHeapAfterGc();
    System.out.printf("@heapPerRecord=%.0f B (%d MB)%n", Math.max(0, heapAfter - heapBefore) / (double) records, (heapAfter - heapBefore) >> 20);
    writer.close();
    System.out.printf("@disk=%d MB%n", diskBytes(dir) >> 20);
  }

  /** Opens what {@code fill} wrote in this (fresh, small-heap) JVM; prints the time, the heap kept and read latency. */
  private static void open(Path dir, long records, String kind, String mode) throws Exception {
    long heapBefore = usedHeapAfterGc();
    long t0 = System.nanoTime();
    if (kind.equals("sqlite")) {
      try (SqliteOnlyLedger ledger = new SqliteOnlyLedger(dir)) {
        System.out.printf("@openSeconds=%.2f s%n", (System.nanoTime() - t0) / 1e9);
        System.out.printf("@heap=%d MB%n", (usedHeapAfterGc() - heapBefore) >> 20);
        long[] reads = new long[2000];
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < reads.length; i++) {
          String key = key(random.nextLong(records));
          long r0 = System.nanoTime();
          if (ledger.prepareIfAbsent(key, System.currentTimeMillis())) {
            throw new IllegalStateException("record " + key + " was lost");
          }
          reads[i] = System.nanoTime() - r0;
        }
        Arrays.sort(reads);
        System.out.printf("@reads=%.2f / %.2f (prepare of an existing key)%n", ms(reads, 0.5), ms(reads, 0.99));
      }
      return;
    }
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir)) {
      System.out.printf("@openSeconds=%.2f s%n", (System.nanoTime() - t0) / 1e9);
      System.out.printf("@heap=%d MB%n", (usedHeapAfterGc() - heapBefore) >> 20);
      if (mode.equals("ledger")) {
        long[] reads = new long[2000];
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < reads.length; i++) {
          long n = random.nextLong(records);
          long r0 = System.nanoTime();
          LedgerState state = ledger.find(TENANT, key(n)).orElseThrow(() -> new IllegalStateException("record " + n + " was lost")).state();
          reads[i] = System.nanoTime() - r0;
          if (state != LedgerState.COMMITTED) {
            throw new IllegalStateException("record " + n + " is " + state);
          }
        }
        Arrays.sort(reads);
        System.out.printf("@reads=%.2f / %.2f%n", ms(reads, 0.5), ms(reads, 0.99));
      } else {
        System.out.printf("@reads=n/a (keys derived by the engine)%n");
      }
    }
  }

  /** One backend's write of record {@code i}, as the engine makes it. */
  private interface Writer extends AutoCloseable {
    void write(int thread, long i) throws Exception;

    /** How long one read of a record held in memory took: the wait for the ledger's lock, whoever holds it. */
    default long probe() {
      return 0;
    }

    /** Waits until housekeeping has moved what it moves (the heap then holds what it keeps). */
    default void settle() throws Exception {}
  }

  private static Writer writerFor(Path dir, String kind, String mode, long retentionSeconds) throws Exception {
    if (kind.equals("sqlite")) {
      SqliteOnlyLedger ledger = new SqliteOnlyLedger(dir);
      return new Writer() {
        @Override
        public void write(int thread, long i) {
          String key = key(i);
          ledger.prepareIfAbsent(key, System.currentTimeMillis());
          ledger.commit(key, System.currentTimeMillis());
        }

        @Override
        public void close() throws Exception {
          ledger.close();
        }
      };
    }
    LedgerOptions options = LedgerOptions.defaults();
    if (retentionSeconds > 0) {
      options = options.withRetention(Duration.ofSeconds(retentionSeconds));
    }
    EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options);
    String probeKey = key(-1);
    ledger.prepare(TENANT, probeKey, TOOL, probeKey); // PREPARED: held in memory for the whole run
    Hfr hfr = mode.equals("proxy") ? Hfr.builder().ledger(ledger).decisionSink(DecisionSink.discarding()).build() : null;
    PaymentTools payments = hfr != null ? PaymentTools_Recovering.create(hfr) : null;
    return new Writer() {
      @Override
      public void write(int thread, long i) {
        if (payments != null) {
          payments.charge("acct-" + i, 1250L, null);
          return;
        }
        String key = key(i);
        Lease lease = ledger.prepareIfAbsent(TENANT, "task-" + i, key, TOOL, key, "worker-" + thread, Duration.ofSeconds(20)).lease();
        ledger.transition(TENANT, key, LedgerState.PREPARED, LedgerState.COMMITTED, key, lease.fencingToken());
      }

      @Override
      public long probe() {
        long t0 = System.nanoTime();
        ledger.find(TENANT, probeKey);
        return System.nanoTime() - t0;
      }

      @Override
      public void settle() throws Exception {
        long backlog = inMemory(ledger);
        long t0 = System.nanoTime();
        long deadline = t0 + Duration.ofSeconds(120).toNanos();
        while (inMemory(ledger) > 1000 && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        System.out.printf("@backlog=%,d, moved in %.1f s%n", backlog, (System.nanoTime() - t0) / 1e9);
      }

      @Override
      public void close() {
        if (hfr != null) {
          hfr.close();
        }
        ledger.close();
      }
    };
  }

  /** Records the ledger holds in memory; an older build keeps every record there and has no such method. */
  private static long inMemory(EmbeddedFileLedger ledger) {
    try {
      return ((Number) EmbeddedFileLedger.class.getMethod("recordsInMemory").invoke(ledger)).longValue();
    } catch (ReflectiveOperationException olderBuild) {
      return 0;
    }
  }

  private static String key(long i) {
    return IdempotencyKeys.key(TENANT, "task-" + i, TOOL, List.of(i), 0);
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static double ms(long[] sorted, double quantile) {
    return sorted[Math.min(sorted.length - 1, (int) (sorted.length * quantile))] / 1e6;
  }

  private static long diskBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static long parseCount(String s) {
    String t = s.toLowerCase(Locale.ROOT);
    if (t.endsWith("m")) {
      return Long.parseLong(t.substring(0, t.length() - 1)) * 1_000_000;
    }
    if (t.endsWith("k")) {
      return Long.parseLong(t.substring(0, t.length() - 1)) * 1_000;
    }
    return Long.parseLong(t);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
        Files.delete(p);
      }
    }
  }
}
