package dev.hfr.runtime.ledger;

import dev.hfr.runtime.ledger.internal.LedgerRules;
import dev.hfr.runtime.ledger.internal.RetentionSweep;
import dev.hfr.runtime.ledger.internal.StoredEntry;
import dev.hfr.runtime.time.Clock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * The ledger in PostgreSQL, for several JVMs sharing one ledger.
 *
 * <p><b>Schema.</b> {@link #create} creates or migrates the schema: the table {@code hfr_ledger} (one row
 * per tenant and key), {@code hfr_task} (the latest checkpoint per tenant and task, §5.4) and {@code
 * hfr_ledger_schema} (the applied versions). Migrations run in one transaction under an advisory lock, so
 * JVMs starting together migrate once. Version 2 added {@code hfr_ledger.task_id} (rows written before it
 * have none) and {@code hfr_task}. Version 3 made {@code hfr_ledger.state} an enum type ({@code
 * hfr_ledger_state}) instead of text with a {@code CHECK}: the database still refuses any other state, but
 * checks it as it reads the value, where PostgreSQL parsed and planned the {@code CHECK} expression again at
 * every insert and update (docs/LEDGER.md, "PostgreSQL"). Version 4 made an attempt's outcome a HOT update
 * (PostgreSQL rewrites the row in place and touches no index): no index names a column the outcome changes.
 * The indexes that find pending and settled records are keyed on {@code created_at_ms} (never updated) and
 * split by the flag {@code may_be_pending}, which the outcome does not change either: it is set when a record
 * is prepared or moves back to PREPARED or UNKNOWN, and cleared in batches, at most every 10 s, once the
 * record has settled — by a sweep that a prepare starts on the ledger's own thread, so no call waits for it
 * (see {@link #pending}; docs/LEDGER.md, "PostgreSQL: schema version 4"). Version 5 dropped the index of a
 * task's records: a prepare writes two index entries (key, pending), and crash resume reads a task's
 * unfinished records through the pending index ({@link #unfinishedTaskRecords}).
 *
 * <p><b>Concurrency.</b> Every operation is one statement on one row, so the row lock is all the locking
 * there is: the primary key {@code (tenant, key)} makes the first {@code prepare} win
 * ({@code INSERT ... ON CONFLICT DO NOTHING}); a transition is a conditional update ({@code UPDATE ... WHERE
 * state = expected AND fencing_token <= caller's token}), so of two racing writers exactly one moves the
 * record and the other is told why it did not (the row is read back to explain: unknown key, stale token
 * or another state). A lease increments the row's {@code fencing_token} in the same statement that checks
 * the current lease has expired, so tokens on a key only grow.
 *
 * <p><b>Durability.</b> Every statement waits for its write-ahead-log flush before it returns (as the
 * server's or the connection's {@code synchronous_commit} says: {@code on} by default), except an attempt's
 * outcome: a {@link #transition} out of {@link LedgerState#PREPARED} (to COMMITTED, FAILED or UNKNOWN)
 * commits with {@code synchronous_commit} off for its own transaction, so an R1 call waits for one flush,
 * its prepare's. The outcome survives the client being killed; a crash of the server or its machine, or a
 * failover to a standby, within about {@code 3 × wal_writer_delay} (600 ms by default) can lose it, and
 * then only it and everything logged after it: the record is back in PREPARED, which the engine treats as
 * in doubt and reconciles — never runs the write again blind. The argument, point by point, and the crash
 * test: docs/LEDGER.md, "PostgreSQL: an attempt's outcome is not flushed on its own".
 *
 * <p><b>Time.</b> Timestamps and lease expiries come from the injected {@link Clock} as epoch milliseconds.
 * Hosts sharing a ledger should keep their clocks in sync (NTP), but safety does not depend on it: a lease
 * that expires early on a skewed host only lets a second recoverer in, and the fencing token then refuses
 * the first one's writes.
 *
 * <p><b>Without its database.</b> {@link #start} returns whether or not the database answers. While it does
 * not (at start-up, or after a statement found it gone), every operation fails at once with a {@link
 * LedgerUnavailableException} — the engine refuses writes with {@code ledger_unavailable} and never sends them
 * unguarded — and the thread {@code hfr-ledger-rejoin} asks again every {@link #REJOIN_INTERVAL}; when the
 * database answers, it creates or migrates the schema and the ledger serves again. Each change is logged once
 * ({@code System.Logger} {@code dev.hfr.runtime.ledger.PostgresLedger}: WARNING when it goes, INFO when it is
 * back) and is readable from {@link #available()} and {@link #outages()}.
 *
 * <p>The PostgreSQL JDBC driver is an optional dependency of hfr-runtime: add {@code org.postgresql:postgresql}
 * to use this backend. The ledger borrows connections from the {@link DataSource} per operation (and for the
 * settled sweep and the retention's delete, from its thread {@code hfr-ledger-sweep}, which {@link #close} stops) and works with
 * auto-commit on or off. Thread-safe.
 */
public final class PostgresLedger implements IdempotencyLedger {

  /** The schema version this code creates and expects. */
  public static final int SCHEMA_VERSION = 5;

  private static final long MIGRATION_LOCK_ID = 0x4846524C45444752L; // "HFRLEDGR"
  private static final String COLUMNS =
      "tenant, key, tool, args_hash, state, attempts, result_hash, fencing_token, lease_owner, lease_expires_at_ms, created_at_ms, updated_at_ms, task_id";
  /**
   * What a transition reads back: the columns its caller does not know already (tenant and key are its
   * condition, the state its target, the update time its own), so the server sends 7 columns, not 13.
   */
  private static final String TRANSITION_RETURNS = "tool, args_hash, attempts, result_hash, fencing_token, created_at_ms, task_id";
  private static final String TASK_COLUMNS = "tenant, task_id, phase, spec, evidence, owner, started_at_ms, updated_at_ms";
  private static final String[] MIGRATION_NAMES = {
    "create hfr_ledger", "task ids on records; hfr_task checkpoints", "hfr_ledger.state as the enum hfr_ledger_state",
    "outcomes as HOT updates: may_be_pending, indexes on created_at_ms, fillfactor 90",
    "no index of a task's records: resume reads a task's unfinished records from the pending index"};
  private static final String NEEDS_RECONCILE = "('PREPARED', 'UNKNOWN')";
  private static final String ENDING_LEASE = ", lease_owner = NULL, lease_expires_at_ms = 0";

  private static final String[] MIGRATIONS = {
    // 1: the ledger
    """
    CREATE TABLE hfr_ledger (
      tenant              TEXT    NOT NULL,
      key                 TEXT    NOT NULL,
      tool                TEXT    NOT NULL,
      args_hash           TEXT    NOT NULL,
      state               TEXT    NOT NULL CHECK (state IN ('PREPARED', 'COMMITTED', 'FAILED', 'UNKNOWN',
                                                           'RECONCILED_COMMITTED', 'RECONCILED_ABSENT', 'COMPENSATED')),
      attempts            INTEGER NOT NULL,
      result_hash         TEXT,
      fencing_token       BIGINT  NOT NULL,
      lease_owner         TEXT,
      lease_expires_at_ms BIGINT  NOT NULL,
      created_at_ms       BIGINT  NOT NULL,
      updated_at_ms       BIGINT  NOT NULL,
      PRIMARY KEY (tenant, key)
    );
    CREATE INDEX hfr_ledger_pending ON hfr_ledger (created_at_ms) WHERE state IN ('PREPARED', 'UNKNOWN');
    CREATE INDEX hfr_ledger_settled ON hfr_ledger (updated_at_ms) WHERE state NOT IN ('PREPARED', 'UNKNOWN');
    """,
    // 2: the task each write belongs to, and the tasks' checkpoints (crash resume lists a task's writes)
    """
    ALTER TABLE hfr_ledger ADD COLUMN task_id TEXT;
    CREATE INDEX hfr_ledger_task ON hfr_ledger (tenant, task_id) WHERE task_id IS NOT NULL;
    CREATE TABLE hfr_task (
      tenant        TEXT   NOT NULL,
      task_id       TEXT   NOT NULL,
      phase         TEXT   NOT NULL CHECK (phase IN ('STARTED', 'ESCALATED', 'CLOSED')),
      spec          TEXT   NOT NULL,
      evidence      TEXT,
      owner         TEXT   NOT NULL,
      started_at_ms BIGINT NOT NULL,
      updated_at_ms BIGINT NOT NULL,
      PRIMARY KEY (tenant, task_id)
    );
    CREATE INDEX hfr_task_open ON hfr_task (started_at_ms) WHERE phase <> 'CLOSED';
    """,
    // 3: the state as an enum. The partial indexes name the state in their predicates, so they are made
    // again around the change of type (which rewrites the table once). IF EXISTS: an operator may have
    // dropped an index; it comes back.
    """
    CREATE TYPE hfr_ledger_state AS ENUM ('PREPARED', 'COMMITTED', 'FAILED', 'UNKNOWN',
                                          'RECONCILED_COMMITTED', 'RECONCILED_ABSENT', 'COMPENSATED');
    DROP INDEX IF EXISTS hfr_ledger_pending;
    DROP INDEX IF EXISTS hfr_ledger_settled;
    ALTER TABLE hfr_ledger DROP CONSTRAINT IF EXISTS hfr_ledger_state_check,
      ALTER COLUMN state TYPE hfr_ledger_state USING state::hfr_ledger_state;
    CREATE INDEX hfr_ledger_pending ON hfr_ledger (created_at_ms) WHERE state IN ('PREPARED', 'UNKNOWN');
    CREATE INDEX hfr_ledger_settled ON hfr_ledger (updated_at_ms) WHERE state NOT IN ('PREPARED', 'UNKNOWN');
    """,
    // 4: an outcome (PREPARED -> COMMITTED, ...) is a HOT update: it changes state, attempts, result_hash,
    // updated_at_ms and the lease, so no index may name any of them, in its key or its predicate. The flag
    // starts false for the rows already there (no table rewrite) and is set on the pending ones, found through
    // the old pending index before it goes; from then on a new row gets true. Free space on every page (fillfactor
    // 90) keeps an outcome's new row version on its page, which HOT needs.
    """
    ALTER TABLE hfr_ledger ADD COLUMN may_be_pending BOOLEAN NOT NULL DEFAULT false;
    UPDATE hfr_ledger SET may_be_pending = true WHERE state IN ('PREPARED', 'UNKNOWN');
    ALTER TABLE hfr_ledger ALTER COLUMN may_be_pending SET DEFAULT true;
    DROP INDEX IF EXISTS hfr_ledger_pending;
    DROP INDEX IF EXISTS hfr_ledger_settled;
    CREATE INDEX hfr_ledger_pending ON hfr_ledger (created_at_ms) WHERE may_be_pending;
    CREATE INDEX hfr_ledger_settled ON hfr_ledger (created_at_ms) WHERE NOT may_be_pending;
    ALTER TABLE hfr_ledger SET (fillfactor = 90);
    """,
    // 5: every write's record went into three indexes (key, task, pending). Resume asks only for a task's
    // unfinished records, which are all flagged may_be_pending, so the pending index finds them among the few
    // flagged ones; the task index cost each prepare (and each settled sweep's row) one more index entry.
    """
    DROP INDEX IF EXISTS hfr_ledger_task;
    """,
  };

  /** How often, at most, settled records are cleared of {@code may_be_pending} (piggy-backed on prepares). */
  static final Duration SETTLED_SWEEP_INTERVAL = Duration.ofSeconds(10);
  /**
   * Rows cleared (by the settled sweep) or deleted (by the retention's delete) per statement: each batch is one short
   * transaction, so a call that moves a settled record (a compensation, a lease) waits for at most one batch's row
   * locks.
   */
  private static final int SWEEP_BATCH = 1_000;
  private static final System.Logger LOG = System.getLogger(PostgresLedger.class.getName());
  /**
   * Clears the flag of up to one batch of settled records. {@code FOR UPDATE SKIP LOCKED}: a record being moved
   * right now is left for the next sweep, so the sweep never waits for a call and two JVMs' sweeps never deadlock;
   * a locked row's state cannot change before the update, so only settled records are cleared.
   */
  private static final String SWEEP_SETTLED =
      "WITH settled AS (SELECT tenant, key FROM hfr_ledger WHERE may_be_pending AND state NOT IN " + "('PREPARED', 'UNKNOWN')"
          + " LIMIT " + SWEEP_BATCH + " FOR UPDATE SKIP LOCKED) "
          + "UPDATE hfr_ledger h SET may_be_pending = false FROM settled WHERE h.tenant = settled.tenant AND h.key = settled.key";
  /**
   * Deletes up to one batch of the records settled before a cutoff (both parameters: creation and last change),
   * through the settled index, keyed on {@code created_at_ms}, once a sweep has put every settled record in it. A
   * record is created before it is last updated, so the creation's bound only lets the index bound the scan; should a
   * skewed host have stamped a creation later than an update, the record is kept longer, never deleted sooner. {@code
   * FOR UPDATE SKIP LOCKED}: a record a call holds right now is left for the next retention sweep, so the delete never
   * waits for a call.
   */
  static final String EXPIRE_SETTLED =
      "WITH expired AS (SELECT tenant, key FROM hfr_ledger WHERE NOT may_be_pending AND created_at_ms < ? AND updated_at_ms < ?"
          + " AND state NOT IN " + "('PREPARED', 'UNKNOWN')" + " LIMIT " + SWEEP_BATCH + " FOR UPDATE SKIP LOCKED) "
          + "DELETE FROM hfr_ledger h USING expired WHERE h.tenant = expired.tenant AND h.key = expired.key";

  /**
   * A transition: a conditional update, refused (no row) unless the record is in the expected state and the
   * caller's token is the key's latest. A transition that settles the write for good also ends the key's
   * lease in the same statement ({@link IdempotencyLedger#transition}), so the caller has nothing to release.
   * The states are literals (one statement per pair of states, prepared once per connection), not parameters:
   * a parameter cast to the enum is converted again at every execution. By expected and target state.
   *
   * <p>An attempt's outcome — a move out of PREPARED — commits without waiting for its WAL flush: {@code
   * set_config(..., true)} turns {@code synchronous_commit} off for this statement's transaction only (the
   * connection's own setting is untouched), and the commit reads it. It is the last condition of the {@code
   * WHERE}, evaluated on the row the primary key found (a volatile function is never hoisted out of the row
   * loop), so the update only matches a row after turning it off; a CTE did the same with a join, which cost
   * more to plan and run. Why losing such an outcome in a server crash is safe: docs/LEDGER.md, "PostgreSQL:
   * an attempt's outcome is not flushed on its own".
   */
  private static final String[][] TRANSITIONS = new String[LedgerState.values().length][LedgerState.values().length];
  /**
   * An outcome of a record this ledger has just inserted and still knows ({@link #inserted}): the same update
   * with the record's first version as its condition ({@code attempts = 0}, the inserted token and creation
   * time: any other writer's move, lease or re-creation changes one of them), so it reads nothing back — the
   * record after it is the known one moved to its target. {@code RETURNING} made the server keep the row in
   * a result store and send it: about a fifth of what an outcome's statement cost. By target state.
   */
  private static final String[] KNOWN_OUTCOMES = new String[LedgerState.values().length];

  static {
    for (LedgerState expected : LedgerState.values()) {
      for (LedgerState target : LedgerState.values()) {
        TRANSITIONS[expected.ordinal()][target.ordinal()] = transitionSql(expected, target, false);
      }
    }
    for (LedgerState target : LedgerState.values()) {
      KNOWN_OUTCOMES[target.ordinal()] = transitionSql(LedgerState.PREPARED, target, true);
    }
  }

  /**
   * The update moving a record from {@code expected} to {@code target}. {@code known}: the record's first
   * version is the condition and nothing is read back (only for outcomes, {@link #KNOWN_OUTCOMES}); else the
   * caller's token is and the columns its caller does not know are read back.
   */
  private static String transitionSql(LedgerState expected, LedgerState target, boolean known) {
    boolean outcome = expected == LedgerState.PREPARED;
    String alsoSet = "";
    if (target.needsReconcile()) { // a move back into PREPARED or UNKNOWN lists the record for pending() again
      alsoSet = ", may_be_pending = true"; // PREPARED -> UNKNOWN keeps the flag it has (true): still a HOT update
    } else if (LedgerRules.endsLease(target)) {
      alsoSet = ENDING_LEASE;
    }
    return "UPDATE hfr_ledger SET state = '" + target.name() + "'"
        + (known ? ", attempts = 1, result_hash = ?" : outcome ? ", attempts = attempts + 1, result_hash = COALESCE(?, result_hash)" : ", result_hash = COALESCE(?, result_hash)")
        + ", updated_at_ms = ?" + alsoSet
        + " WHERE tenant = ? AND key = ? AND state = '" + expected.name() + "' AND "
        + (known ? "attempts = 0 AND fencing_token = ? AND created_at_ms = ? " : "fencing_token <= ? ")
        + (outcome ? "AND set_config('synchronous_commit', 'off', true) IS NOT NULL " : "")
        + (known ? "" : "RETURNING " + TRANSITION_RETURNS);
  }

  /**
   * How many records {@link #inserted} holds at most: one per call between its prepare and its outcome, so a
   * few per thread; past this (calls that never reported an outcome) it starts again empty.
   */
  private static final int MAX_INSERTED = 4_096;

  private final DataSource dataSource;
  private final Clock clock;
  private final RetentionSweep sweep;
  private final AtomicLong lastSettledSweep;
  private final AtomicBoolean sweeping = new AtomicBoolean();
  /**
   * Held by the background settled sweep and by {@link #expire} (the retention's, in the background, or a caller's):
   * a sweep under way holds row locks that expire's own clearing skips, so the records it was clearing would outlive
   * their retention until the next one.
   */
  private final ReentrantLock sweepLock = new ReentrantLock();
  /** Runs the settled sweep and the retention's delete off the call path: one thread at most, gone after 30 s without work. */
  private final ThreadPoolExecutor sweeper = new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
    Thread t = new Thread(r, "hfr-ledger-sweep");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean closed;
  /** Whether the schema is in place and the database answered the last statement (see "Without its database"). */
  private volatile boolean ready;
  /** Since when the database has not answered (epoch ms), while {@link #ready} is false. */
  private volatile long downSinceMillis;
  private final AtomicLong outages = new AtomicLong();
  /** Runs once the database answers again: only while it is away. */
  private Thread rejoiner;
  private final List<Runnable> afterRejoin = new CopyOnWriteArrayList<>();
  /** The pool the ledger opened itself on a JDBC URL ({@link Ledgers}), closed with it; else {@code null}. */
  private volatile AutoCloseable ownedPool;
  /**
   * The records this ledger inserted whose outcome has not been recorded yet, so that the outcome's update
   * need not read the row back ({@link #KNOWN_OUTCOMES}). Only a shortcut: its condition makes it match only
   * the version inserted, and when it does not match the ordinary update runs.
   */
  private final ConcurrentHashMap<RecordId, LedgerRecord> inserted = new ConcurrentHashMap<>();

  private record RecordId(String tenant, String key) {}

  private PostgresLedger(DataSource dataSource, LedgerOptions options) {
    this.dataSource = dataSource;
    this.clock = options.clock();
    this.sweep = new RetentionSweep(options.retention(), clock.epochMillis());
    this.lastSettledSweep = new AtomicLong(clock.epochMillis());
  }

  /** How often a ledger whose database is away asks again. */
  public static final Duration REJOIN_INTERVAL = Duration.ofMillis(500);

  /** A ledger on {@code dataSource} with the default options; creates or migrates the schema. */
  public static PostgresLedger create(DataSource dataSource) {
    return create(dataSource, LedgerOptions.defaults());
  }

  /**
   * A ledger on {@code dataSource}; creates or migrates the schema, then deletes records that outlived the
   * retention.
   *
   * @throws LedgerStorageException if the database cannot be reached or migrated, or its schema is newer
   *     than this code
   */
  public static PostgresLedger create(DataSource dataSource, LedgerOptions options) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(options, "options");
    PostgresLedger ledger = new PostgresLedger(dataSource, options);
    ledger.migrate();
    ledger.ready = true;
    ledger.expire(Instant.ofEpochMilli(ledger.sweep.cutoff(ledger.clock.epochMillis())));
    return ledger;
  }

  /**
   * A ledger on {@code dataSource} that starts whether or not the database answers: as {@link #create}, except
   * that a database it cannot reach leaves it waiting for the database (operations fail with {@link
   * LedgerUnavailableException} until it answers; see "Without its database" above). Costs at most one
   * connection attempt on the calling thread, as long as the {@code DataSource} lets a connection request wait.
   *
   * @throws LedgerStorageException if the database answers but cannot be migrated, or its schema is newer than
   *     this code
   */
  public static PostgresLedger start(DataSource dataSource, LedgerOptions options) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(options, "options");
    PostgresLedger ledger = new PostgresLedger(dataSource, options);
    try {
      ledger.migrate();
      ledger.ready = true;
      ledger.expire(Instant.ofEpochMilli(ledger.sweep.cutoff(ledger.clock.epochMillis())));
    } catch (LedgerUnavailableException away) {
      // wentAway has logged it and started asking again
    }
    return ledger;
  }

  /** Closes {@code pool} when this ledger closes: the pool {@link Ledgers} opened for it. */
  PostgresLedger closing(AutoCloseable pool) {
    this.ownedPool = pool;
    return this;
  }

  /** The {@code DataSource} the ledger runs on: the application's, or the pool it opened on a JDBC URL. */
  public DataSource dataSource() {
    return dataSource;
  }

  /** Whether the database answers: the schema is in place and the last statement reached it. */
  public boolean available() {
    return ready;
  }

  /** How many times this ledger lost its database (or started without it). */
  public long outages() {
    return outages.get();
  }

  /**
   * Runs {@code action} on the rejoin thread each time the database answers again after an outage (after the
   * schema is in place); an exception it throws is logged and does not stop the rejoin.
   */
  public void afterRejoin(Runnable action) {
    afterRejoin.add(Objects.requireNonNull(action, "action"));
  }

  /** Whether {@code failure} says the database cannot be reached (rather than refusing a statement). */
  static boolean unreachable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
          || t instanceof java.net.ConnectException || t instanceof java.net.SocketTimeoutException) {
        return true;
      }
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        String state = sql.getSQLState();
        // 08: connection exception; 57P01-03: the server is shutting down or not yet accepting connections
        if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
          return true;
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /** The database went away (or was never there): logged once per outage; asks again in the background. */
  private synchronized void wentAway(Throwable failure) {
    if (!ready && rejoiner != null) {
      return;
    }
    ready = false;
    downSinceMillis = clock.epochMillis();
    outages.incrementAndGet();
    LOG.log(System.Logger.Level.WARNING, "PostgreSQL ledger: the database does not answer (" + failure.getMessage()
        + "); writes are refused (ledger_unavailable) until it does, reads go on; asking again every "
        + REJOIN_INTERVAL.toMillis() + " ms");
    if (!closed) {
      rejoiner = new Thread(this::rejoin, "hfr-ledger-rejoin");
      rejoiner.setDaemon(true);
      rejoiner.start();
    }
  }

  /** Asks until the database answers, then creates or migrates the schema and serves again. */
  private void rejoin() {
    String lastProblem = null;
    while (!closed) {
      try {
        Thread.sleep(REJOIN_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      try {
        migrate();
      } catch (LedgerUnavailableException stillAway) {
        continue;
      } catch (RuntimeException e) {
        if (!String.valueOf(e.getMessage()).equals(lastProblem)) { // once per distinct problem, not per attempt
          lastProblem = String.valueOf(e.getMessage());
          LOG.log(System.Logger.Level.ERROR, "PostgreSQL ledger: the database answers but the schema cannot be"
              + " created or migrated; writes stay refused: " + e.getMessage(), e);
        }
        continue;
      }
      synchronized (this) {
        ready = true;
        rejoiner = null;
      }
      LOG.log(System.Logger.Level.INFO, "PostgreSQL ledger: the database answers again after "
          + (clock.epochMillis() - downSinceMillis) + " ms; schema version " + SCHEMA_VERSION
          + " in place, writes are guarded again");
      for (Runnable action : afterRejoin) {
        try {
          action.run();
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "PostgreSQL ledger: a task run after rejoining failed: " + e, e);
        }
      }
      return;
    }
  }

  /** The schema version in the database. */
  public int schemaVersion() {
    return call("reading the schema version", c -> currentVersion(c));
  }

  private void migrate() {
    run("creating or migrating the ledger schema", c -> {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK_ID + ")");
        s.execute("CREATE TABLE IF NOT EXISTS hfr_ledger_schema (version INTEGER PRIMARY KEY, "
            + "applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), description TEXT NOT NULL)");
        int current = currentVersion(c);
        if (current > SCHEMA_VERSION) {
          throw new LedgerStorageException("the ledger schema in the database is version " + current
              + ", newer than this HFR's version " + SCHEMA_VERSION + "; upgrade HFR");
        }
        for (int v = current + 1; v <= SCHEMA_VERSION; v++) {
          s.execute(MIGRATIONS[v - 1]);
          try (PreparedStatement ins = c.prepareStatement("INSERT INTO hfr_ledger_schema (version, description) VALUES (?, ?)")) {
            ins.setInt(1, v);
            ins.setString(2, MIGRATION_NAMES[v - 1]);
            ins.executeUpdate();
          }
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
      return null;
    });
  }

  private static int currentVersion(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(version), 0) FROM hfr_ledger_schema")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @Override
  public LedgerRecord prepare(String tenant, String key, String tool, String argsHash) {
    LedgerRules.checkPrepare(tenant, key, tool, argsHash);
    checkOpen();
    long now = expireIfDue();
    StoredEntry fresh = LedgerRules.newEntry(tenant, key, tool, argsHash, now);
    return insertOrFind(fresh).record();
  }

  @Override
  public Prepared prepareIfAbsent(
      String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration leaseTtl) {
    LedgerRules.checkPrepare(tenant, key, tool, argsHash);
    LedgerRules.checkLease(tenant, key, owner, leaseTtl);
    if (taskId != null) {
      LedgerRules.checkId(taskId, "taskId", LedgerRules.MAX_NAME);
    }
    checkOpen();
    long now = expireIfDue();
    StoredEntry fresh = LedgerRules.newLeasedEntry(tenant, taskId, key, tool, argsHash, owner, leaseTtl, now);
    StoredEntry stored = insertOrFind(fresh);
    return stored == fresh ? new Prepared(fresh.record(), true, LedgerRules.leaseOf(fresh)) : new Prepared(stored.record(), false, null);
  }

  /**
   * Clears {@code may_be_pending} on the records that have settled since the last sweep, one batch per
   * statement until none is left; returns how many. {@link #pending} reads the records the flag is set on, so
   * this keeps that read to the few seconds' worth of records not swept yet (and the records really pending).
   */
  int sweepSettled() {
    checkOpen();
    return call("clearing settled records from the pending index", this::clearSettled);
  }

  private void sweepInBackground() {
    try {
      if (!closed) {
        sweepLock.lock();
        try {
          sweepSettled();
        } finally {
          sweepLock.unlock();
        }
      }
    } catch (RuntimeException e) {
      // Nothing is lost: the flags stay set, pending() filters by state, and the next sweep clears them.
      LOG.log(System.Logger.Level.WARNING, "PostgreSQL ledger: the sweep of settled records failed; the next one ("
          + SETTLED_SWEEP_INTERVAL.toSeconds() + " s) tries again: " + e.getMessage(), e);
    } finally {
      sweeping.set(false);
    }
  }

  private int clearSettled(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(SWEEP_SETTLED)) {
      return inBatches(c, ps);
    }
  }

  /**
   * Runs a statement of at most {@link #SWEEP_BATCH} rows, each run its own transaction, until a run finds fewer rows
   * (none is left) or the ledger closes (the rest waits for the next sweep); returns how many rows in all.
   */
  private int inBatches(Connection c, PreparedStatement batch) throws SQLException {
    int rows = 0;
    for (int last = SWEEP_BATCH; last == SWEEP_BATCH && !closed; ) {
      last = batch.executeUpdate();
      rows += last;
      if (!c.getAutoCommit()) {
        c.commit();
      }
    }
    return rows;
  }

  /**
   * Starts the settled sweep and the retention's delete in the background when they are due; returns the time the
   * caller's operation happens at. Neither runs on a caller's time: the settled sweep rewrites every record settled
   * since the last one (each an update that touches the indexes, as an outcome did before schema version 4), and
   * the retention's delete removes an interval's worth of records (by default an hour's writes) in one statement.
   */
  private long expireIfDue() {
    long now = clock.epochMillis();
    long last = lastSettledSweep.get();
    if (now - last >= SETTLED_SWEEP_INTERVAL.toMillis() && lastSettledSweep.compareAndSet(last, now) && sweeping.compareAndSet(false, true)) {
      sweeper.execute(this::sweepInBackground);
    }
    long cutoff = sweep.dueCutoff(now);
    if (cutoff >= 0) {
      sweeper.execute(() -> expireInBackground(Instant.ofEpochMilli(cutoff)));
    }
    return now;
  }

  /** The retention's delete, on the sweep thread. */
  private void expireInBackground(Instant cutoff) {
    try {
      if (!closed) {
        expire(cutoff);
      }
    } catch (RuntimeException e) {
      // Nothing is lost: the records stay, and the next delete (its cutoff is later) takes them too.
      LOG.log(System.Logger.Level.WARNING, "PostgreSQL ledger: deleting the records settled before " + cutoff
          + " failed; the next retention sweep tries again: " + e.getMessage(), e);
    }
  }

  /**
   * Inserts {@code fresh} unless its key exists; returns {@code fresh} itself if it was inserted, else the
   * existing row (after checking it records the same tool and arguments). The primary key decides: of
   * racing inserts exactly one creates the row, with its creator's lease if {@code fresh} carries one.
   */
  private StoredEntry insertOrFind(StoredEntry fresh) {
    LedgerRecord r = fresh.record();
    return call("preparing key " + r.key(), c -> {
      for (int round = 0; round < 3; round++) {
        try (PreparedStatement ps = c.prepareStatement(
            "INSERT INTO hfr_ledger (" + COLUMNS + ", may_be_pending) VALUES (?, ?, ?, ?, 'PREPARED', 0, NULL, ?, ?, ?, ?, ?, ?, true) "
                + "ON CONFLICT (tenant, key) DO NOTHING")) {
          ps.setString(1, r.tenant());
          ps.setString(2, r.key());
          ps.setString(3, r.tool());
          ps.setString(4, r.argsHash());
          ps.setLong(5, r.fencingToken());
          ps.setString(6, fresh.leaseOwner());
          ps.setLong(7, fresh.leaseExpiresAtMillis());
          ps.setLong(8, r.createdAt().toEpochMilli());
          ps.setLong(9, r.updatedAt().toEpochMilli());
          ps.setString(10, r.taskId());
          if (ps.executeUpdate() == 1) {
            remember(r);
            return fresh;
          }
        }
        StoredEntry existing = select(c, r.tenant(), r.key());
        if (existing != null) {
          LedgerRules.checkSameIntent(existing.record(), r.tool(), r.argsHash());
          return existing;
        }
        // the conflicting row expired between the two statements: insert again
      }
      throw new LedgerStorageException("key " + r.key() + " of tenant " + r.tenant() + " kept appearing and disappearing while preparing it");
    });
  }

  @Override
  public LedgerRecord transition(
      String tenant, String key, LedgerState expected, LedgerState target, String resultHash, long fencingToken) {
    LedgerRules.checkTransition(tenant, key, expected, target, resultHash);
    checkOpen();
    long now = clock.epochMillis();
    LedgerRecord known = expected == LedgerState.PREPARED ? inserted.remove(new RecordId(tenant, key)) : null;
    return call("moving key " + key + " from " + expected + " to " + target, c -> {
      if (known != null && known.fencingToken() <= fencingToken) {
        try (PreparedStatement ps = c.prepareStatement(KNOWN_OUTCOMES[target.ordinal()])) {
          ps.setString(1, resultHash);
          ps.setLong(2, now);
          ps.setString(3, tenant);
          ps.setString(4, key);
          ps.setLong(5, known.fencingToken());
          ps.setLong(6, known.createdAt().toEpochMilli());
          if (ps.executeUpdate() == 1) {
            return new LedgerRecord(tenant, key, known.tool(), known.argsHash(), target, 1, resultHash, known.fencingToken(),
                known.createdAt(), Instant.ofEpochMilli(now), known.taskId());
          }
        }
        // someone else moved, leased or re-created the record since: the ordinary update decides
      }
      for (int round = 0; round < 3; round++) {
        try (PreparedStatement ps = c.prepareStatement(TRANSITIONS[expected.ordinal()][target.ordinal()])) {
          ps.setString(1, resultHash);
          ps.setLong(2, now);
          ps.setString(3, tenant);
          ps.setString(4, key);
          ps.setLong(5, fencingToken);
          try (ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
              return new LedgerRecord(tenant, key, rs.getString(1), rs.getString(2), target, rs.getInt(3), rs.getString(4),
                  rs.getLong(5), Instant.ofEpochMilli(rs.getLong(6)), Instant.ofEpochMilli(now), rs.getString(7));
            }
          }
        }
        // Refused: read the row back and let the shared rules say why (they throw). If they would have
        // allowed it, the row changed between the two statements; try again.
        LedgerRules.applyTransition(select(c, tenant, key), tenant, key, expected, target, resultHash, fencingToken, now);
      }
      throw new LedgerStorageException("key " + key + " of tenant " + tenant + " kept changing while moving it to " + target);
    });
  }

  /** Keeps a record this ledger inserted until its outcome ({@link #inserted}). */
  private void remember(LedgerRecord fresh) {
    if (inserted.size() >= MAX_INSERTED) {
      inserted.clear();
    }
    inserted.put(new RecordId(fresh.tenant(), fresh.key()), fresh);
  }

  @Override
  public Optional<LedgerRecord> find(String tenant, String key) {
    LedgerRules.checkTenantKey(tenant, key);
    checkOpen();
    return call("reading key " + key, c -> {
      StoredEntry e = select(c, tenant, key);
      return e == null ? Optional.<LedgerRecord>empty() : Optional.of(e.record());
    });
  }

  @Override
  public Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl) {
    LedgerRules.checkLease(tenant, key, owner, ttl);
    checkOpen();
    long now = clock.epochMillis();
    long expiresAt = now + ttl.toMillis();
    return call("leasing key " + key, c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "UPDATE hfr_ledger SET fencing_token = fencing_token + 1, lease_owner = ?, lease_expires_at_ms = ? "
              + "WHERE tenant = ? AND key = ? AND (lease_owner IS NULL OR lease_expires_at_ms <= ? OR lease_owner = ?) "
              + "RETURNING fencing_token")) {
        ps.setString(1, owner);
        ps.setLong(2, expiresAt);
        ps.setString(3, tenant);
        ps.setString(4, key);
        ps.setLong(5, now);
        ps.setString(6, owner);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            return Optional.of(new Lease(tenant, key, owner, rs.getLong(1), Instant.ofEpochMilli(expiresAt)));
          }
        }
      }
      if (select(c, tenant, key) == null) {
        throw LedgerRules.unknown(tenant, key);
      }
      return Optional.<Lease>empty();
    });
  }

  @Override
  public Optional<Lease> renewLease(Lease lease, Duration ttl) {
    Objects.requireNonNull(lease, "lease");
    LedgerRules.checkLease(lease.tenant(), lease.key(), lease.owner(), ttl);
    checkOpen();
    long expiresAt = clock.epochMillis() + ttl.toMillis();
    return call("renewing the lease on key " + lease.key(), c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "UPDATE hfr_ledger SET lease_expires_at_ms = ? WHERE tenant = ? AND key = ? AND lease_owner = ? AND fencing_token = ?")) {
        ps.setLong(1, expiresAt);
        ps.setString(2, lease.tenant());
        ps.setString(3, lease.key());
        ps.setString(4, lease.owner());
        ps.setLong(5, lease.fencingToken());
        return ps.executeUpdate() == 1
            ? Optional.of(new Lease(lease.tenant(), lease.key(), lease.owner(), lease.fencingToken(), Instant.ofEpochMilli(expiresAt)))
            : Optional.<Lease>empty();
      }
    });
  }

  @Override
  public Optional<Lease> currentLease(String tenant, String key) {
    LedgerRules.checkTenantKey(tenant, key);
    checkOpen();
    long now = clock.epochMillis();
    return call("reading the lease on key " + key, c -> Optional.ofNullable(LedgerRules.liveLease(select(c, tenant, key), now)));
  }

  @Override
  public void releaseLease(Lease lease) {
    Objects.requireNonNull(lease, "lease");
    checkOpen();
    call("releasing the lease on key " + lease.key(), c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "UPDATE hfr_ledger SET lease_owner = NULL, lease_expires_at_ms = 0 "
              + "WHERE tenant = ? AND key = ? AND lease_owner = ? AND fencing_token = ?")) {
        ps.setString(1, lease.tenant());
        ps.setString(2, lease.key());
        ps.setString(3, lease.owner());
        ps.setLong(4, lease.fencingToken());
        ps.executeUpdate();
      }
      return null;
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Read through the index of records flagged {@code may_be_pending}: the pending ones, and those settled
   * since the last sweep of settled records (at most {@link #SETTLED_SWEEP_INTERVAL} ago while prepares
   * come in), so the read does not grow with the table.
   */
  @Override
  public List<LedgerRecord> pending() {
    checkOpen();
    return call("listing pending keys", c -> {
      List<LedgerRecord> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT " + COLUMNS + " FROM hfr_ledger WHERE may_be_pending AND state IN " + NEEDS_RECONCILE + " ORDER BY created_at_ms, tenant, key");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(read(rs).record());
        }
      }
      return out;
    });
  }

  @Override
  public Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint t) {
    LedgerRules.checkCheckpoint(t);
    checkOpen();
    return call("saving the checkpoint of task " + t.taskId(), c -> {
      // One statement: "before" reads the row as it was before the upsert (which runs whether or not it is read).
      try (PreparedStatement ps = c.prepareStatement(
          "WITH before AS (SELECT " + TASK_COLUMNS + " FROM hfr_task WHERE tenant = ? AND task_id = ?), "
              + "saved AS (INSERT INTO hfr_task (" + TASK_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
              + "ON CONFLICT (tenant, task_id) DO UPDATE SET phase = EXCLUDED.phase, spec = EXCLUDED.spec, evidence = EXCLUDED.evidence, "
              + "owner = EXCLUDED.owner, started_at_ms = EXCLUDED.started_at_ms, updated_at_ms = EXCLUDED.updated_at_ms RETURNING 1) "
              + "SELECT " + TASK_COLUMNS + " FROM before")) {
        ps.setString(1, t.tenant());
        ps.setString(2, t.taskId());
        ps.setString(3, t.tenant());
        ps.setString(4, t.taskId());
        ps.setString(5, t.phase().name());
        ps.setString(6, t.spec());
        ps.setString(7, t.evidence());
        ps.setString(8, t.owner());
        ps.setLong(9, t.startedAt().toEpochMilli());
        ps.setLong(10, t.updatedAt().toEpochMilli());
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? Optional.of(readTask(rs)) : Optional.<TaskCheckpoint>empty();
        }
      }
    });
  }

  @Override
  public Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId) {
    LedgerRules.checkTenantTask(tenant, taskId);
    checkOpen();
    return call("reading the checkpoint of task " + taskId, c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + TASK_COLUMNS + " FROM hfr_task WHERE tenant = ? AND task_id = ?")) {
        ps.setString(1, tenant);
        ps.setString(2, taskId);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? Optional.of(readTask(rs)) : Optional.<TaskCheckpoint>empty();
        }
      }
    });
  }

  @Override
  public List<TaskCheckpoint> openTasks() {
    checkOpen();
    return call("listing open tasks", c -> {
      List<TaskCheckpoint> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT " + TASK_COLUMNS + " FROM hfr_task WHERE phase <> 'CLOSED' ORDER BY started_at_ms, tenant, task_id");
          ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(readTask(rs));
        }
      }
      return out;
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads the table: no index lists a task's records (schema version 5), because the engine asks only for a
   * task's unfinished ones ({@link #unfinishedTaskRecords}) and the index would cost every write.
   */
  @Override
  public List<LedgerRecord> taskRecords(String tenant, String taskId) {
    return recordsOfTask("listing the records of task " + taskId, "", tenant, taskId);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Through the index of records flagged {@code may_be_pending}, which every unfinished record is: a read
   * of the few records flagged, not of the task's (schema version 5 keeps no index of a task's records, so
   * {@link #taskRecords} reads the table).
   */
  @Override
  public List<LedgerRecord> unfinishedTaskRecords(String tenant, String taskId) {
    return recordsOfTask("listing the unfinished records of task " + taskId, "may_be_pending AND state IN " + NEEDS_RECONCILE + " AND ",
        tenant, taskId);
  }

  /** The records of a task that also meet {@code condition} (empty, or ending in {@code AND}), oldest first. */
  private List<LedgerRecord> recordsOfTask(String what, String condition, String tenant, String taskId) {
    LedgerRules.checkTenantTask(tenant, taskId);
    checkOpen();
    return call(what, c -> {
      List<LedgerRecord> out = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT " + COLUMNS + " FROM hfr_ledger WHERE " + condition + "tenant = ? AND task_id = ? ORDER BY created_at_ms, key")) {
        ps.setString(1, tenant);
        ps.setString(2, taskId);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(read(rs).record());
          }
        }
      }
      return out;
    });
  }

  /**
   * {@inheritDoc} In batches of a thousand records, one transaction each; a record a call holds at this moment (a
   * compensation, a lease) is left for the next retention sweep rather than waited for.
   */
  @Override
  public int expire(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    checkOpen();
    sweepLock.lock();
    try {
      return expireUnderSweepLock(cutoff);
    } finally {
      sweepLock.unlock();
    }
  }

  private int expireUnderSweepLock(Instant cutoff) {
    return call("expiring settled keys", c -> {
      try (PreparedStatement tasks = c.prepareStatement("DELETE FROM hfr_task WHERE phase = 'CLOSED' AND updated_at_ms < ?")) {
        tasks.setLong(1, cutoff.toEpochMilli());
        tasks.executeUpdate();
      }
      clearSettled(c); // every settled record in the settled index first
      try (PreparedStatement ps = c.prepareStatement(EXPIRE_SETTLED)) {
        ps.setLong(1, cutoff.toEpochMilli());
        ps.setLong(2, cutoff.toEpochMilli());
        return inBatches(c, ps);
      }
    });
  }

  /**
   * Stops the background sweep (waiting up to 10 s for a batch under way); a {@code DataSource} the caller gave
   * stays open, a pool the ledger opened on a JDBC URL is closed.
   */
  @Override
  public void close() {
    closed = true;
    sweeper.shutdown();
    try {
      sweeper.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    AutoCloseable pool = ownedPool;
    if (pool != null) {
      try {
        pool.close();
      } catch (Exception e) {
        LOG.log(System.Logger.Level.WARNING, "PostgreSQL ledger: closing its connection pool failed: " + e, e);
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the ledger is closed");
    }
  }

  private static StoredEntry select(Connection c, String tenant, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM hfr_ledger WHERE tenant = ? AND key = ?")) {
      ps.setString(1, tenant);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? read(rs) : null;
      }
    }
  }

  private static StoredEntry read(ResultSet rs) throws SQLException {
    LedgerRecord r = new LedgerRecord(
        rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), LedgerState.valueOf(rs.getString(5)), rs.getInt(6),
        rs.getString(7), rs.getLong(8), Instant.ofEpochMilli(rs.getLong(11)), Instant.ofEpochMilli(rs.getLong(12)), rs.getString(13));
    return new StoredEntry(r, rs.getString(9), rs.getLong(10));
  }

  private static TaskCheckpoint readTask(ResultSet rs) throws SQLException {
    return new TaskCheckpoint(rs.getString(1), rs.getString(2), TaskCheckpoint.Phase.valueOf(rs.getString(3)), rs.getString(4),
        rs.getString(5), rs.getString(6), Instant.ofEpochMilli(rs.getLong(7)), Instant.ofEpochMilli(rs.getLong(8)));
  }

  /** One unit of work on a borrowed connection. */
  @FunctionalInterface
  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} on a borrowed connection, committing it if the pool hands out non-auto-commit ones; fails
   * at once while the database is away.
   */
  private <T> T call(String what, Work<T> work) {
    if (!ready) {
      throw new LedgerUnavailableException("PostgreSQL ledger: " + what + " refused: the database has not answered"
          + " for " + (clock.epochMillis() - downSinceMillis) + " ms (asked again every " + REJOIN_INTERVAL.toMillis()
          + " ms)", null);
    }
    return run(what, work);
  }

  /** {@link #call} without the availability check; a failure to reach the database starts an outage. */
  private <T> T run(String what, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      boolean manual = !c.getAutoCommit();
      try {
        T result = work.run(c);
        if (manual && !c.getAutoCommit()) {
          c.commit();
        }
        return result;
      } catch (SQLException | RuntimeException e) {
        if (manual && !c.getAutoCommit()) {
          c.rollback();
        }
        throw e;
      }
    } catch (SQLException e) {
      if (unreachable(e)) {
        wentAway(e);
        throw new LedgerUnavailableException("PostgreSQL ledger: " + what + " failed: the database does not answer: "
            + e.getMessage(), e);
      }
      throw new LedgerStorageException("PostgreSQL ledger: " + what + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "PostgresLedger[" + dataSource + "]";
  }
}
