package dev.hfr.benchmarks.ledger;

import com.sun.management.OperatingSystemMXBean;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.PostgresLedger;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A timed harness (not JMH: the subject is a disk, whose cost dwarfs anything JMH guards against) for
 * what the ledger adds to one R1 call — {@code prepare} of a new key, then {@code PREPARED -> COMMITTED}
 * — with the defaults a user gets ({@code EmbeddedFileLedger.open(dir)}: fsync on), against the floor it
 * cannot beat: one {@code fdatasync} of a 200-byte append on the same disk, measured in the same run.
 * Then the same call from 32 threads (group commit), and PostgreSQL (a real server, {@code fsync} and
 * {@code synchronous_commit} on) beside a raw JDBC INSERT + UPDATE on a bare table: both statements waiting
 * for their WAL flush (the strict baseline), and the UPDATE not waiting, as the ledger's outcome does not
 * (the like-for-like baseline). Cases that are
 * compared run in alternating one-second rounds (the disk is shared, and its speed drifts).
 *
 * <p>Cases (third argument, comma-separated): {@code one} (floor and one thread), {@code many} (32
 * threads), {@code engine} (the calls the engine makes for an R1 write — {@code prepareIfAbsent} with a
 * lease, then the commit, which ends the lease — on 1 and 32 threads), {@code ceiling} (32 threads, no fsync), {@code pg} (PostgreSQL, the R1 call and the engine's, against raw JDBC), and {@code
 * backends}: every backend and policy with 1 and 4 threads, key derivation alone, and PostgreSQL with
 * {@code synchronous_commit} on and off, each against raw JDBC; {@code pgwork}: the server's whole work per
 * call (CPU of every PostgreSQL process, WAL bytes), the ledger's settled sweep included, against the
 * like-for-like raw statements.
 *
 * The last column is the process's CPU time (all threads, user and kernel) per call: what the machine's
 * cores allow, whatever else runs on them.
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.hfr.benchmarks.ledger.LedgerCommitHarness [rounds, default 5] [dir on the disk to measure]
 *     [cases, default one,many,ceiling,pg] [seconds per round, default 1] [target/classes of another hfr-runtime build to compare]
 * </pre>
 */
public final class LedgerCommitHarness {

  @FunctionalInterface
  interface Call {
    void run(int thread, long seq) throws Exception;
  }

  /**
   * One case's samples.
   *
   * @param cpuNanos CPU time of the whole process (all threads, user and kernel) while the case ran
   */
  record Result(String name, int threads, long calls, double seconds, long[] sortedNanos, long cpuNanos) {
    double p(double q) {
      return sortedNanos.length == 0 ? 0 : sortedNanos[(int) Math.min(sortedNanos.length - 1, Math.floor(q * sortedNanos.length))] / 1e6;
    }

    String row() {
      return String.format(Locale.ROOT, "| %s | %d | %,.0f | %.3f | %.3f | %.3f | %.1f |",
          name, threads, calls / seconds, p(0.50), p(0.99), mean(), calls == 0 ? 0 : cpuNanos / 1e3 / calls);
    }

    double mean() {
      return sortedNanos.length == 0 ? 0 : Arrays.stream(sortedNanos).average().orElse(0) / 1e6;
    }
  }

  private static final AtomicLong RUN = new AtomicLong(System.nanoTime());
  private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private LedgerCommitHarness() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Path base = args.length > 1 ? Path.of(args[1]) : Path.of(System.getProperty("java.io.tmpdir"));
    Set<String> parts = Set.of((args.length > 2 ? args[2] : "one,many,ceiling,pg").split(","));
    roundSeconds = args.length > 3 ? Double.parseDouble(args[3]) : 1.0;
    Path otherBuild = args.length > 4 ? Path.of(args[4]) : null;
    Path dir = Files.createTempDirectory(base, "hfr-commit-bench");
    String loadBefore = loadAverage();
    List<Result> rows = new ArrayList<>();
    List<String> ratios = new ArrayList<>();
    // The disk is shared and its fsync time drifts by the second: cases that are compared run in
    // alternating rounds, so both see the same disk.
    if (parts.contains("one")) {
      try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir.resolve("one"));
          OtherBuild other = OtherBuild.open(otherBuild, dir.resolve("one-other"), ForcePolicy.EVERY_WRITE)) {
        List<Case> cases = new ArrayList<>(List.of(
            new Case("one 200-byte append + fdatasync (the floor)", fdatasyncCall(dir.resolve("raw.bin"))),
            new Case(R1, ledgerCall(l))));
        if (other != null) {
          cases.add(new Case(R1 + ", other build", other.r1Call()));
        }
        List<Result> r = interleaved(rounds, 1, cases.toArray(Case[]::new));
        rows.addAll(r);
        ratios.add(String.format(Locale.ROOT, "one thread: R1 call / fdatasync = %.2f by p50, %.2f by mean",
            r.get(1).p(0.5) / r.get(0).p(0.5), r.get(1).mean() / r.get(0).mean()));
      }
    }
    if (parts.contains("many")) {
      rows.addAll(againstOther(rounds, 32, dir, "many", ForcePolicy.EVERY_WRITE, otherBuild, ratios));
    }
    if (parts.contains("engine")) { // the calls the engine makes for an R1 write: with a lease, released at the end
      try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir.resolve("engine"))) {
        rows.addAll(interleaved(rounds, 1, new Case("EmbeddedFileLedger defaults, engine's R1 call (prepareIfAbsent + commit)", engineCall(l))));
        rows.addAll(interleaved(rounds, 32, new Case("EmbeddedFileLedger defaults, engine's R1 call (prepareIfAbsent + commit)", engineCall(l))));
      }
    }
    if (parts.contains("ceiling")) { // the same calls with no fsync at all: what the CPU allows
      rows.addAll(againstOther(rounds, 32, dir, "buffered", ForcePolicy.OS_BUFFERED, otherBuild, ratios));
    }
    if (parts.contains("pg")) {
      Path pgDir = dir.resolve("pg");
      List<Result> pg = postgres(rounds, pgDir);
      rows.addAll(pg);
      Result r1 = pg.get(0);
      Result engine = pg.get(1);
      Result strict = pg.get(2);
      Result likeForLike = pg.get(3);
      ratios.add("PostgreSQL, WAL on " + Files.getFileStore(dir).type() + " (" + dir + ")"
          + (Files.getFileStore(dir).type().equals("tmpfs") ? ": a RAM disk, so a WAL flush costs ~nothing and the ratios are the statements' own cost" : "")
          + ". Baselines, on a bare table (primary key only), one pooled connection for both statements:");
      ratios.add("  strict       = raw INSERT + raw UPDATE, both autocommit with synchronous_commit=on (two WAL flushes, as a naive user writes it)");
      ratios.add("  like-for-like = the same, the UPDATE committed asynchronously as the ledger commits an outcome (one WAL flush: the ledger's durability)");
      for (Result ledgerCase : List.of(r1, engine)) {
        String name = ledgerCase == r1 ? "PostgresLedger R1 call (prepare + commit)" : "PostgresLedger engine's R1 call (prepareIfAbsent + commit)";
        ratios.add(String.format(Locale.ROOT, "%s / strict = %.2f by p50, %.2f by mean; / like-for-like = %.2f by p50, %.2f by mean",
            name, ledgerCase.p(0.5) / strict.p(0.5), ledgerCase.mean() / strict.mean(),
            ledgerCase.p(0.5) / likeForLike.p(0.5), ledgerCase.mean() / likeForLike.mean()));
      }
      ratios.add(String.format(Locale.ROOT, "(strict raw statements on the ledger's own table and indexes / strict = %.2f by p50: the table's share)",
          pg.get(4).p(0.5) / strict.p(0.5)));
    }
    if (parts.contains("backends")) {
      rows.addAll(backends(rounds, dir));
    }
    if (parts.contains("pgwork")) {
      ratios.addAll(postgresWork(rounds, dir.resolve("pgwork")));
    }
    System.out.println();
    System.out.println("| case | threads | calls/s | p50 ms | p99 ms | mean ms | CPU µs/call |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|");
    rows.forEach(r -> System.out.println(r.row()));
    System.out.println();
    ratios.forEach(System.out::println);
    System.out.printf(Locale.ROOT, "%d cores, %s %s, %s; %d alternating %.2f s rounds per case after 1 s warm-up; journal dir %s%s%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"), System.getProperty("java.version"),
        System.getProperty("os.name"), rounds, roundSeconds, dir, otherBuild == null ? "" : "; other build: " + otherBuild);
    System.out.println("load average (1, 5, 15 min) at the start: " + loadBefore + "; at the end: " + loadAverage());
  }

  /** The machine's load average, as {@code uptime} shows it; every figure is quoted with it. */
  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return f[0] + ", " + f[1] + ", " + f[2];
    } catch (Exception unreadable) {
      return String.format(Locale.ROOT, "%.2f (1 min)", OS.getSystemLoadAverage());
    }
  }

  private static final String R1 = "EmbeddedFileLedger defaults, R1 call (prepare + commit)";
  private static double roundSeconds = 1.0;

  /** The R1 call on this build's embedded ledger with {@code policy}, alternating with the other build's if there is one. */
  private static List<Result> againstOther(
      int rounds, int threads, Path dir, String name, ForcePolicy policy, Path otherBuild, List<String> ratios) throws Exception {
    String label = policy == ForcePolicy.EVERY_WRITE ? R1 : "EmbeddedFileLedger OS_BUFFERED (no fsync: the CPU's ceiling)";
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir.resolve(name), LedgerOptions.defaults().withForcePolicy(policy));
        OtherBuild other = OtherBuild.open(otherBuild, dir.resolve(name + "-other"), policy)) {
      if (other == null) {
        return interleaved(rounds, threads, new Case(label, ledgerCall(l)));
      }
      List<Result> r = interleaved(rounds, threads, new Case(label, ledgerCall(l)), new Case(label + ", other build", other.r1Call()));
      ratios.add(String.format(Locale.ROOT, "%d threads, %s: this build / other build = %.2f× the calls per second",
          threads, policy, r.get(0).calls() / r.get(0).seconds() / (r.get(1).calls() / r.get(1).seconds())));
      return r;
    }
  }

  /**
   * The embedded ledger of another build of hfr-runtime (its {@code target/classes}, e.g. a checkout of the
   * commit before a change), loaded in a class loader of its own, so that both builds run in one JVM and
   * alternate on the same disk. Called through reflection: well under a microsecond against a disk's
   * milliseconds, and the same for every call.
   */
  private static final class OtherBuild implements AutoCloseable {
    private final URLClassLoader loader;
    private final AutoCloseable ledger;
    private final Method prepare;
    private final Method transition;
    private final Object prepared;
    private final Object committed;

    private OtherBuild(Path classes, Path dir, ForcePolicy policy) throws Exception {
      URL ours = LedgerCommitHarness.class.getProtectionDomain().getCodeSource().getLocation();
      // its own classes first, everything else (dependencies) from this jar; nothing from our class loader
      loader = new URLClassLoader(new URL[] {classes.toUri().toURL(), ours}, ClassLoader.getPlatformClassLoader());
      Class<?> options = loader.loadClass("dev.hfr.runtime.ledger.LedgerOptions");
      Class<?> policies = loader.loadClass("dev.hfr.runtime.ledger.ForcePolicy");
      Object opts = options.getMethod("withForcePolicy", policies)
          .invoke(options.getMethod("defaults").invoke(null), policies.getField(policy.name()).get(null));
      ledger = (AutoCloseable) loader.loadClass("dev.hfr.runtime.ledger.EmbeddedFileLedger")
          .getMethod("open", Path.class, options).invoke(null, dir, opts);
      Class<?> api = loader.loadClass("dev.hfr.runtime.ledger.IdempotencyLedger");
      Class<?> states = loader.loadClass("dev.hfr.runtime.ledger.LedgerState");
      prepare = api.getMethod("prepare", String.class, String.class, String.class, String.class);
      transition = api.getMethod("transition", String.class, String.class, states, states, String.class, long.class);
      prepared = states.getField("PREPARED").get(null);
      committed = states.getField("COMMITTED").get(null);
    }

    /** The other build's ledger in {@code dir}, or null when no other build was given. */
    static OtherBuild open(Path classes, Path dir, ForcePolicy policy) throws Exception {
      return classes == null ? null : new OtherBuild(classes, dir, policy);
    }

    Call r1Call() {
      String argsHash = IdempotencyKeys.argsHash(List.of("sku-1", 2));
      String resultHash = IdempotencyKeys.resultHash("order-1");
      return (t, seq) -> {
        String key = uniqueKey(t, seq);
        prepare.invoke(ledger, "bench", key, "Orders.create", argsHash);
        transition.invoke(ledger, "bench", key, prepared, committed, resultHash, 0L);
      };
    }

    @Override
    public void close() throws Exception {
      try {
        ledger.close();
      } finally {
        loader.close();
      }
    }
  }

  record Case(String name, Call call) {}

  /**
   * PostgresLedger and the raw JDBC baseline on one server and pool, alternating; the server's data (and so
   * its write-ahead log) in {@code dataDir}, on the disk being measured. On a RAM disk ({@code /dev/shm})
   * a WAL flush costs next to nothing, which leaves the statements' own cost: the ledger's worst ratio.
   */
  private static List<Result> postgres(int rounds, Path dataDir) throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dataDir).setServerConfig("fsync", "on").start();
        HikariDataSource pool = pool(pg, "on");
        PostgresLedger l = PostgresLedger.create(pool)) {
      createRawTable(pool);
      return interleaved(rounds, 1,
          new Case("PostgresLedger, R1 call (prepare + commit)", ledgerCall(l)),
          new Case("PostgresLedger, engine's R1 call (prepareIfAbsent + commit, which ends the lease)", engineCall(l)),
          new Case("raw JDBC INSERT + UPDATE, both synchronous (strict baseline)", rawJdbcCall(pool)),
          new Case("raw JDBC INSERT + UPDATE, the UPDATE asynchronous (like-for-like baseline)", rawJdbcAsyncUpdateCall(pool)),
          new Case("raw JDBC INSERT + UPDATE, both synchronous, on the ledger's own table and indexes", rawJdbcOnLedgerTableCall(pool)));
    }
  }

  /**
   * Every backend and force policy with 1 and 4 threads, beside key derivation alone and raw JDBC; PostgreSQL
   * with {@code synchronous_commit} on (durable at acknowledgement, like {@code EVERY_WRITE}) and off (a
   * commit may be lost if the server's machine fails, not if the client dies).
   */
  private static List<Result> backends(int rounds, Path dir) throws Exception {
    List<Result> rows = new ArrayList<>();
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setServerConfig("fsync", "on").start();
        HikariDataSource durable = pool(pg, "on");
        HikariDataSource async = pool(pg, "off")) {
      createRawTable(durable);
      for (int threads : new int[] {1, 4}) {
        rows.addAll(interleaved(rounds, threads, new Case("IdempotencyKeys.key (derivation only)",
            (t, seq) -> IdempotencyKeys.key("bench", "task-" + t, "Orders.create", List.of("sku-1", seq, 2), 0))));
        try (InMemoryLedger l = new InMemoryLedger()) {
          rows.addAll(interleaved(rounds, threads, new Case("InMemoryLedger", ledgerCall(l))));
        }
        try (EmbeddedFileLedger l = EmbeddedFileLedger.open(
            dir.resolve("buffered-" + threads), LedgerOptions.defaults().withForcePolicy(ForcePolicy.OS_BUFFERED))) {
          rows.addAll(interleaved(rounds, threads, new Case("EmbeddedFileLedger, OS_BUFFERED (survives SIGKILL)", ledgerCall(l))));
        }
        try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir.resolve("forced-" + threads))) {
          rows.addAll(interleaved(rounds, threads, new Case("EmbeddedFileLedger, EVERY_WRITE (fsync; survives power loss)", ledgerCall(l))));
        }
        for (HikariDataSource ds : List.of(durable, async)) {
          String sync = ds == durable ? "on" : "off";
          try (PostgresLedger l = PostgresLedger.create(ds)) {
            rows.addAll(interleaved(rounds, threads,
                new Case("PostgresLedger, synchronous_commit=" + sync, ledgerCall(l)),
                new Case("raw JDBC INSERT+UPDATE, synchronous_commit=" + sync, rawJdbcCall(ds))));
          }
        }
      }
    }
    return rows;
  }

  /**
   * What a call costs the server in all, not only what the caller waits for: the engine's R1 call and the
   * like-for-like raw statements, one thread, in alternating rounds of {@code max(10, rounds)} seconds — long
   * enough for the ledger's settled sweep (at most every 10 s, on its own thread) to run inside them — each
   * ledger round ending with the sweep of what is left ({@code expire(EPOCH)} runs it and deletes nothing), so
   * every settled record's second row version is counted. CPU is every PostgreSQL process's (postmaster and
   * children: backends, WAL writer, checkpointer, autovacuum) from /proc; WAL from the server's insert
   * position.
   */
  private static List<String> postgresWork(int rounds, Path dataDir) throws Exception {
    double seconds = Math.max(10, rounds);
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setDataDirectory(dataDir).setServerConfig("fsync", "on").start();
        HikariDataSource pool = pool(pg, "on")) {
      createRawTable(pool);
      long postmaster = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
      long[] ledger = new long[4];
      long[] raw = new long[4];
      try (PostgresLedger l = PostgresLedger.create(pool)) {
        Call engine = engineCall(l);
        Call likeForLike = rawJdbcAsyncUpdateCall(pool);
        run("warm-up", 1, 1.0, engine);
        run("warm-up", 1, 1.0, likeForLike);
        l.expire(java.time.Instant.EPOCH);
        for (int r = 0; r < 2; r++) {
          RUN.incrementAndGet();
          measureWork(pool, postmaster, ledger, () -> {
            long calls = run("work", 1, seconds, engine).calls();
            l.expire(java.time.Instant.EPOCH); // the settled sweep of what the round left
            return calls;
          });
          RUN.incrementAndGet();
          measureWork(pool, postmaster, raw, () -> run("work", 1, seconds, likeForLike).calls());
        }
      }
      List<String> out = new ArrayList<>();
      out.add(String.format(Locale.ROOT, "PostgreSQL, the server's whole work per call (2 alternating rounds of %.0f s each, WAL on %s), "
          + "settled sweep included:", seconds, Files.getFileStore(dataDir).type()));
      for (long[] w : List.of(ledger, raw)) {
        out.add(String.format(Locale.ROOT, "  %s: %,d calls, server CPU %.1f µs/call, WAL %.0f bytes/call, client JVM CPU %.1f µs/call",
            w == ledger ? "PostgresLedger engine's R1 call" : "raw like-for-like INSERT + UPDATE", w[0],
            w[1] / 1e3 / w[0], (double) w[2] / w[0], w[3] / 1e3 / w[0]));
      }
      out.add(String.format(Locale.ROOT, "  ledger / raw: server CPU %.2f, WAL %.2f, client CPU %.2f per call",
          (double) ledger[1] / ledger[0] / ((double) raw[1] / raw[0]), (double) ledger[2] / ledger[0] / ((double) raw[2] / raw[0]),
          (double) ledger[3] / ledger[0] / ((double) raw[3] / raw[0])));
      return out;
    }
  }

  @FunctionalInterface
  interface Counted {
    long calls() throws Exception;
  }

  /** Adds to {@code totals} (calls, server CPU ns, WAL bytes, JVM CPU ns) what {@code work} cost. */
  private static void measureWork(HikariDataSource pool, long postmaster, long[] totals, Counted work) throws Exception {
    long cpu0 = serverCpuNanos(postmaster);
    long wal0 = walPosition(pool);
    long jvm0 = OS.getProcessCpuTime();
    long calls = work.calls();
    totals[3] += OS.getProcessCpuTime() - jvm0;
    totals[2] += walPosition(pool) - wal0;
    totals[1] += serverCpuNanos(postmaster) - cpu0;
    totals[0] += calls;
  }

  private static long walPosition(HikariDataSource pool) throws Exception {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** User and system CPU of the postmaster and its children, from /proc (clock ticks of 10 ms). */
  private static long serverCpuNanos(long postmaster) throws Exception {
    long ticks = 0;
    try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path p : procs) {
        try {
          String stat = Files.readString(p.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          if (Long.parseLong(p.getFileName().toString()) == postmaster || Long.parseLong(f[1]) == postmaster) {
            ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
          }
        } catch (java.io.IOException | RuntimeException exited) {
          // the process ended between the listing and the read: its time is gone with it
        }
      }
    }
    return ticks * 10_000_000L;
  }

  /** Warms each case up for a second, then runs them in turn, {@code rounds} seconds each, and merges their samples. */
  private static List<Result> interleaved(int rounds, int threads, Case... cases) throws Exception {
    for (Case c : cases) {
      RUN.incrementAndGet();
      run(c.name(), threads, 1.0, c.call());
    }
    List<List<Result>> parts = new ArrayList<>();
    for (Case c : cases) {
      parts.add(new ArrayList<>());
    }
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < cases.length; i++) {
        RUN.incrementAndGet();
        parts.get(i).add(run(cases[i].name(), threads, roundSeconds, cases[i].call()));
      }
    }
    List<Result> merged = new ArrayList<>();
    for (int i = 0; i < cases.length; i++) {
      long calls = 0;
      double seconds = 0;
      long cpu = 0;
      long[] all = new long[0];
      for (Result p : parts.get(i)) {
        calls += p.calls();
        seconds += p.seconds();
        cpu += p.cpuNanos();
        int old = all.length;
        all = Arrays.copyOf(all, old + p.sortedNanos().length);
        System.arraycopy(p.sortedNanos(), 0, all, old, p.sortedNanos().length);
      }
      Arrays.sort(all);
      Result m = new Result(cases[i].name(), threads, calls, seconds, all, cpu);
      System.err.println(m.row());
      merged.add(m);
    }
    return merged;
  }

  private static Call fdatasyncCall(Path file) throws Exception {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    byte[] record = new byte[200];
    Arrays.fill(record, (byte) 'x');
    return (t, seq) -> {
      ch.write(ByteBuffer.wrap(record));
      ch.force(false);
    };
  }

  private static String uniqueKey(int thread, long seq) {
    return String.format(Locale.ROOT, "%016x%016x%016x%016x", RUN.get(), (long) thread, seq, RUN.get() ^ seq);
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

  /**
   * The ledger calls the engine makes for an R1 write that commits: {@code prepareIfAbsent} (the record, its
   * task and this call's lease in one step), then the commit with the lease's token. The commit ends the lease
   * ({@link IdempotencyLedger#transition}), so the engine releases nothing (its {@code WriteLedger}). The task
   * id is what the engine gives a call made outside any task ({@code hfr-<uuid>-<n>}), the call's owner its own.
   */
  private static Call engineCall(IdempotencyLedger ledger) {
    String argsHash = IdempotencyKeys.argsHash(List.of("sku-1", 2));
    String resultHash = IdempotencyKeys.resultHash("order-1");
    Duration ttl = Duration.ofSeconds(20);
    String engine = "hfr-" + java.util.UUID.randomUUID() + "-";
    return (t, seq) -> {
      String key = uniqueKey(t, seq);
      Lease lease = ledger.prepareIfAbsent("bench", engine + seq, key, "Orders.create", argsHash, engine + "#" + seq, ttl).lease();
      ledger.transition("bench", key, LedgerState.PREPARED, LedgerState.COMMITTED, resultHash, lease.fencingToken());
    };
  }

  private static HikariDataSource pool(EmbeddedPostgres pg, String synchronousCommit) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(pg.getJdbcUrl("postgres", "postgres"));
    c.setUsername("postgres");
    c.setMaximumPoolSize(8);
    c.setConnectionInitSql("SET synchronous_commit = " + synchronousCommit);
    return new HikariDataSource(c);
  }

  private static void createRawTable(HikariDataSource ds) throws Exception {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS bench_raw (tenant TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL, "
          + "args_hash TEXT NOT NULL, state TEXT NOT NULL, result_hash TEXT, created_at_ms BIGINT NOT NULL, "
          + "updated_at_ms BIGINT NOT NULL, PRIMARY KEY (tenant, key))");
    }
  }

  /** Two autocommit statements on a bare table: the floor a hand-written ledger could reach. */
  private static Call rawJdbcCall(HikariDataSource ds) {
    return rawJdbcCall(ds, "bare-",
        "INSERT INTO bench_raw (tenant, key, tool, args_hash, state, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, 'PREPARED', ?, ?)",
        "UPDATE bench_raw SET state = 'COMMITTED', result_hash = ?, updated_at_ms = ? WHERE tenant = ? AND key = ?");
  }

  /**
   * The bare table's two statements with the ledger's durability: the INSERT waits for its WAL flush, the
   * UPDATE (the outcome) does not — {@code synchronous_commit} off for its own transaction, set the way the
   * ledger sets it, in the statement itself (the last condition of its {@code WHERE}: the cheapest way we
   * found, cheaper than the CTE the ledger and this baseline used before schema version 4).
   */
  private static Call rawJdbcAsyncUpdateCall(HikariDataSource ds) {
    return rawJdbcCall(ds, "async-",
        "INSERT INTO bench_raw (tenant, key, tool, args_hash, state, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, 'PREPARED', ?, ?)",
        "UPDATE bench_raw SET state = 'COMMITTED', result_hash = ?, updated_at_ms = ? "
            + "WHERE tenant = ? AND key = ? AND set_config('synchronous_commit', 'off', true) IS NOT NULL");
  }

  /**
   * The same two statements on the ledger's own table ({@code hfr_ledger}, with its indexes): what the ledger
   * costs beyond the rows and indexes its recovery queries need.
   */
  private static Call rawJdbcOnLedgerTableCall(HikariDataSource ds) {
    return rawJdbcCall(ds, "raw-",
        "INSERT INTO hfr_ledger (tenant, key, tool, args_hash, state, attempts, fencing_token, lease_expires_at_ms, "
            + "created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, 'PREPARED', 0, 0, 0, ?, ?)",
        "UPDATE hfr_ledger SET state = 'COMMITTED', attempts = 1, result_hash = ?, updated_at_ms = ? WHERE tenant = ? AND key = ?");
  }

  /** {@code insert} takes tenant, key, tool, args hash, created and updated; {@code update} result hash, updated, tenant, key. */
  private static Call rawJdbcCall(HikariDataSource ds, String keyPrefix, String insert, String update) {
    String argsHash = IdempotencyKeys.argsHash(List.of("sku-1", 2));
    String resultHash = IdempotencyKeys.resultHash("order-1");
    return (t, seq) -> {
      String key = keyPrefix + uniqueKey(t, seq);
      long now = System.currentTimeMillis();
      try (Connection c = ds.getConnection()) {
        try (PreparedStatement ins = c.prepareStatement(insert)) {
          ins.setString(1, "bench");
          ins.setString(2, key);
          ins.setString(3, "Orders.create");
          ins.setString(4, argsHash);
          ins.setLong(5, now);
          ins.setLong(6, now);
          ins.executeUpdate();
        }
        try (PreparedStatement upd = c.prepareStatement(update)) {
          upd.setString(1, resultHash);
          upd.setLong(2, now);
          upd.setString(3, "bench");
          upd.setString(4, key);
          upd.executeUpdate();
        }
      }
    };
  }

  private static Result run(String name, int threads, double seconds, Call call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    long durationNanos = (long) (seconds * 1e9);
    try {
      List<Future<long[]>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        parts.add(pool.submit(() -> {
          long[] samples = new long[1024];
          int n = 0;
          start.await();
          long end = System.nanoTime() + durationNanos;
          long seq = 0;
          for (long now = System.nanoTime(); now < end; ) {
            call.run(thread, seq++);
            long after = System.nanoTime();
            if (n == samples.length) {
              samples = Arrays.copyOf(samples, n * 2);
            }
            samples[n++] = after - now;
            now = after;
          }
          return Arrays.copyOf(samples, n);
        }));
      }
      long cpu0 = OS.getProcessCpuTime();
      long t0 = System.nanoTime();
      start.countDown();
      long[] all = new long[0];
      for (Future<long[]> f : parts) {
        long[] s = f.get();
        int old = all.length;
        all = Arrays.copyOf(all, old + s.length);
        System.arraycopy(s, 0, all, old, s.length);
      }
      double elapsed = (System.nanoTime() - t0) / 1e9;
      long cpu = OS.getProcessCpuTime() - cpu0;
      Arrays.sort(all);
      return new Result(name, threads, all.length, elapsed, all, cpu);
    } finally {
      pool.shutdownNow();
    }
  }
}
