package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.LedgerCorruptedException;
import dev.hfr.runtime.ledger.LedgerCorruptedException.Damage;
import dev.hfr.runtime.ledger.LedgerStorageException;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The embedded ledger's settled records and closed tasks, on disk in {@code ledger.db}: a SQLite database
 * in WAL mode, so the heap holds only unsettled work and opening reads no history. Each row keeps the
 * record exactly as the journal writes it ({@link JournalCodec#encodePut}) with its CRC32C, checked on every
 * read: SQLite finds a broken page, the CRC a changed record. Rows are found by a {@link KeyHash} of their tenant
 * and key (and of their task), whose small index is what keeps moves cheap as the store grows; every read checks
 * the row's own tenant and key as well.
 *
 * <p>The <em>writer</em> connection is used by the ledger's housekeeping alone (moves, retention deletes); a few
 * <em>reader</em> connections serve point reads, from any thread. WAL mode lets readers run while the writer
 * commits, so a write of the ledger never waits for housekeeping. A lease held when a row was moved belongs to the process that moved it: each open takes a
 * new lease epoch, and a row of an earlier epoch is read without its holder.
 */
public final class SettledStore implements AutoCloseable {

  /** The database's file name inside the ledger directory. */
  public static final String NAME = "ledger.db";
  /** Rows deleted per transaction by retention, so the reader and the next move never wait long. */
  public static final int DELETE_BATCH = 1000;

  /** 1: indexed by tenant and key; 2: by their {@link KeyHash}. */
  private static final int SCHEMA_VERSION = 2;
  /**
   * Rows handed to SQLite per {@code executeBatch}, within the move's one transaction. The driver keeps every bound
   * value of a batch until it runs (a payload array and boxed numbers per row): one batch for a whole move held
   * about 20 MB at 50,000 rows. Measured at 32 writers, two paired runs: write p99 7.7 and 7.8 ms against 8.1 and 8.7.
   */
  private static final int ROWS_PER_EXECUTE = 500;

  /** Reader connections: callers of different keys read at once (a point read takes microseconds). */
  private static final int READERS = 4;

  /** One reader connection and its statements; used by one thread at a time. */
  private static final class Reader implements AutoCloseable {
    final Connection connection;
    final PreparedStatement findRecord;
    final PreparedStatement findTask;
    final PreparedStatement taskRecords;

    Reader(Connection connection) throws SQLException {
      this.connection = connection;
      this.findRecord = connection.prepareStatement(
          "SELECT payload, crc, lease_epoch FROM records WHERE key_hash = ? AND tenant = ? AND key = ?");
      this.findTask = connection.prepareStatement("SELECT payload, crc FROM tasks WHERE tenant = ? AND task_id = ?");
      this.taskRecords = connection.prepareStatement(
          "SELECT payload, crc, lease_epoch FROM records WHERE task_hash = ? AND tenant = ? AND task_id = ?");
    }

    @Override
    public void close() throws SQLException {
      connection.close();
    }
  }

  private final Path file;
  private final Connection writer;
  private final BlockingQueue<Reader> readers;
  private final long leaseEpoch;
  private final PreparedStatement updateRecord;
  private final PreparedStatement insertRecord;
  private final PreparedStatement upsertTask;
  private final PreparedStatement deleteRecords;
  private final PreparedStatement deleteTasks;

  private SettledStore(Path file, Connection writer, BlockingQueue<Reader> readers, long leaseEpoch) throws SQLException {
    this.file = file;
    this.writer = writer;
    this.readers = readers;
    this.leaseEpoch = leaseEpoch;
    this.updateRecord = writer.prepareStatement("UPDATE records SET task_id = ?, task_hash = ?, updated_at = ?,"
        + " lease_epoch = ?, payload = ?, crc = ? WHERE key_hash = ? AND tenant = ? AND key = ?");
    this.insertRecord = writer.prepareStatement("INSERT INTO records(task_id, task_hash, updated_at, lease_epoch, payload,"
        + " crc, key_hash, tenant, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    this.upsertTask = writer.prepareStatement(
        "INSERT INTO tasks(tenant, task_id, updated_at, payload, crc) VALUES (?, ?, ?, ?, ?)"
            + " ON CONFLICT(tenant, task_id) DO UPDATE SET updated_at = excluded.updated_at, payload = excluded.payload, crc = excluded.crc");
    this.deleteRecords = writer.prepareStatement(
        "DELETE FROM records WHERE rowid IN (SELECT rowid FROM records WHERE updated_at < ? ORDER BY updated_at LIMIT ?)");
    this.deleteTasks = writer.prepareStatement(
        "DELETE FROM tasks WHERE rowid IN (SELECT rowid FROM tasks WHERE updated_at < ? ORDER BY updated_at LIMIT ?)");
  }

  /**
   * Opens (or creates) the store in {@code directory} and takes the next lease epoch.
   *
   * @throws LedgerCorruptedException if the file is not a SQLite database or SQLite finds it damaged
   * @throws LedgerStorageException on any other failure
   */
  public static SettledStore open(Path directory, ForcePolicy policy) {
    Path file = directory.resolve(NAME);
    Connection writer = null;
    BlockingQueue<Reader> readers = new ArrayBlockingQueue<>(READERS);
    try {
      writer = connect(file, policy, WRITER_CACHE_KIB);
      long epoch;
      try (Statement s = writer.createStatement()) {
        s.execute("PRAGMA wal_autocheckpoint = " + CHECKPOINT_PAGES);
        s.execute("PRAGMA journal_size_limit = " + (long) CHECKPOINT_PAGES * PAGE_BYTES);
        createOrUpgrade(file, writer, s);
        s.execute("INSERT INTO meta(name, value) VALUES ('lease_epoch', 1) ON CONFLICT(name) DO UPDATE SET value = value + 1");
        try (ResultSet rs = s.executeQuery("SELECT value FROM meta WHERE name = 'lease_epoch'")) {
          rs.next();
          epoch = rs.getLong(1);
        }
      }
      writer.setAutoCommit(false);
      for (int i = 0; i < READERS; i++) {
        readers.add(new Reader(connect(file, policy, READER_CACHE_KIB)));
      }
      return new SettledStore(file, writer, readers, epoch);
    } catch (SQLException e) {
      readers.forEach(SettledStore::closeQuietly);
      closeQuietly(writer);
      throw failure(file, "open", e);
    } catch (RuntimeException e) {
      readers.forEach(SettledStore::closeQuietly);
      closeQuietly(writer);
      throw e;
    }
  }

  private static void createOrUpgrade(Path file, Connection writer, Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM sqlite_master")) {
      if (rs.next() && rs.getLong(1) == 0) {
        // A new file: its page size is set once, before anything is in it (a WAL database keeps its size). Measured
        // on a million moves, 16 KB pages take 27 % less CPU than 4 KB (fewer pages and system calls).
        s.execute("PRAGMA journal_mode = DELETE");
        s.execute("PRAGMA page_size = " + PAGE_BYTES);
        s.execute("VACUUM");
        s.execute("PRAGMA journal_mode = WAL");
      }
    }
    s.execute("CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
    int found;
    try (ResultSet rs = s.executeQuery("SELECT value FROM meta WHERE name = 'schema'")) {
      found = rs.next() ? rs.getInt(1) : 0;
    }
    if (found > SCHEMA_VERSION) {
      throw new LedgerStorageException(file + " was written by a newer HFR (schema " + found + "); this one reads "
          + SCHEMA_VERSION + " and older: run the newer version, or restore the directory from a backup");
    }
    s.execute("CREATE TABLE IF NOT EXISTS tasks(tenant TEXT NOT NULL, task_id TEXT NOT NULL, updated_at INTEGER NOT NULL,"
        + " payload BLOB NOT NULL, crc INTEGER NOT NULL, PRIMARY KEY(tenant, task_id))");
    s.execute("CREATE INDEX IF NOT EXISTS tasks_by_age ON tasks(updated_at)");
    if (found == 1) {
      upgradeFromKeyIndex(writer, s);
      return;
    }
    s.execute("CREATE TABLE IF NOT EXISTS records(tenant TEXT NOT NULL, key TEXT NOT NULL, task_id TEXT,"
        + " updated_at INTEGER NOT NULL, lease_epoch INTEGER NOT NULL, payload BLOB NOT NULL, crc INTEGER NOT NULL,"
        + " key_hash INTEGER, task_hash INTEGER)");
    createRecordIndexes(s);
    s.execute("INSERT OR IGNORE INTO meta(name, value) VALUES ('schema', " + SCHEMA_VERSION + ")");
  }

  private static void createRecordIndexes(Statement s) throws SQLException {
    s.execute("CREATE INDEX IF NOT EXISTS records_by_hash ON records(key_hash)");
    s.execute("CREATE INDEX IF NOT EXISTS records_by_age ON records(updated_at)");
    s.execute("CREATE INDEX IF NOT EXISTS records_by_task_hash ON records(task_hash) WHERE task_hash IS NOT NULL");
  }

  /** Schema 1 to 2, in one transaction: hash every row's key and task, and index the hashes instead of the keys. */
  private static void upgradeFromKeyIndex(Connection writer, Statement s) throws SQLException {
    org.sqlite.Function.create(writer, "hfr_key_hash", new org.sqlite.Function() {
      @Override
      protected void xFunc() throws SQLException {
        result(KeyHash.of(value_text(0), value_text(1)));
      }
    });
    s.execute("BEGIN IMMEDIATE");
    try {
      s.execute("ALTER TABLE records ADD COLUMN key_hash INTEGER");
      s.execute("ALTER TABLE records ADD COLUMN task_hash INTEGER");
      s.execute("UPDATE records SET key_hash = hfr_key_hash(tenant, key),"
          + " task_hash = CASE WHEN task_id IS NULL THEN NULL ELSE hfr_key_hash(tenant, task_id) END");
      s.execute("DROP INDEX IF EXISTS records_by_key");
      s.execute("DROP INDEX IF EXISTS records_by_task");
      createRecordIndexes(s);
      s.execute("UPDATE meta SET value = " + SCHEMA_VERSION + " WHERE name = 'schema'");
      s.execute("COMMIT");
    } catch (SQLException | RuntimeException e) {
      s.execute("ROLLBACK");
      throw e;
    } finally {
      org.sqlite.Function.destroy(writer, "hfr_key_hash");
    }
  }

  private static final int PAGE_BYTES = 16 * 1024;
  /**
   * Pages the WAL holds before a commit copies them into the database (SQLite's default is 1,000): an index page
   * that several moves change is copied once. Measured, 19 % fewer bytes written; the WAL is kept to this size.
   */
  private static final int CHECKPOINT_PAGES = 5_000;

  /** Page cache of the writer, outside the Java heap: the index pages a batch of moves touches stay in it. */
  private static final int WRITER_CACHE_KIB = 32 * 1024;
  private static final int READER_CACHE_KIB = 4 * 1024;

  private static Connection connect(Path file, ForcePolicy policy, int cacheKib) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    // FULL: a commit is fsynced before it returns, so the journal may forget what was moved here.
    config.setSynchronous(policy == ForcePolicy.EVERY_WRITE ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout(10_000);
    config.setCacheSize(-cacheKib);
    config.setTempStore(SQLiteConfig.TempStore.MEMORY);
    // else every INSERT runs a query for the new rowid, which nothing here reads: a fifth of a move's time
    config.setGetGeneratedKeys(false);
    return config.createConnection("jdbc:sqlite:" + file);
  }

  /** The database file. */
  public Path file() {
    return file;
  }

  /** A read on one of the reader connections. */
  @FunctionalInterface
  private interface Read<T> {
    T on(Reader reader) throws SQLException;
  }

  private <T> T read(String what, Read<T> read) {
    Reader reader;
    try {
      reader = readers.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LedgerStorageException("interrupted waiting to " + what + " in " + file, e);
    }
    try {
      return read.on(reader);
    } catch (SQLException e) {
      throw failure(file, what, e);
    } finally {
      readers.add(reader);
    }
  }

  /** The settled entry of {@code tenant}/{@code key}, or {@code null}. Any thread. */
  public StoredEntry find(String tenant, String key) {
    return read("read tenant " + tenant + " key " + key, r -> {
      r.findRecord.setLong(1, KeyHash.of(tenant, key));
      r.findRecord.setString(2, tenant);
      r.findRecord.setString(3, key);
      try (ResultSet rs = r.findRecord.executeQuery()) {
        return rs.next() ? entryOf(rs, tenant + "/" + key) : null;
      }
    });
  }

  /** The settled records of one task. Any thread. */
  public List<StoredEntry> taskEntries(String tenant, String taskId) {
    return read("read the records of task " + taskId + " of tenant " + tenant, r -> {
      r.taskRecords.setLong(1, KeyHash.of(tenant, taskId));
      r.taskRecords.setString(2, tenant);
      r.taskRecords.setString(3, taskId);
      List<StoredEntry> out = new ArrayList<>();
      try (ResultSet rs = r.taskRecords.executeQuery()) {
        while (rs.next()) {
          out.add(entryOf(rs, "a record of task " + taskId + " of tenant " + tenant));
        }
      }
      return out;
    });
  }

  /** The closed checkpoint of {@code tenant}/{@code taskId}, or {@code null}. Any thread. */
  public TaskCheckpoint findTask(String tenant, String taskId) {
    return read("read the checkpoint of task " + taskId + " of tenant " + tenant, r -> {
      r.findTask.setString(1, tenant);
      r.findTask.setString(2, taskId);
      try (ResultSet rs = r.findTask.executeQuery()) {
        return rs.next() ? decode(rs, "the checkpoint of task " + taskId + " of tenant " + tenant).task() : null;
      }
    });
  }

  /**
   * Stores {@code entries} and {@code tasks} in one transaction, durable (under {@link ForcePolicy#EVERY_WRITE})
   * when this returns. Each entry's key is added to {@code storedKeys} before the rows can be read; an entry the
   * filter had never seen is inserted without looking for its row first ({@code null}: look for every row).
   * Housekeeping thread only.
   */
  public synchronized void putAll(Collection<StoredEntry> entries, Collection<TaskCheckpoint> tasks, StoredKeys storedKeys) {
    // In hash order the index's cursor moves forward instead of jumping: measured, a batch of 20,000 random keys
    // goes in twice as fast sorted as unsorted.
    List<Hashed> inHashOrder = new ArrayList<>(entries.size());
    for (StoredEntry e : entries) {
      inHashOrder.add(new Hashed(KeyHash.of(e.tenant(), e.key()), e));
    }
    inHashOrder.sort(null);
    try {
      Batch inserts = new Batch(insertRecord);
      for (Hashed h : inHashOrder) {
        StoredEntry e = h.entry;
        byte[] payload = JournalCodec.encodePut(e);
        boolean neverStored = storedKeys != null && storedKeys.add(h.keyHash);
        if (!neverStored) { // it may have moved before and settled again since: its row is updated
          bindRecord(updateRecord, h.keyHash, e, payload);
          if (updateRecord.executeUpdate() == 1) {
            continue;
          }
        }
        bindRecord(insertRecord, h.keyHash, e, payload);
        inserts.added();
      }
      inserts.flush();
      Batch upserts = new Batch(upsertTask);
      for (TaskCheckpoint t : tasks) {
        byte[] payload = JournalCodec.encodeTask(t);
        upsertTask.setString(1, t.tenant());
        upsertTask.setString(2, t.taskId());
        upsertTask.setLong(3, t.updatedAt().toEpochMilli());
        upsertTask.setBytes(4, payload);
        upsertTask.setInt(5, JournalCodec.crc(payload, 0, payload.length));
        upserts.added();
      }
      upserts.flush();
      writer.commit();
    } catch (SQLException e) {
      rollbackQuietly();
      throw failure(file, "store " + entries.size() + " settled records", e);
    }
  }

  /** A statement's rows, handed to SQLite {@value #ROWS_PER_EXECUTE} at a time. */
  private static final class Batch {
    private final PreparedStatement statement;
    private int pending;

    Batch(PreparedStatement statement) {
      this.statement = statement;
    }

    /** The statement's parameters are bound: queue them as a row. */
    void added() throws SQLException {
      statement.addBatch();
      if (++pending == ROWS_PER_EXECUTE) {
        flush();
      }
    }

    void flush() throws SQLException {
      if (pending > 0) {
        statement.executeBatch();
        pending = 0;
      }
    }
  }

  /** An entry and its {@link KeyHash}, computed once for the sort and the row. */
  private record Hashed(long keyHash, StoredEntry entry) implements Comparable<Hashed> {
    @Override
    public int compareTo(Hashed other) {
      return Long.compare(keyHash, other.keyHash);
    }
  }

  /** Binds both record statements alike: the row's values, then the hash, tenant and key that find it. */
  private void bindRecord(PreparedStatement statement, long keyHash, StoredEntry e, byte[] payload) throws SQLException {
    String taskId = e.record().taskId();
    statement.setString(1, taskId);
    if (taskId == null) {
      statement.setNull(2, java.sql.Types.BIGINT);
    } else {
      statement.setLong(2, KeyHash.of(e.tenant(), taskId));
    }
    statement.setLong(3, e.record().updatedAt().toEpochMilli());
    statement.setLong(4, leaseEpoch);
    statement.setBytes(5, payload);
    statement.setInt(6, JournalCodec.crc(payload, 0, payload.length));
    statement.setLong(7, keyHash);
    statement.setString(8, e.tenant());
    statement.setString(9, e.key());
  }

  /**
   * Deletes up to {@link #DELETE_BATCH} records (and as many closed tasks) last changed before {@code
   * cutoffMillis}, in one short transaction; returns how many records. Housekeeping thread only.
   */
  public synchronized int deleteBatchBefore(long cutoffMillis) {
    try {
      deleteRecords.setLong(1, cutoffMillis);
      deleteRecords.setInt(2, DELETE_BATCH);
      int records = deleteRecords.executeUpdate();
      deleteTasks.setLong(1, cutoffMillis);
      deleteTasks.setInt(2, DELETE_BATCH);
      deleteTasks.executeUpdate();
      writer.commit();
      return records;
    } catch (SQLException e) {
      rollbackQuietly();
      throw failure(file, "delete expired records", e);
    }
  }

  /**
   * A filter of every key the store holds, sized for twice as many (a full scan of the key index: about a second
   * per million records, on the housekeeping thread).
   */
  public StoredKeys keys() {
    return read("read every key", r -> {
      long rows;
      try (Statement s = r.connection.createStatement(); ResultSet rs = s.executeQuery("SELECT max(rowid) FROM records")) {
        rows = rs.next() ? rs.getLong(1) : 0;
      }
      StoredKeys keys = new StoredKeys(Math.max(1 << 20, 2 * rows));
      // the hashes alone: SQLite reads them from their index, a fraction of the table
      try (Statement s = r.connection.createStatement(); ResultSet rs = s.executeQuery("SELECT key_hash FROM records")) {
        while (rs.next()) {
          keys.add(rs.getLong(1));
        }
      }
      return keys;
    });
  }

  /** Rows held (records only). */
  public long size() {
    return read("count records", r -> {
      try (Statement s = r.connection.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM records")) {
        rs.next();
        return rs.getLong(1);
      }
    });
  }

  private StoredEntry entryOf(ResultSet rs, String what) throws SQLException {
    StoredEntry e = decode(rs, what).put();
    if (rs.getLong(3) != leaseEpoch && e.leaseOwner() != null) {
      // moved by an earlier process, which has since died (this one holds the directory's lock)
      return new StoredEntry(e.record(), null, 0L);
    }
    return e;
  }

  private JournalCodec.Frame decode(ResultSet rs, String what) throws SQLException {
    byte[] payload = rs.getBytes(1);
    int crc = rs.getInt(2);
    if (payload == null || JournalCodec.crc(payload, 0, payload.length) != crc) {
      throw damaged(what, "the row's CRC32C does not match its bytes");
    }
    try {
      return JournalCodec.decode(payload, 0, payload.length);
    } catch (IllegalArgumentException e) {
      throw damaged(what, "the row's bytes do not decode: " + e.getMessage());
    }
  }

  private LedgerCorruptedException damaged(String what, String reason) {
    return new LedgerCorruptedException(file, List.of(new Damage(0, 0, 0, reason, what)), -1,
        "ledger store " + file + " holds a damaged row (" + what + "): " + reason + ". The ledger does not guess what it "
            + "held. Restore the ledger directory from a backup, or move " + NAME + " (with its -wal and -shm files) aside and call"
            + " EmbeddedFileLedger.repair on the directory to start its settled records over (a settled write whose record is"
            + " lost may then run again).");
  }

  private static RuntimeException failure(Path file, String what, SQLException e) {
    if (e instanceof SQLiteException s && isDamage(s.getResultCode())) {
      return new LedgerCorruptedException(file, List.of(new Damage(0, 0, 0, s.getMessage(), null)), -1,
          "ledger store " + file + " is damaged (SQLite: " + s.getMessage() + ") while trying to " + what + ". Nothing was "
              + "changed. Restore the ledger directory from a backup, or move " + NAME + " (with its -wal and -shm files) aside"
              + " and call EmbeddedFileLedger.repair on the directory to start its settled records over (a settled write"
              + " whose record is lost may then run again).");
    }
    return new LedgerStorageException("ledger store " + file + ": could not " + what + ": " + e.getMessage(), e);
  }

  private static boolean isDamage(SQLiteErrorCode code) {
    return code == SQLiteErrorCode.SQLITE_CORRUPT || code == SQLiteErrorCode.SQLITE_NOTADB
        || code.name().startsWith("SQLITE_CORRUPT_");
  }

  private void rollbackQuietly() {
    try {
      writer.rollback();
    } catch (SQLException ignored) {
      // the failure that led here is the one reported
    }
  }

  @Override
  public void close() {
    readers.forEach(SettledStore::closeQuietly);
    try {
      writer.commit();
      try (Statement s = writer.createStatement()) {
        writer.setAutoCommit(true);
        s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      }
    } catch (SQLException e) {
      // the WAL stays; the next open replays it
    }
    closeQuietly(writer);
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception ignored) {
      // closing after a failure; the first failure is the one reported
    }
  }
}
