package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.ledger.internal.JournalCodec;
import dev.hfr.runtime.ledger.internal.StoredEntry;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded ledger refuses what it cannot trust (issue 15): a second owner that got past a deleted
 * lock file, a journal that is empty, missing, cut short, older than its checkpoint or damaged in a frame
 * header, is never taken for a crash or a new ledger. Each case is a reproduction that used to pass
 * silently.
 */
@DisplayName("Ledger integrity: damage is refused and explained, never taken for a crash or a new ledger")
class LedgerIntegrityTest {

  static final String TENANT = "acme";

  @TempDir Path tmp;
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private static String key(int i) {
    return IdempotencyKeys.key(TENANT, "task-1", "Orders.create", List.of(i), 0);
  }

  private static String args(int i) {
    return IdempotencyKeys.argsHash(List.of(i));
  }

  /** Prepares keys 0..n-1, commits the even ones, closes; returns the directory. */
  private Path ledgerWith(int n) {
    Path dir = tmp.resolve("ledger");
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir)) {
      for (int i = 0; i < n; i++) {
        l.prepare(TENANT, key(i), "Orders.create", args(i));
        if (i % 2 == 0) {
          l.transition(TENANT, key(i), LedgerState.PREPARED, LedgerState.COMMITTED, "r" + i, 0);
        }
      }
    }
    return dir;
  }

  // ---- 1. the owner lock ----------------------------------------------------------------------------

  @Test
  @DisplayName("deleting ledger.lock while a process holds the ledger does not let a second process in; the holder is named")
  void deletedLockFileStillLocks() throws Exception {
    Path dir = ledgerWith(1);
    Process holder = ForkedJvm.start(EmbeddedFileLedgerTest.LedgerHolder.class, tmp.resolve("holder.log"), dir.toString());
    try {
      ForkedJvm.awaitLine(tmp.resolve("holder.log"), "READY", holder);
      Files.delete(dir.resolve(EmbeddedFileLedger.LOCK)); // an operator "cleaning up a stale lock"

      assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
          .isInstanceOf(LedgerLockedException.class)
          .hasMessageContaining("in use by another process (pid " + holder.pid())
          .hasMessageContaining("had been deleted");
      assertThatThrownBy(() -> EmbeddedFileLedger.repair(dir)).isInstanceOf(LedgerLockedException.class);
    } finally {
      holder.destroyForcibly();
      holder.waitFor(10, TimeUnit.SECONDS);
    }
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir)) { // the OS released the dead holder's locks
      assertThat(l.find(TENANT, key(0))).isPresent();
      assertThat(l.find(TENANT, key(1))).isPresent();
    }
  }

  @Test
  @DisplayName("a refused second open in the same JVM does not release the first owner's OS lock")
  void refusedSecondOpenKeepsTheLock() throws Exception {
    Path dir = tmp.resolve("ledger");
    EmbeddedFileLedger owner = EmbeddedFileLedger.open(dir);
    toClose.add(owner);
    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir)).isInstanceOf(LedgerLockedException.class).hasMessageContaining("this JVM");

    Process probe = ForkedJvm.start(LockProbe.class, tmp.resolve("probe.log"), dir.toString());
    assertThat(probe.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(Files.readString(tmp.resolve("probe.log"))).contains("LOCKED").contains("pid " + ProcessHandle.current().pid());
  }

  @Test
  @DisplayName("the lock file says the ledger is free after close, so a dead pid never invites deleting it")
  void lockFileIsNeverStale() throws Exception {
    Path dir = ledgerWith(1);
    assertThat(Files.readString(dir.resolve(EmbeddedFileLedger.LOCK))).startsWith("not held").contains("never stale");
  }

  /** Tries to open the ledger and prints LOCKED with the message, or OPENED. */
  public static final class LockProbe {
    public static void main(String[] args) {
      try (EmbeddedFileLedger l = EmbeddedFileLedger.open(Path.of(args[0]))) {
        System.out.println("OPENED");
      } catch (LedgerLockedException e) {
        System.out.println("LOCKED " + e.getMessage());
      }
    }
  }

  // ---- 2. empty, missing, short journals --------------------------------------------------------------

  @Test
  @DisplayName("a zero-length journal is refused with what was lost, not opened as an empty ledger (a committed write would run again)")
  void zeroLengthJournalIsRefused() throws Exception {
    Path dir = ledgerWith(1);
    Path journal = dir.resolve(EmbeddedFileLedger.JOURNAL);
    Files.write(journal, new byte[0]);

    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("is empty (0 bytes)")
        .hasMessageContaining("held 2 journal frames")
        .hasMessageContaining("restore")
        .hasMessageContaining("repair(" + dir.toAbsolutePath() + ")");
    assertThat(journal).isEmptyFile();

    EmbeddedFileLedger.RepairReport repaired = EmbeddedFileLedger.repair(dir);
    assertThat(repaired.damages()).singleElement().satisfies(d -> assertThat(d.reason()).contains("is empty"));
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir)) {
      assertThat(l.openReport().liveRecords()).as("nothing is left in the journal").isZero();
      assertThat(l.size()).as("the committed record had moved to ledger.db at close, and is kept").isEqualTo(1);
      assertThat(l.openReport().created()).isFalse();
    }
  }

  @Test
  @DisplayName("a deleted journal is refused as lost, not recreated empty")
  void deletedJournalIsRefused() throws Exception {
    Path dir = ledgerWith(3);
    Files.delete(dir.resolve(EmbeddedFileLedger.JOURNAL));

    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("held 5 journal frames (sequence numbers 1..5");
    assertThat(dir.resolve(EmbeddedFileLedger.JOURNAL)).doesNotExist();
  }

  @Test
  @DisplayName("a journal cut short at a frame boundary is refused and says which records were lost, not reported as a torn tail")
  void cutJournalSaysWhatWasLost() throws Exception {
    Path dir = ledgerWith(20); // 30 frames: 20 prepares, 10 commits
    Path journal = dir.resolve(EmbeddedFileLedger.JOURNAL);
    List<Long> offsets = JournalImage.frameOffsets(journal);
    byte[] data = Files.readAllBytes(journal);
    byte[] cut = java.util.Arrays.copyOf(data, (int) (offsets.get(15) + 7)); // frames 1..15 intact, 16 cut inside
    Files.write(journal, cut);

    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("truncated or replaced")
        .hasMessageContaining("sequence numbers 16..30 (15 records) are lost")
        .satisfies(e -> assertThat(((LedgerCorruptedException) e).readableRecords()).isEqualTo(15));
    assertThat(journal).hasBinaryContent(cut);
  }

  @Test
  @DisplayName("a missing checkpoint is refused (nothing could vouch for the journal); repair rebuilds it and keeps every record")
  void missingCheckpointIsRefused() throws Exception {
    Path dir = ledgerWith(4);
    Files.delete(dir.resolve(EmbeddedFileLedger.CHECKPOINT));

    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("checkpoint ledger.checkpoint is missing");
    assertThat(EmbeddedFileLedger.repair(dir).recordsKept()).isEqualTo(4);
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir)) {
      assertThat(l.find(TENANT, key(2)).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    }
  }

  @Test
  @DisplayName("an older copy of the journal put back after a compaction is refused as older than the checkpoint")
  void olderJournalIsRefused() throws Exception {
    Path dir = ledgerWith(2);
    Path journal = dir.resolve(EmbeddedFileLedger.JOURNAL);
    byte[] backup = Files.readAllBytes(journal);
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir)) {
      l.prepare(TENANT, key(7), "Orders.create", args(7));
      l.compact();
    }
    Files.write(journal, backup);

    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("older than its checkpoint");
  }

  // ---- 3. a damaged frame header is damage ------------------------------------------------------------

  @Test
  @DisplayName("one flipped bit in the last frame's length field is damage, not a torn tail: the COMMITTED record never goes back to PREPARED")
  void flippedLengthBitIsDamage() throws Exception {
    Path dir = ledgerWith(1); // frame 1 PREPARED, frame 2 COMMITTED
    Path journal = dir.resolve(EmbeddedFileLedger.JOURNAL);
    long last = JournalImage.frameOffsets(journal).get(1);
    byte[] data = Files.readAllBytes(journal);
    data[(int) last + 2] ^= 0x04; // the length grows past the end of the file
    Files.write(journal, data);

    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("record #2 at byte offset " + last)
        .hasMessageContaining("frame header check failed");
    assertThat(journal).hasBinaryContent(data);
  }

  // ---- new ledgers and old journals -------------------------------------------------------------------

  @Test
  @DisplayName("creating a new ledger logs its absolute path once; reopening it does not")
  void newLedgerLogsItsPathOnce() throws Exception {
    List<LogRecord> logged = new ArrayList<>();
    Logger jul = Logger.getLogger("dev.hfr.runtime.ledger.EmbeddedFileLedger");
    Handler h = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (r.getLevel().intValue() >= Level.INFO.intValue()) {
          logged.add(r);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    jul.addHandler(h);
    try {
      Path dir = tmp.resolve("fresh");
      try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir)) {
        assertThat(l.openReport().created()).isTrue();
      }
      try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir)) {
        assertThat(l.openReport().created()).isFalse();
      }
      assertThat(logged).singleElement().satisfies(r -> {
        assertThat(r.getMessage()).contains("created a new HFR ledger");
        assertThat(r.getParameters()).contains(dir.toAbsolutePath());
      });
    } finally {
      jul.removeHandler(h);
    }
  }

  @Test
  @DisplayName("a version-1 journal (no header check, no checkpoint) still opens: its records are kept and it is rewritten in version 3")
  void legacyJournalOpens() throws Exception {
    Path dir = tmp.resolve("old");
    Files.createDirectories(dir);
    ByteArrayOutputStream v1 = new ByteArrayOutputStream();
    v1.write(JournalCodec.LEGACY_MAGIC);
    Instant t = Instant.parse("2026-11-30T10:00:00Z");
    for (int i = 0; i < 3; i++) {
      LedgerState state = i == 1 ? LedgerState.COMMITTED : LedgerState.PREPARED;
      byte[] payload = JournalCodec.encodePut(new StoredEntry(
          new LedgerRecord(TENANT, key(i), "Orders.create", args(i), state, state == LedgerState.COMMITTED ? 1 : 0,
              state == LedgerState.COMMITTED ? "r1" : null, 0, t, t), null, 0));
      v1.write(ByteBuffer.allocate(8).putInt(payload.length).putInt(JournalCodec.legacyCrc(payload.length, payload, 0)).array());
      v1.write(payload);
    }
    Files.write(dir.resolve(EmbeddedFileLedger.JOURNAL), v1.toByteArray());

    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir, LedgerOptions.defaults().withRetention(java.time.Duration.ofDays(36500)))) {
      assertThat(l.openReport().upgraded()).isTrue();
      assertThat(l.size()).isEqualTo(3);
      assertThat(l.find(TENANT, key(1)).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    }
    assertThat(Files.readAllBytes(dir.resolve(EmbeddedFileLedger.JOURNAL))).startsWith(JournalCodec.MAGIC);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).anySatisfy(n -> assertThat(n).startsWith("ledger.journal.v1-"));
    }
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir, LedgerOptions.defaults().withRetention(java.time.Duration.ofDays(36500)))) {
      assertThat(l.openReport().upgraded()).isFalse();
      assertThat(l.find(TENANT, key(1)).orElseThrow().resultHash()).isEqualTo("r1");
    }
  }
}
