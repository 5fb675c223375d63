package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.PendingTask;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * An R2 write's outcome is committed without waiting for its WAL flush; the PostgreSQL server is then
 * killed with SIGKILL (every one of its processes) before anything flushed it, and restarted on the same
 * data directory. The outcome is gone — the record is back in PREPARED — while the order service did
 * place the order. The next call on the key, from the same engine (which kept running through the
 * server's crash) or from a fresh one resuming the task, reconciles: it finds the order and records
 * RECONCILED_COMMITTED. The service sees exactly one order: an R2 write is not idempotent, so a write run
 * again would have been a second one.
 *
 * <p>The server runs as a user runs it for durability ({@code synchronous_commit = on}, {@code fsync =
 * on}), with the WAL writer slowed to one round every 10 s, so that an unflushed outcome stays unwritten
 * long enough to be killed. Written WAL survives a SIGKILL (it is in the kernel's page cache), so a round
 * whose outcome reached the kernel before the kill is tried again with another task.
 */
@DisplayName("PostgreSQL crashes after an outcome it had not flushed: the next call reconciles, the service sees one write")
class PostgresLostOutcomeTest {

  static final String TENANT = "shop";
  static final ToolDescriptor CREATE_R2 = ToolDescriptor.builder("dev.hfr.shop.Orders", "createR2", Risk.R2)
      .parameters("ref").reconcile("findOrder").build();
  static final Duration LEASE_TTL = Duration.ofMillis(500);

  /** One server for both cases (creating its data directory is most of a start), killed and restarted in place. */
  static Server server;

  private final List<DecisionEvent> decisions = new CopyOnWriteArrayList<>();
  @BeforeAll
  static void startServer(@TempDir Path tmp) throws Exception {
    server = Server.start(tmp.resolve("pgdata"), freePort());
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.pg.close();
  }

  @Test
  @DisplayName("the same engine, still running, calls the key again: it waits out its old lease, reconciles, places nothing")
  @SuppressWarnings("try") // the scope binds the task to this thread
  void sameEngineReconciles() throws Exception {
    try (OrderService service = new OrderService(1, 0.0);
        Hfr hfr = Hfr.builder().ledgerDataSource(server.dataSource).leaseTtl(LEASE_TTL).decisionSink(decisions::add).build()) {
      String ref = null;
      List<String> rounds = new ArrayList<>();
      for (int round = 0; round < 5 && ref == null; round++) {
        String r = "same-order-" + round;
        try (TaskScope task = hfr.openTask(TaskSpec.builder(TENANT, taskOf(r)).build())) {
          if (placeThenCrash(hfr, service, r, rounds)) {
            ref = r;
          }
        } // closing the task writes its CLOSED checkpoint, on the restarted server
      }
      assertThat(ref).as("an outcome was lost in one of the rounds: %s", rounds).isNotNull();
      assertThat(state(ref)).isEqualTo(LedgerState.PREPARED);

      decisions.clear();
      try (TaskScope again = hfr.openTask(TaskSpec.builder(TENANT, taskOf(ref)).build())) {
        assertThat(hfr.execute(CREATE_R2, order(service, ref))).isEqualTo("order " + ref);
      }
      assertReconciledOnce(service, ref);
    }
  }

  @Test
  @DisplayName("a fresh engine resumes the task: crash resume marks the write UNKNOWN, the call reconciles, places nothing")
  @SuppressWarnings("try") // the scopes bind the task to this thread
  void freshEngineReconciles() throws Exception {
    try (OrderService service = new OrderService(1, 0.0)) {
      String ref = null;
      String taskId = null;
      List<String> rounds = new ArrayList<>();
      try (Hfr first = Hfr.builder().ledgerDataSource(server.dataSource).leaseTtl(LEASE_TTL).decisionSink(decisions::add).build()) {
        for (int round = 0; round < 5 && ref == null; round++) {
          String r = "fresh-order-" + round;
          TaskScope task = first.newTask(TaskSpec.builder(TENANT, taskOf(r)).build());
          boolean lost;
          try (AutoCloseable bound = task.bindCurrentThread()) {
            lost = placeThenCrash(first, service, r, rounds);
          }
          if (lost) {
            ref = r;
            taskId = taskOf(r); // left open: this engine's process is gone as far as the task knows
          } else {
            task.close();
          }
        }
      }
      assertThat(ref).as("an outcome was lost in one of the rounds: %s", rounds).isNotNull();
      Thread.sleep(LEASE_TTL.toMillis()); // the dead call's lease lapses

      decisions.clear();
      try (Hfr fresh = Hfr.builder().ledgerDataSource(server.dataSource).leaseTtl(LEASE_TTL).decisionSink(decisions::add).build()) {
        String id = taskId;
        List<PendingTask> pending = fresh.resumePending();
        assertThat(pending).singleElement().satisfies(p -> {
          assertThat(p.taskId()).isEqualTo(id);
          assertThat(p.unfinishedWrites()).singleElement().satisfies(w -> assertThat(w.state()).isEqualTo(LedgerState.UNKNOWN));
        });
        try (TaskScope resumed = fresh.openTask(pending.get(0).spec())) {
          assertThat(fresh.execute(CREATE_R2, order(service, ref))).isEqualTo("order " + ref);
        }
      }
      assertReconciledOnce(service, ref);
    }
  }

  /**
   * Places order {@code ref} in the task open on this thread, then kills and restarts the server. True when
   * the outcome was lost (the record is PREPARED again); false when the WAL writer got to it first.
   */
  private boolean placeThenCrash(Hfr hfr, OrderService service, String ref, List<String> rounds) throws Exception {
    long[] logEndBeforeOutcome = new long[1];
    ToolInvocation<String> order = order(service, ref, () -> logEndBeforeOutcome[0] = server.lsn("pg_current_wal_insert_lsn()"));
    assertThat(hfr.execute(CREATE_R2, order)).isEqualTo("order " + ref);
    assertThat(state(ref)).isEqualTo(LedgerState.COMMITTED);
    long written = server.lsn("pg_current_wal_lsn()");
    if (written > logEndBeforeOutcome[0]) {
      rounds.add(ref + ": the outcome's WAL was written out before the kill, which would not lose it");
      return false;
    }
    server = server.killAndRestart();
    LedgerState after = state(ref);
    rounds.add(ref + ": " + after + " after the crash");
    assertThat(service.ordersFor(ref)).isEqualTo(1);
    return after == LedgerState.PREPARED;
  }

  private void assertReconciledOnce(OrderService service, String ref) throws Exception {
    assertThat(service.ordersFor(ref)).as("orders placed for %s", ref).isEqualTo(1);
    assertThat(state(ref)).isEqualTo(LedgerState.RECONCILED_COMMITTED);
    assertThat(decisions).as("decisions of the second call").anyMatch(e -> e.reason() == Reason.RECONCILED_COMMITTED);
  }

  /** The record's state, read with plain SQL: opening a ledger here would write, and flush, before the kill. */
  private LedgerState state(String ref) throws Exception {
    try (Connection c = server.dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT state FROM hfr_ledger WHERE tenant = ? AND key = ?")) {
      ps.setString(1, TENANT);
      ps.setString(2, keyOf(ref));
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).as("a record for %s", ref).isTrue();
        return LedgerState.valueOf(rs.getString(1));
      }
    }
  }

  /** The key of order {@code ref}: the first write of its tool and arguments in its task. */
  private static String keyOf(String ref) {
    return IdempotencyKeys.key(TENANT, taskOf(ref), CREATE_R2.name(), List.of(ref), 0);
  }

  private static String taskOf(String ref) {
    return "task-" + ref;
  }

  private ToolInvocation<String> order(OrderService service, String ref) {
    return order(service, ref, () -> {});
  }

  @FunctionalInterface
  interface Probe {
    void run() throws Exception;
  }

  /** An R2 order as the annotation processor would generate it: POST without a key, reconcile by ref. */
  private ToolInvocation<String> order(OrderService service, String ref, Probe beforeSending) {
    OrderServiceClient orders = new OrderServiceClient(service.port());
    return new ToolInvocation<>() {
      @Override
      public String proceed(String idempotencyKey) throws Exception {
        beforeSending.run(); // the prepare is committed by now; the outcome comes after this
        return orders.place("/r2/orders", ref, null);
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return ref;
      }

      @Override
      public Optional<String> reconcile() throws Exception {
        return orders.find(ref);
      }
    };
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** A PostgreSQL server on a fixed port and data directory, so that it can be killed and started again in its place. */
  record Server(EmbeddedPostgres pg, Path dataDir, int port, PGSimpleDataSource dataSource) {

    static Server start(Path dataDir, int port) throws Exception {
      EmbeddedPostgres pg = EmbeddedPostgres.builder()
          .setDataDirectory(dataDir)
          .setCleanDataDirectory(false)
          .setPort(port)
          .setServerConfig("synchronous_commit", "on")
          .setServerConfig("fsync", "on")
          .setServerConfig("wal_writer_delay", "10000ms")
          .setServerConfig("autovacuum", "off")
          .setServerConfig("recovery_init_sync_method", "syncfs") // one syncfs at crash recovery, not one fsync per file
          .start();
      PGSimpleDataSource ds = new PGSimpleDataSource();
      ds.setURL("jdbc:postgresql://localhost:" + port + "/postgres");
      ds.setUser("postgres");
      return new Server(pg, dataDir, port, ds);
    }

    long lsn(String function) throws Exception {
      return PostgresOutcomeFlushTest.lsn(dataSource, function);
    }

    /** SIGKILL to the postmaster and every process under it (nothing flushes on the way down), then a start in its place. */
    Server killAndRestart() throws Exception {
      long pid = Long.parseLong(Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
      ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
      List<ProcessHandle> all = new ArrayList<>(postmaster.descendants().toList());
      all.add(0, postmaster);
      all.forEach(ProcessHandle::destroyForcibly);
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (all.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      pg.close(); // its pg_ctl stop finds no server; this releases the data directory's lock
      return start(dataDir, port);
    }
  }
}
