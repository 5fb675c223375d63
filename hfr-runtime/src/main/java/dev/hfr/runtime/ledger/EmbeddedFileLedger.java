package dev.hfr.runtime.ledger;

import dev.hfr.runtime.ledger.LedgerCorruptedException.Damage;
import dev.hfr.runtime.ledger.internal.CheckpointFile;
import dev.hfr.runtime.ledger.internal.DirectoryLock;
import dev.hfr.runtime.ledger.internal.JournalCodec;
import dev.hfr.runtime.ledger.internal.JournalRecovery;
import dev.hfr.runtime.ledger.internal.JournalScanner;
import dev.hfr.runtime.ledger.internal.JournalWriter;
import dev.hfr.runtime.ledger.internal.LedgerRules;
import dev.hfr.runtime.ledger.internal.LedgerTable;
import dev.hfr.runtime.ledger.internal.RetentionSweep;
import dev.hfr.runtime.ledger.internal.SettledStore;
import dev.hfr.runtime.ledger.internal.StoredEntry;
import dev.hfr.runtime.ledger.internal.StoredKeys;
import dev.hfr.runtime.ledger.internal.UnforcedKeys;
import dev.hfr.runtime.time.Clock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The default ledger: a file in a directory of the application, no server.
 *
 * <h2>Storage</h2>
 *
 * <p>{@code <dir>/ledger.journal} is an append-only journal of frames, each holding a whole record (or a
 * task's whole checkpoint, §5.4), with
 * a sequence number, a check of its own header and a CRC32C of its payload (format: {@code
 * JournalCodec}); an index of the latest frame per key lives in memory and is rebuilt by reading the
 * journal on open. An operation is acknowledged (its method returns) only after its frame was written,
 * and — under {@link ForcePolicy#EVERY_WRITE}, the default — forced to the device; concurrent threads
 * share one force per batch (group commit). The outcome of an attempt (a transition out of PREPARED) is
 * acknowledged once written and forced with the next batch: if a power loss takes it back, the record is
 * PREPARED again, which crash resume turns into UNKNOWN and the next call reconciles — the path any crash
 * during the attempt takes anyway. So are lease renewals and releases, since leases are forgotten on open.
 * Such an operation, and a read, waits only for the must-be-forced frames of its own key, not for other
 * keys' prepares appended meanwhile. A written frame survives {@code SIGKILL}, because it is in the
 * kernel's page cache, not in the process.
 *
 * <p>{@code <dir>/ledger.checkpoint} records, after each force, how long the journal is known to be on
 * the device and its last sequence number; the ledger never deletes it.
 *
 * <p><b>Memory follows unsettled work, not history.</b> The index in memory holds the records still PREPARED
 * or UNKNOWN, leased ones, and those settled since the last move: a housekeeping thread ({@code
 * hfr-ledger-housekeeping}) moves settled records and closed tasks every 100 ms, thousands per transaction, to
 * {@code <dir>/ledger.db}, a SQLite database in WAL mode whose commit is fsynced (see {@code SettledStore}),
 * after forcing the journal, so the store never holds a state the journal could still lose. A key that memory
 * does not hold is read from the store (before the ledger's lock is taken); once it changes it is held in
 * memory again until it settles. The same thread compacts the journal (superseded frames, and frames of
 * records now in the store, are dropped) and deletes settled records older than the retention (default 24 h)
 * from the store, a thousand per transaction: no write waits for a delete or a compaction of history, and an
 * open replays a journal as short as the work that was unsettled.
 *
 * <h2>Crashes and damage</h2>
 *
 * <p>On open the journal is checked frame by frame against the checkpoint. Bytes after the last forced
 * position are a <b>crash tail</b> if unreadable — a crashed process's unfinished write, or writes a power
 * loss kept only in part — never acknowledged as durable: cut off, saved beside the journal as {@code
 * ledger.journal.torn-<offset>-<millis>}, and reported in {@link #openReport()} and the log. Anything
 * unreadable before it is <b>damage</b>, and so is a journal that is missing, empty, shorter than forced,
 * older than its checkpoint, or without a checkpoint: open fails with a {@link LedgerCorruptedException}
 * naming the file, every damaged region (record number, byte offset, length, reason) and the records
 * lost, and changes nothing; {@link #repair} moves the damaged file aside and keeps every intact record,
 * when an operator decides to. A brand-new ledger logs its absolute path once. A version-1 journal is
 * rewritten in the current format (version 3) on open, and so is a version-2 one (the old file is kept
 * beside it).
 *
 * <h2>Ownership</h2>
 *
 * <p>One process owns the directory at a time, through OS file locks on {@code ledger.lock} and {@code
 * ledger.checkpoint}: a second process (or a second open in this JVM) fails with a {@link
 * LedgerLockedException} naming the holder, even if one of the files was deleted. The OS drops the locks
 * when the owner dies, so after a crash there is nothing to clean up. Thread-safe.
 *
 * <h2>Why a journal and SQLite</h2>
 *
 * <p>The write path needs one durable append per state change: the journal does exactly that with one {@code
 * write} and one {@code fsync} per batch of callers, and lets the open-time check tell a crash's torn tail from
 * corruption. Settled history needs the opposite: lookups by key among millions of records without holding
 * them in memory, and deletes by age; SQLite's B-trees do that, and its own WAL recovery covers its crashes.
 * Every record in SQLite alone costs two to three times the write time (measured: docs/LEDGER.md, "Capacity").
 */
public final class EmbeddedFileLedger implements IdempotencyLedger {

  /** The journal's file name inside the ledger directory. */
  public static final String JOURNAL = "ledger.journal";
  /** The lock file's name inside the ledger directory. */
  public static final String LOCK = DirectoryLock.NAME;
  /** The checkpoint file's name inside the ledger directory. */
  public static final String CHECKPOINT = CheckpointFile.NAME;

  private static final System.Logger LOG = System.getLogger(EmbeddedFileLedger.class.getName());
  /** The store of settled records' file name inside the ledger directory. */
  public static final String STORE = SettledStore.NAME;

  /** Below this many frames the journal is not compacted: replaying it on open takes milliseconds. */
  private static final long MIN_FRAMES_BEFORE_COMPACTION = 300_000;
  /** Records in memory up to which a compaction is worth its cost: it encodes and writes every one of them. */
  private static final int SMALL_ENOUGH_TO_COMPACT = 10_000;
  /** Frames past which the journal is compacted whatever memory holds, so that a crash's replay stays bounded. */
  private static final long MAX_FRAMES_BEFORE_COMPACTING_ANYWAY = 4_000_000;
  /** Bytes past which a journal of large records (up to 64 KiB each) is compacted as if it held that many frames. */
  private static final long BYTES_BEFORE_COMPACTION = 256L << 20;
  /** Bytes past which the journal is compacted whatever memory holds. */
  private static final long MAX_BYTES_BEFORE_COMPACTING_ANYWAY = 1L << 30;
  /**
   * Most records moved to the store per transaction: larger batches share more of the index's pages. Measured,
   * 20,000 move twice as fast as 5,000; and at 32 writers, allowing 50,000 gave a write p99 of 6.5 ms against 7.1.
   */
  private static final int MOVE_BATCH = 50_000;
  /** Records housekeeping selects, or forgets once moved, per hold of the ledger's lock: about a millisecond's work. */
  private static final int LOCKED_CHUNK = 2_000;
  /** Full batches housekeeping moves in a row before it compacts and deletes what expired, then goes on moving. */
  private static final int BATCHES_BEFORE_OTHER_WORK = 4;
  /** How often housekeeping looks for settled records to move, a journal to compact and records to expire. */
  private static final long HOUSEKEEPING_MILLIS = 100;
  /** Settled records waiting to move for which housekeeping forces the journal itself rather than wait for a write to. */
  private static final int FORCE_FOR_A_BATCH_OF = 1_000;
  /** Housekeeping rounds that wait for a write to force the journal before housekeeping forces it itself. */
  private static final int ROUNDS_BEFORE_FORCING = 10;
  /** Prefixes a task id into the key a checkpoint's durability is scoped to. */
  private static final String CHECKPOINT_KEY_PREFIX = "\u0000task ";

  /**
   * What opening the journal found.
   *
   * @param journal the journal file
   * @param framesRead intact frames read (superseded ones included)
   * @param liveRecords records in the index after replay and expiry
   * @param tornTailOffset the byte offset of a torn tail that was cut off, or -1 if there was none
   * @param tornTailBytes how many bytes were cut off
   * @param tornTailReason why they were considered a torn tail, or {@code null}
   * @param tornTailSavedTo where the cut-off bytes were saved, or {@code null}
   * @param expired settled records deleted on open: always 0, as retention runs on the housekeeping thread
   *     after open
   * @param compacted whether the journal was compacted on open
   * @param tornTailFramesDropped readable frames after the first unreadable one of the tail, dropped with it
   *     (written after the last force, and reached the device out of order before a power loss)
   * @param created whether the ledger was created by this open (its path is logged once, at INFO)
   * @param upgraded whether a version-1 or version-2 journal was rewritten in the current format
   */
  public record OpenReport(
      Path journal, long framesRead, int liveRecords, long tornTailOffset, long tornTailBytes, String tornTailReason,
      Path tornTailSavedTo, int expired, boolean compacted, int tornTailFramesDropped, boolean created, boolean upgraded) {

    public boolean hadTornTail() {
      return tornTailOffset >= 0;
    }
  }

  /**
   * What {@link #repair} did.
   *
   * @param journal the new journal, holding the intact records
   * @param movedAside where the damaged journal now is, or {@code null} if nothing needed repair
   * @param recordsKept records in the new journal
   * @param damages the damaged regions that were left behind in the moved file
   */
  public record RepairReport(Path journal, Path movedAside, int recordsKept, List<Damage> damages) {}

  private final Path directory;
  private final Path journal;
  private final Clock clock;
  private final DirectoryLock lock;
  private final JournalWriter writer;
  private final LedgerTable table;
  private final UnforcedKeys unforced;
  private final RetentionSweep sweep;
  private final SettledStore store;
  private final OpenReport openReport;
  private final Object housekeeping = new Object(); // one move, compaction or expiry at a time
  private final Thread housekeeper;
  private int unforcedRounds; // guarded by this
  /** The keys in the store, once housekeeping has read them after open; until then every miss reads the store. */
  private volatile StoredKeys storedKeys;
  private boolean closed; // guarded by this

  private EmbeddedFileLedger(
      Path directory, Clock clock, DirectoryLock lock, JournalWriter writer, LedgerTable table, UnforcedKeys unforced,
      RetentionSweep sweep, SettledStore store, OpenReport report) {
    this.directory = directory;
    this.journal = directory.resolve(JOURNAL);
    this.clock = clock;
    this.lock = lock;
    this.writer = writer;
    this.table = table;
    this.unforced = unforced;
    this.sweep = sweep;
    this.store = store;
    this.openReport = report;
    this.housekeeper = new Thread(this::housekeep, "hfr-ledger-housekeeping " + directory.getFileName());
    this.housekeeper.setDaemon(true);
  }

  /** Opens (or creates) the ledger in {@code directory} with the default options. */
  public static EmbeddedFileLedger open(Path directory) {
    return open(directory, LedgerOptions.defaults());
  }

  /**
   * Opens (or creates) the ledger in {@code directory}.
   *
   * @throws LedgerLockedException if another process has it open
   * @throws LedgerCorruptedException if the journal holds damage other than a torn tail
   * @throws LedgerStorageException on any other I/O failure
   */
  public static EmbeddedFileLedger open(Path directory, LedgerOptions options) {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(options, "options");
    Path dir = directory.toAbsolutePath();
    DirectoryLock lock = null;
    try {
      Files.createDirectories(dir);
      lock = DirectoryLock.acquire(dir);
      EmbeddedFileLedger ledger = openLocked(dir, options, lock);
      lock = null; // owned by the ledger now
      return ledger;
    } catch (IOException e) {
      throw new LedgerStorageException("cannot open the ledger in " + dir + ": " + e, e);
    } catch (OutOfMemoryError e) {
      // Only a journal written by an HFR that kept every record in it is this large; what it allocated is
      // unreachable once this unwinds, so the caller can report it and exit cleanly.
      throw new LedgerStorageException("opening the ledger in " + dir + " ran out of heap (-Xmx" + (Runtime.getRuntime().maxMemory() >> 20)
          + "m) replaying " + dir.resolve(JOURNAL) + " of " + sizeOf(dir.resolve(JOURNAL)) + " bytes, written by an earlier HFR that"
          + " kept every record in it. Open it once with more heap (about 1.5 KB per live record); housekeeping then moves its settled"
          + " records to " + STORE + " and later opens need little. Nothing was changed.", e);
    } finally {
      if (lock != null) {
        closeQuietly(lock);
      }
    }
  }

  private static LedgerCorruptedException missingStore(Path dir) {
    Path store = dir.resolve(STORE);
    return new LedgerCorruptedException(store, List.of(new Damage(0, 0, 0, "the file is missing", null)), -1,
        "ledger store " + store + " is missing, though this ledger keeps its settled records there: those it held would be lost,"
            + " and a write they record could run again if repeated. Nothing was changed. Restore the ledger directory from a"
            + " backup (with " + STORE + " and its -wal file), or, to start the settled records over, call"
            + " EmbeddedFileLedger.repair(" + dir + ") and open it again.");
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }

  private static EmbeddedFileLedger openLocked(Path dir, LedgerOptions options, DirectoryLock lock) throws IOException {
    Path journal = dir.resolve(JOURNAL);
    CheckpointFile checkpoint = new CheckpointFile(lock.checkpointChannel(), dir.resolve(CheckpointFile.NAME));
    long now = options.clock().epochMillis();
    RetentionSweep sweep = new RetentionSweep(options.retention(), now);
    OptionalLong storeMarkedFor = checkpoint.storeMarkedFor();
    if (storeMarkedFor.isPresent() && !Files.exists(dir.resolve(STORE))) {
      throw missingStore(dir);
    }
    SettledStore store = SettledStore.open(dir, options.forcePolicy());
    LedgerTable table = new LedgerTable(null, coldRecordsOf(store)); // replays first, persists once the writer exists
    JournalRecovery.Opened opened;
    JournalWriter writer;
    try {
      opened = JournalRecovery.open(journal, checkpoint, frame -> frame.applyTo(table));
      writer = new JournalWriter(journal, options.forcePolicy(), checkpoint, opened.ledgerId(), opened.firstSeq(), opened.lastSeq());
    } catch (IOException | RuntimeException | Error e) {
      store.close();
      throw e;
    }
    if (storeMarkedFor.isEmpty() || storeMarkedFor.getAsLong() != opened.ledgerId()) {
      try {
        checkpoint.markStore(opened.ledgerId()); // before anything moves to the store
      } catch (IOException e) {
        closeQuietly(writer);
        store.close();
        throw e;
      }
    }
    UnforcedKeys unforced = new UnforcedKeys();
    table.persistWith(persisterFor(writer, unforced));
    boolean compacted = false;
    try {
      // This process holds the directory's lock, so whoever held a lease in the journal is dead: its keys
      // are free to take over now rather than when the leases lapse. (The store's rows: see SettledStore.)
      table.forgetLeaseHolders();
      if (writer.framesInFile() > 2L * table.size() + 1000) {
        writer.rewrite(JournalCodec.payloadsOf(table));
        compacted = true;
      }
      writer.syncUntil(writer.required());
    } catch (RuntimeException e) {
      closeQuietly(writer);
      store.close();
      throw e;
    }
    JournalScanner.TornTail t = opened.torn();
    OpenReport report = new OpenReport(
        journal, opened.framesRead(), table.size(), t != null ? t.offset() : -1, t != null ? t.bytes() : 0, t != null ? t.reason() : null,
        opened.tornSavedTo(), 0, compacted, t != null ? t.framesDropped() : 0, opened.created(), opened.upgraded());
    EmbeddedFileLedger ledger = new EmbeddedFileLedger(dir, options.clock(), lock, writer, table, unforced, sweep, store, report);
    ledger.housekeeper.start();
    return ledger;
  }

  private static LedgerTable.ColdRecords coldRecordsOf(SettledStore store) {
    return new LedgerTable.ColdRecords() {
      @Override
      public StoredEntry find(String tenant, String key) {
        return store.find(tenant, key);
      }

      @Override
      public List<StoredEntry> taskEntries(String tenant, String taskId) {
        return store.taskEntries(tenant, taskId);
      }

      @Override
      public TaskCheckpoint findTask(String tenant, String taskId) {
        return store.findTask(tenant, taskId);
      }
    };
  }

  private static LedgerTable.Persister persisterFor(JournalWriter writer, UnforcedKeys unforced) {
    return new LedgerTable.Persister() {
      @Override
      public void put(StoredEntry entry) {
        mustBeForced(entry, writer.append(JournalCodec.encodePut(entry), false));
      }

      @Override
      public void putOutcome(StoredEntry entry) {
        writer.append(JournalCodec.encodePut(entry), true);
      }

      @Override
      public void putLeaseHolder(StoredEntry entry) {
        writer.append(JournalCodec.encodePut(entry), true);
      }

      @Override
      public void remove(StoredEntry entry) {
        mustBeForced(entry, writer.append(JournalCodec.encodeRemove(entry.tenant(), entry.key()), false));
      }

      private void mustBeForced(StoredEntry entry, long end) {
        if (end > writer.forced()) { // under OS_BUFFERED a written frame counts as forced: nothing to remember
          unforced.wrote(entry.tenant(), entry.key(), end);
        }
      }

      @Override
      public void putTask(TaskCheckpoint checkpoint) {
        // Only an escalation waits for the force; a start or a close is forced with the next write's batch.
        writer.append(JournalCodec.encodeTask(checkpoint), checkpoint.phase() != TaskCheckpoint.Phase.ESCALATED);
      }

      @Override
      public void removeTask(TaskCheckpoint checkpoint) {
        writer.append(JournalCodec.encodeRemoveTask(checkpoint.tenant(), checkpoint.taskId()), false);
      }
    };
  }

  /**
   * Moves a damaged journal aside (as {@code ledger.journal.corrupt-<millis>}) and writes a new one holding
   * every intact record, with a checkpoint that vouches for it; a crash tail is dropped as on open. Also
   * the way on when the journal is missing or empty while its checkpoint says it held records, or when the
   * checkpoint is missing or damaged, and when {@code ledger.db} is missing: the next open starts the settled
   * records over with an empty one (the report lists it). Run it only after reading the {@link LedgerCorruptedException}:
   * records in the damaged regions are lost from the ledger (they stay in the moved file for
   * inspection), and a lost record of a committed write means that write could run again.
   *
   * @throws LedgerLockedException if a process has the ledger open
   */
  public static RepairReport repair(Path directory) {
    Path dir = directory.toAbsolutePath();
    Path journal = dir.resolve(JOURNAL);
    try {
      Files.createDirectories(dir);
      try (DirectoryLock lock = DirectoryLock.acquire(dir)) {
        CheckpointFile checkpoint = new CheckpointFile(lock.checkpointChannel(), dir.resolve(CheckpointFile.NAME));
        JournalRecovery.Repaired r = JournalRecovery.repair(journal, checkpoint);
        List<Damage> damages = new ArrayList<>(r.damages());
        if (checkpoint.storeMarkedFor().isPresent() && !Files.exists(dir.resolve(STORE))) {
          checkpoint.clearStoreMark(); // the next open makes a new, empty store
          damages.add(new Damage(0, 0, 0, STORE + " is missing: the settled records it held are lost", null));
          LOG.log(System.Logger.Level.WARNING, "ledger repair in " + dir + ": " + STORE + " is missing; the next open starts"
              + " the settled records over (a settled write whose record is lost may run again if repeated)");
        }
        return new RepairReport(journal, r.movedAside(), r.recordsKept(), damages);
      }
    } catch (IOException e) {
      throw new LedgerStorageException("cannot repair the ledger in " + dir + ": " + e, e);
    }
  }

  /** What opening the journal found (torn tail, expiry, compaction). */
  public OpenReport openReport() {
    return openReport;
  }

  /** The ledger's directory. */
  public Path directory() {
    return directory;
  }

  /** The journal file. */
  public Path journal() {
    return journal;
  }

  @Override
  public LedgerRecord prepare(String tenant, String key, String tool, String argsHash) {
    return durablyReadingStoreFirst(tenant, key, () -> table.prepare(tenant, key, tool, argsHash, clock.epochMillis()));
  }

  @Override
  public Prepared prepareIfAbsent(
      String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration leaseTtl) {
    return durablyReadingStoreFirst(
        tenant, key, () -> table.prepareIfAbsent(tenant, taskId, key, tool, argsHash, owner, leaseTtl, clock.epochMillis()));
  }

  @Override
  public Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint checkpoint) {
    Objects.requireNonNull(checkpoint, "checkpoint");
    // A checkpoint rests on no record's state, so it is scoped to a key no record can have (record keys
    // hold no control characters): a start or close waits for no other thread's prepare; an escalation's
    // own frame must be forced, which durably() sees.
    return durably(checkpoint.tenant(), CHECKPOINT_KEY_PREFIX + checkpoint.taskId(),
        () -> Optional.ofNullable(table.saveCheckpoint(checkpoint)));
  }

  @Override
  public Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId) {
    return durably(() -> table.findCheckpoint(tenant, taskId));
  }

  @Override
  public List<TaskCheckpoint> openTasks() {
    return durably(table::openTasks);
  }

  @Override
  public List<LedgerRecord> taskRecords(String tenant, String taskId) {
    return durably(() -> table.taskRecords(tenant, taskId));
  }

  @Override
  public LedgerRecord transition(
      String tenant, String key, LedgerState expected, LedgerState target, String resultHash, long fencingToken) {
    return durably(tenant, key, () -> table.transition(tenant, key, expected, target, resultHash, fencingToken, clock.epochMillis()));
  }

  @Override
  public Optional<LedgerRecord> find(String tenant, String key) {
    return durablyReadingStoreFirst(tenant, key, () -> table.find(tenant, key));
  }

  @Override
  public Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl) {
    return durably(tenant, key, () -> table.acquireLease(tenant, key, owner, ttl, clock.epochMillis()));
  }

  @Override
  public Optional<Lease> renewLease(Lease lease, Duration ttl) {
    Objects.requireNonNull(lease, "lease");
    return durably(lease.tenant(), lease.key(), () -> table.renewLease(lease, ttl, clock.epochMillis()));
  }

  @Override
  public Optional<Lease> currentLease(String tenant, String key) {
    return durablyReadingStoreFirst(tenant, key, () -> table.currentLease(tenant, key, clock.epochMillis()));
  }

  @Override
  public void releaseLease(Lease lease) {
    Objects.requireNonNull(lease, "lease");
    durably(lease.tenant(), lease.key(), () -> {
      table.releaseLease(lease);
      return null;
    });
  }

  @Override
  public List<LedgerRecord> pending() {
    return durably(table::pending);
  }

  /** A task's unsettled records are all in memory (only settled ones move to {@code ledger.db}): no store read. */
  @Override
  public List<LedgerRecord> unfinishedTaskRecords(String tenant, String taskId) {
    return durably(() -> table.unfinishedTaskRecords(tenant, taskId));
  }

  /**
   * {@inheritDoc} The records held in memory are deleted under the ledger's lock, those in {@code ledger.db} a
   * thousand per transaction after it, so writes go on meanwhile. Retention runs the same on the ledger's
   * housekeeping thread by itself.
   */
  @Override
  public int expire(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    long cutoffMillis = cutoff.toEpochMilli();
    synchronized (housekeeping) {
      int[] alsoStored = new int[1];
      List<StoredEntry> fromMemory = durably(() -> {
        List<StoredEntry> removed = table.expireEntries(cutoffMillis);
        for (StoredEntry e : removed) {
          if (store.find(e.tenant(), e.key()) != null) {
            alsoStored[0]++; // its stored copy is older still, and deleted below: count the record once
          }
        }
        return removed;
      });
      return fromMemory.size() + deleteStoredBefore(cutoffMillis) - alsoStored[0];
    }
  }

  /** Rewrites the journal with just the records held in memory. Runs by itself when superseded frames pile up. */
  public void compact() {
    synchronized (housekeeping) {
      JournalWriter.Compaction compaction;
      synchronized (this) {
        checkOpen();
        compaction = beginCompaction();
      }
      compactBesideWrites(compaction);
    }
  }

  /**
   * Begins a compaction to the records in memory now: under the lock, their references are copied (records are
   * immutable), and they are encoded while writes go on. Call under the lock.
   */
  private JournalWriter.Compaction beginCompaction() {
    List<StoredEntry> records = new ArrayList<>(table.entries());
    List<TaskCheckpoint> checkpoints = new ArrayList<>(table.checkpoints());
    return writer.beginCompaction(() -> JournalCodec.payloadsOf(records, checkpoints));
  }

  /**
   * Writes the compacted journal while writes go on, then holds them only to copy what they appended meanwhile;
   * the rename comes with the next force (see {@link JournalWriter#beginCompaction}).
   */
  private void compactBesideWrites(JournalWriter.Compaction compaction) {
    writer.writeCompaction(compaction);
    synchronized (this) {
      writer.finishCompaction(compaction);
    }
    writer.completeCompaction();
  }

  /**
   * Moves every settled record held in memory to {@code ledger.db} now, and compacts the journal if it is
   * due, as housekeeping does every {@value #HOUSEKEEPING_MILLIS} ms: for tests that read records back
   * from the store.
   */
  void settleNow() {
    synchronized (housekeeping) {
      synchronized (this) {
        checkOpen();
        unforcedRounds = ROUNDS_BEFORE_FORCING;
      }
      if (storedKeys == null) {
        storedKeys = store.keys();
      }
      while (moveSettled() == MOVE_BATCH) {
        // next batch
      }
      compactIfDue();
    }
  }

  /** The housekeeping thread: moves settled records to the store, compacts the journal, expires records. */
  private void housekeep() {
    long failures = 0;
    boolean backlog = false;
    while (true) {
      synchronized (this) {
        if (closed) {
          return;
        }
        try {
          if (!backlog || failures > 0) {
            wait(failures == 0 ? HOUSEKEEPING_MILLIS : Math.min(30_000, 1000L << Math.min(failures, 5)));
          }
        } catch (InterruptedException e) {
          return;
        }
        if (closed) {
          return;
        }
      }
      try {
        synchronized (housekeeping) {
          if (storedKeys == null || storedKeys.full()) {
            storedKeys = store.keys(); // housekeeping is the only writer of the store: nothing moves meanwhile
          }
          // A backlog: keep moving, writes take the ledger's lock between batches. Bounded, so that compaction and
          // retention still run while writers outpace the moves (the journal would grow until they slowed).
          int batches = 0;
          do {
            backlog = moveSettled() == MOVE_BATCH && isOpen();
          } while (backlog && ++batches < BATCHES_BEFORE_OTHER_WORK);
          compactIfDue();
          long cutoff = sweep.dueCutoff(clock.epochMillis());
          if (cutoff >= 0) {
            durably(() -> table.expireEntries(cutoff));
            deleteStoredBefore(cutoff);
          }
        }
        failures = 0;
      } catch (RuntimeException e) {
        if (!isOpen()) {
          return;
        }
        failures++;
        // Nothing is lost: what was not moved stays in memory and in the journal, and is tried again.
        LOG.log(System.Logger.Level.WARNING, "ledger housekeeping in " + directory + " failed (" + failures
            + " in a row); settled records stay in memory until it succeeds: " + e, e);
      }
    }
  }

  /**
   * Moves one batch of settled records and closed tasks from memory to the store; returns how many records.
   * The journal is forced first, so the store never holds a state the journal could still lose.
   */
  private int moveSettled() {
    return moveSettled(false);
  }

  private int moveSettledWhileClosing() {
    return moveSettled(true);
  }

  private int moveSettled(boolean closing) {
    List<StoredEntry> batch;
    List<TaskCheckpoint> tasks;
    long upTo;
    synchronized (this) {
      if (closed && !closing) {
        return 0;
      }
      if (writer.forced() < writer.written() && table.settledWaiting() < FORCE_FOR_A_BATCH_OF
          && unforcedRounds++ < ROUNDS_BEFORE_FORCING) {
        return 0; // a few records: the next write's force will cover their outcomes; forcing for them would double it
      }
      unforcedRounds = 0;
    }
    batch = new ArrayList<>();
    tasks = new ArrayList<>();
    while (true) {
      synchronized (this) { // a chunk at a time: writers wait a millisecond or so, not for the whole batch
        List<StoredEntry> records = table.settledToMove(Math.min(LOCKED_CHUNK, MOVE_BATCH - batch.size()), clock.epochMillis());
        List<TaskCheckpoint> closedTasks = table.closedToMove(Math.min(LOCKED_CHUNK, MOVE_BATCH - tasks.size()));
        upTo = writer.written();
        batch.addAll(records);
        tasks.addAll(closedTasks);
        if (records.isEmpty() && closedTasks.isEmpty() || batch.size() >= MOVE_BATCH || tasks.size() >= MOVE_BATCH) {
          break;
        }
      }
    }
    if (batch.isEmpty() && tasks.isEmpty()) {
      return 0;
    }
    try {
      writer.syncUntil(upTo);
      // the filter learns each key before its row is visible and before memory forgets it
      store.putAll(batch, tasks, storedKeys);
    } catch (RuntimeException e) {
      synchronized (this) {
        table.moveFailed(batch, tasks);
      }
      throw e;
    }
    for (int from = 0; from < Math.max(batch.size(), tasks.size()); from += LOCKED_CHUNK) {
      synchronized (this) {
        table.forgetMoved(chunk(batch, from), chunk(tasks, from));
      }
    }
    return batch.size();
  }

  private static <T> List<T> chunk(List<T> list, int from) {
    return list.subList(Math.min(from, list.size()), Math.min(from + LOCKED_CHUNK, list.size()));
  }

  /**
   * A last move and compaction, so that the next open replays the unsettled work alone: a restart then reads
   * a journal of kilobytes, not up to {@value #MIN_FRAMES_BEFORE_COMPACTION} frames. A failure only costs the
   * next open some time.
   */
  private void settleBeforeClosing() {
    try {
      synchronized (this) {
        unforcedRounds = ROUNDS_BEFORE_FORCING;
      }
      while (moveSettledWhileClosing() == MOVE_BATCH) {
        // next batch
      }
      synchronized (this) {
        if (writer.framesInFile() > table.size() + 1000L) { // a thousand superseded frames replay in milliseconds
          writer.rewrite(JournalCodec.payloadsOf(table));
        }
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the last move to " + STORE + " before closing the ledger in " + directory
          + " failed; the next open replays more of the journal: " + e, e);
    }
  }

  /**
   * Compacts the journal when superseded frames outnumber the records in memory, and memory holds few: a
   * compaction encodes and writes every record in memory (outside the ledger's lock, but at the cost of a core
   * and the disk), so while a burst keeps thousands of settled records waiting to move it waits (the journal
   * grows meanwhile), unless the journal grows large: a crash replays all of it. Large records count by their bytes, so a journal of 64 KiB records
   * is compacted long before 300,000 frames.
   */
  private void compactIfDue() {
    JournalWriter.Compaction compaction;
    synchronized (this) {
      long frames = writer.framesInFile();
      long bytes = writer.length();
      boolean mostlySuperseded = frames > 4L * table.size();
      boolean due = mostlySuperseded && (frames > MIN_FRAMES_BEFORE_COMPACTION || bytes > BYTES_BEFORE_COMPACTION);
      boolean large = frames > MAX_FRAMES_BEFORE_COMPACTING_ANYWAY || bytes > MAX_BYTES_BEFORE_COMPACTING_ANYWAY;
      if (closed || !due || table.size() > SMALL_ENOUGH_TO_COMPACT && !large) {
        return;
      }
      compaction = beginCompaction();
    }
    compactBesideWrites(compaction);
  }

  /** Deletes stored records (and closed tasks) last changed before {@code cutoffMillis}, batch by batch; returns how many records. */
  private int deleteStoredBefore(long cutoffMillis) {
    int deleted = 0;
    int n;
    do {
      n = store.deleteBatchBefore(cutoffMillis);
      deleted += n;
    } while (n == SettledStore.DELETE_BATCH && isOpen());
    return deleted;
  }

  private synchronized boolean isOpen() {
    return !closed;
  }

  /** How many forces of the journal acknowledgements have waited for since open (group commit shares them). */
  long forces() {
    return writer.forces();
  }

  /** Number of live records (all tenants), in memory and in {@code ledger.db}. Reads every record held in memory: for tests and tools. */
  public synchronized int size() {
    checkOpen();
    long n = store.size();
    for (StoredEntry e : table.entries()) {
      if (store.find(e.tenant(), e.key()) == null) {
        n++;
      }
    }
    return Math.toIntExact(n);
  }

  /** Records held in memory: the unsettled ones and those settled since housekeeping last moved them to {@code ledger.db}. */
  public synchronized int recordsInMemory() {
    return table.size();
  }

  /**
   * {@link #durably(String, String, Supplier)}, with the key's row in {@code ledger.db} read before the lock is
   * taken when memory does not hold the key: a new key's prepare looks there (to find a settled write the model
   * repeats) without holding up other keys' calls. A move to the store in between makes the table read it again.
   */
  private <T> T durablyReadingStoreFirst(String tenant, String key, Supplier<T> op) {
    LedgerRules.checkTenantKey(tenant, key); // before the store sees them; op checks the rest
    // Nearly every prepare is of a new key: the filter says so without the lock. Its bits are set before a record
    // leaves memory, and the count of moves read first tells the table whether one left since.
    long movesBeforeTheFilter = table.moves();
    StoredKeys filter = storedKeys;
    if (filter != null && !filter.mightContain(tenant, key)) {
      return durably(tenant, key, () -> table.withColdRead(tenant, key, null, movesBeforeTheFilter, op));
    }
    long movesThen;
    synchronized (this) {
      checkOpen();
      if (table.holds(tenant, key)) {
        movesThen = -1;
      } else {
        movesThen = table.moves();
      }
    }
    if (movesThen < 0) {
      return durably(tenant, key, op);
    }
    StoredEntry stored = store.find(tenant, key);
    return durably(tenant, key, () -> table.withColdRead(tenant, key, stored, movesThen, op));
  }

  /**
   * Runs {@code op}, which reads or writes many keys, under the lock, then waits until every frame that
   * must be forced is durable (see {@link #durably(String, String, Supplier)}).
   */
  private <T> T durably(Supplier<T> op) {
    return durably(null, null, op);
  }

  /**
   * Runs {@code op} on the key {@code tenant}/{@code key} under the lock, then waits until what it wrote
   * and what it read are durable as far as they must be: a frame it wrote that must be forced (and, with
   * it, every frame before); otherwise the must-be-forced frames of its key that other threads wrote a
   * moment before — not other keys' prepares appended meanwhile. Only then is the result handed out; a
   * refusal too (a transition refused because of another thread's lease grant must not be acted on before
   * that grant is on disk). With a null key, {@code op} may touch any key: it waits for every frame that
   * must be forced.
   */
  private <T> T durably(String tenant, String key, Supplier<T> op) {
    T result = null;
    RuntimeException refused = null;
    long upTo;
    synchronized (this) {
      checkOpen();
      long requiredBefore = writer.required();
      try {
        result = op.get();
      } catch (IllegalStateException e) { // refused transitions, stale tokens, unknown keys, key conflicts
        refused = e;
      }
      upTo = key == null || writer.required() != requiredBefore
          ? writer.required()
          : unforced.mustForce(tenant, key, writer.forced());
    }
    writer.syncUntil(upTo);
    if (refused != null) {
      throw refused;
    }
    return result;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the ledger in " + directory + " is closed");
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      notifyAll();
    }
    if (Thread.currentThread() != housekeeper) {
      try {
        housekeeper.join(30_000); // it stops between batches
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (housekeeping) {
      settleBeforeClosing();
      synchronized (this) {
        try {
          writer.close();
        } catch (IOException e) {
          throw new LedgerStorageException("closing the ledger journal " + journal + " failed: " + e, e);
        } finally {
          store.close();
          closeQuietly(lock);
        }
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // closing after a failure; the first failure is the one reported
    }
  }

  @Override
  public String toString() {
    return "EmbeddedFileLedger[" + directory + "]";
  }
}
