package dev.hfr.benchmarks.ledger;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import org.sqlite.SQLiteConfig;

/**
 * The candidate the embedded ledger did not become: every record in SQLite (WAL mode), written by one thread
 * that runs whatever callers queued in one transaction (group commit) and commits with {@code fsync} when the
 * batch holds a prepare, without when it holds only outcomes, as the journal does. It does what the engine
 * asks of the ledger for an R1 write (a prepare that creates the record if absent, leased; then the commit),
 * with the same columns and indexes the ledger would need (key, settled age for retention, task).
 */
final class SqliteOnlyLedger implements AutoCloseable {

  private record Op(boolean prepare, String key, long now, CompletableFuture<Boolean> done) {}

  private final Connection connection;
  private final PreparedStatement find;
  private final PreparedStatement insert;
  private final PreparedStatement commit;
  private final BlockingQueue<Op> queue = new LinkedBlockingQueue<>();
  private final Thread writer;
  private volatile boolean closed;

  SqliteOnlyLedger(Path directory) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    connection = config.createConnection("jdbc:sqlite:" + directory.resolve("ledger.sqlite"));
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS records(tenant TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL,"
          + " args_hash TEXT NOT NULL, state INTEGER NOT NULL, attempts INTEGER NOT NULL, result_hash TEXT,"
          + " fencing_token INTEGER NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, task_id TEXT,"
          + " lease_owner TEXT, lease_expires_at INTEGER NOT NULL)");
      s.execute("CREATE UNIQUE INDEX IF NOT EXISTS records_by_key ON records(tenant, key)");
      s.execute("CREATE INDEX IF NOT EXISTS records_settled ON records(updated_at) WHERE state <> 0");
      s.execute("CREATE INDEX IF NOT EXISTS records_by_task ON records(tenant, task_id) WHERE task_id IS NOT NULL");
    }
    connection.setAutoCommit(false);
    find = connection.prepareStatement("SELECT state FROM records WHERE tenant = ? AND key = ?");
    insert = connection.prepareStatement("INSERT INTO records VALUES (?, ?, ?, ?, 0, 0, NULL, 1, ?, ?, ?, ?, ?)");
    commit = connection.prepareStatement(
        "UPDATE records SET state = 1, attempts = attempts + 1, result_hash = ?, updated_at = ?, lease_owner = NULL WHERE tenant = ? AND key = ?");
    writer = new Thread(this::write, "sqlite-only-writer");
    writer.setDaemon(true);
    writer.start();
  }

  /** The engine's prepareIfAbsent for an R1 write: durable (fsync) when it returns. */
  boolean prepareIfAbsent(String key, long now) {
    return submit(new Op(true, key, now, new CompletableFuture<>()));
  }

  /** PREPARED -> COMMITTED: acknowledged once written, forced with the next prepare's commit. */
  void commit(String key, long now) {
    submit(new Op(false, key, now, new CompletableFuture<>()));
  }

  private boolean submit(Op op) {
    queue.add(op);
    return op.done().join();
  }

  private void write() {
    List<Op> batch = new ArrayList<>();
    boolean full = true;
    try {
      while (!closed) {
        batch.clear();
        batch.add(queue.take());
        queue.drainTo(batch, 4096);
        boolean needsFull = batch.stream().anyMatch(Op::prepare);
        if (needsFull != full) {
          connection.setAutoCommit(true); // the synchronous setting changes between transactions only
          try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA synchronous = " + (needsFull ? "FULL" : "NORMAL"));
          }
          connection.setAutoCommit(false);
          full = needsFull;
        }
        List<Boolean> created = new ArrayList<>(batch.size());
        for (Op op : batch) {
          created.add(op.prepare() ? insertIfAbsent(op) : update(op));
        }
        connection.commit();
        for (int i = 0; i < batch.size(); i++) {
          batch.get(i).done().complete(created.get(i));
        }
      }
    } catch (Exception e) {
      for (Op op : batch) {
        op.done().completeExceptionally(e);
      }
      for (Op op; (op = queue.poll()) != null; ) {
        op.done().completeExceptionally(e);
      }
    }
  }

  private boolean insertIfAbsent(Op op) throws SQLException {
    find.setString(1, "bench");
    find.setString(2, op.key());
    try (ResultSet rs = find.executeQuery()) {
      if (rs.next()) {
        return false;
      }
    }
    insert.setString(1, "bench");
    insert.setString(2, op.key());
    insert.setString(3, "PaymentTools.charge");
    insert.setString(4, op.key()); // an argument hash: 64 hex characters like the key
    insert.setLong(5, op.now());
    insert.setLong(6, op.now());
    insert.setString(7, "task-" + op.key().substring(0, 16));
    insert.setString(8, "worker-1");
    insert.setLong(9, op.now() + 20_000);
    insert.executeUpdate();
    return true;
  }

  private boolean update(Op op) throws SQLException {
    commit.setString(1, op.key());
    commit.setLong(2, op.now());
    commit.setString(3, "bench");
    commit.setString(4, op.key());
    return commit.executeUpdate() == 1;
  }

  @Override
  public void close() throws Exception {
    closed = true;
    writer.interrupt();
    writer.join(10_000);
    connection.close();
  }
}
