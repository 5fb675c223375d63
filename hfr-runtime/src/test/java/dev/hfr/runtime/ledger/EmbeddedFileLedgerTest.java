package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.ledger.internal.JournalCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("EmbeddedFileLedger passes the ledger contract and survives crashes and damage")
class EmbeddedFileLedgerTest extends IdempotencyLedgerContract {

  @TempDir Path tmp;
  private final AtomicInteger opened = new AtomicInteger();

  @Override
  protected IdempotencyLedger open(LedgerOptions options) {
    return EmbeddedFileLedger.open(tmp.resolve("ledger-" + opened.incrementAndGet()), options);
  }

  @Override
  protected boolean leasesSurviveReopen() {
    return false;
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  @Override
  protected IdempotencyLedger reopen(IdempotencyLedger old, LedgerOptions options) {
    Path dir = ((EmbeddedFileLedger) old).directory();
    old.close();
    return EmbeddedFileLedger.open(dir, options);
  }

  @Override
  protected String storedText() throws Exception {
    return filesAsText(embedded().directory());
  }

  /** Every byte the ledger keeps in {@code dir} (journal, store and its WAL), as text. */
  static String filesAsText(Path dir) throws Exception {
    StringBuilder text = new StringBuilder();
    for (String name : List.of(EmbeddedFileLedger.JOURNAL, EmbeddedFileLedger.STORE, EmbeddedFileLedger.STORE + "-wal")) {
      Path file = dir.resolve(name);
      if (Files.exists(file)) {
        text.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
      }
    }
    return text.toString();
  }

  private EmbeddedFileLedger embedded() {
    return (EmbeddedFileLedger) ledger;
  }

  /** Prepares keys 0..n-1 and commits the even ones; returns the journal. */
  private Path writeRecords(int n) {
    for (int i = 0; i < n; i++) {
      ledger.prepare(TENANT, key(i), "Orders.create", args(i));
      if (i % 2 == 0) {
        ledger.transition(TENANT, key(i), LedgerState.PREPARED, LedgerState.COMMITTED, result(i), 0);
      }
    }
    Path journal = embedded().journal();
    ledger.close();
    ledger = null;
    return journal;
  }

  @Test
  @DisplayName("a torn tail (an incomplete last write) is cut off, saved aside and reported; every acknowledged record survives")
  void tornTailIsCutOff() throws Exception {
    Path journal = writeRecords(5);
    long goodSize = Files.size(journal);
    byte[] data = Files.readAllBytes(journal);
    byte[] partialFrame = java.util.Arrays.copyOfRange(data, JournalCodec.FILE_HEADER, JournalCodec.FILE_HEADER + 30);
    Files.write(journal, partialFrame, StandardOpenOption.APPEND);

    ledger = EmbeddedFileLedger.open(journal.getParent(), options());

    EmbeddedFileLedger.OpenReport report = embedded().openReport();
    assertThat(report.hadTornTail()).isTrue();
    assertThat(report.tornTailOffset()).isEqualTo(goodSize);
    assertThat(report.tornTailBytes()).isEqualTo(30);
    assertThat(report.tornTailReason()).contains("incomplete frame");
    assertThat(report.tornTailSavedTo()).exists().hasBinaryContent(partialFrame);
    assertThat(Files.size(journal)).isEqualTo(goodSize);
    for (int i = 0; i < 5; i++) {
      assertThat(ledger.find(TENANT, key(i)).orElseThrow().state())
          .isEqualTo(i % 2 == 0 ? LedgerState.COMMITTED : LedgerState.PREPARED);
    }
  }

  @Test
  @DisplayName("a tail of zeros (a write the device never finished) is a torn tail too")
  void zeroTailIsTorn() throws Exception {
    Path journal = writeRecords(3);
    Files.write(journal, new byte[100], StandardOpenOption.APPEND);

    ledger = EmbeddedFileLedger.open(journal.getParent(), options());

    assertThat(embedded().openReport().tornTailReason()).contains("zero bytes");
    assertThat(ledger.pending()).hasSize(1);
  }

  @Test
  @DisplayName("a damaged record in the middle fails open with the file, record number and offset; nothing is truncated")
  void corruptionInTheMiddleIsReported() throws Exception {
    Path journal = writeRecords(6);
    List<Long> offsets = JournalImage.frameOffsets(journal);
    long damaged = offsets.get(2);
    byte[] data = Files.readAllBytes(journal);
    data[(int) damaged + 30] ^= 0x5A;
    Files.write(journal, data);

    assertThatThrownBy(() -> EmbeddedFileLedger.open(journal.getParent(), options()))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining(journal.toString())
        .hasMessageContaining("record #3 at byte offset " + damaged)
        .hasMessageContaining("CRC32C mismatch")
        .hasMessageContaining("repair")
        .satisfies(e -> {
          LedgerCorruptedException c = (LedgerCorruptedException) e;
          assertThat(c.file()).isEqualTo(journal);
          assertThat(c.damages()).hasSize(1);
          assertThat(c.damages().get(0).offset()).isEqualTo(damaged);
          assertThat(c.damages().get(0).recordNumber()).isEqualTo(3);
          assertThat(c.damages().get(0).length()).isEqualTo(offsets.get(3) - damaged);
          assertThat(c.readableRecords()).isEqualTo(offsets.size() - 1);
        });
    assertThat(journal).as("nothing truncated or changed").hasBinaryContent(data);
  }

  @Test
  @DisplayName("a damaged last record that is complete is corruption, not a torn tail")
  void damagedCompleteLastRecordIsCorruption() throws Exception {
    Path journal = writeRecords(3);
    byte[] data = Files.readAllBytes(journal);
    data[data.length - 3] ^= 0x01;
    Files.write(journal, data);

    assertThatThrownBy(() -> EmbeddedFileLedger.open(journal.getParent(), options()))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("CRC32C mismatch");
    assertThat(journal).hasBinaryContent(data);
  }

  @Test
  @DisplayName("a length field damaged to run past the end is corruption: the frame header's own check fails")
  void damagedLengthIsNotMistakenForATornTail() throws Exception {
    Path journal = writeRecords(4);
    List<Long> offsets = JournalImage.frameOffsets(journal);
    byte[] data = Files.readAllBytes(journal);
    ByteBuffer.wrap(data).putInt(offsets.get(1).intValue(), 60_000);
    Files.write(journal, data);

    assertThatThrownBy(() -> EmbeddedFileLedger.open(journal.getParent(), options()))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("record #2 at byte offset " + offsets.get(1))
        .hasMessageContaining("frame header check failed");
  }

  @Test
  @DisplayName("repair moves the damaged file aside untouched and keeps every intact record")
  void repairKeepsIntactRecords() throws Exception {
    for (int i = 0; i < 4; i++) {
      ledger.prepare(TENANT, key(i), "Orders.create", args(i));
    }
    Path journal = embedded().journal();
    ledger.close();
    ledger = null;
    List<Long> offsets = JournalImage.frameOffsets(journal);
    byte[] data = Files.readAllBytes(journal);
    data[offsets.get(1).intValue() + 12] ^= 0x7F; // the record of key(1)
    Files.write(journal, data);

    EmbeddedFileLedger.RepairReport report = EmbeddedFileLedger.repair(journal.getParent());

    assertThat(report.movedAside()).exists().hasBinaryContent(data);
    assertThat(report.recordsKept()).isEqualTo(3);
    assertThat(report.damages()).singleElement().satisfies(d -> assertThat(d.offset()).isEqualTo(offsets.get(1)));
    ledger = EmbeddedFileLedger.open(journal.getParent(), options());
    assertThat(ledger.find(TENANT, key(0))).isPresent();
    assertThat(ledger.find(TENANT, key(1))).isEmpty();
    assertThat(ledger.find(TENANT, key(2))).isPresent();
    assertThat(ledger.find(TENANT, key(3))).isPresent();
  }

  @Test
  @DisplayName("a file that is not a ledger journal is refused, not overwritten")
  void notAJournal() throws Exception {
    Path dir = tmp.resolve("foreign");
    Files.createDirectories(dir);
    Path journal = dir.resolve(EmbeddedFileLedger.JOURNAL);
    Files.writeString(journal, "id,amount\n1,20\n");

    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir, options()))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining("not an HFR ledger journal");
    assertThat(journal).hasContent("id,amount\n1,20\n");
  }

  @Test
  @DisplayName("one owner at a time: a second open in this JVM or another process is refused, naming the holder")
  void singleOwner() throws Exception {
    Path dir = embedded().directory();
    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir, options()))
        .isInstanceOf(LedgerLockedException.class)
        .hasMessageContaining("already open in this JVM");
    ledger.close();
    ledger = null;

    Path log = tmp.resolve("holder.log");
    Process holder = ForkedJvm.start(LedgerHolder.class, log, dir.toString());
    try {
      ForkedJvm.awaitLine(log, "READY", holder);
      assertThatThrownBy(() -> EmbeddedFileLedger.open(dir, options()))
          .isInstanceOf(LedgerLockedException.class)
          .hasMessageContaining("another process (pid " + holder.pid());
    } finally {
      holder.destroyForcibly();
      holder.waitFor(10, TimeUnit.SECONDS);
    }
    ledger = EmbeddedFileLedger.open(dir, options()); // the OS released the dead holder's lock
    assertThat(ledger.find(TENANT, key(1))).isPresent();
  }

  /** A process that opens a ledger, writes one record and waits to be killed. */
  public static final class LedgerHolder {
    public static void main(String[] args) throws Exception {
      EmbeddedFileLedger l = EmbeddedFileLedger.open(Path.of(args[0]));
      l.prepare(TENANT, key(1), "Orders.create", args(1));
      System.out.println("READY");
      System.out.flush();
      Thread.sleep(60_000);
    }
  }

  @Test
  @DisplayName("compaction drops superseded records and keeps the live ones, both when asked and on reopen")
  void compaction() throws Exception {
    openInstead(options().withForcePolicy(ForcePolicy.OS_BUFFERED));
    for (int round = 0; round < 200; round++) {
      for (int i = 0; i < 10; i++) {
        ledger.prepare(TENANT, key(i), "Orders.create", args(key(i)));
        ledger.transition(TENANT, key(i), LedgerState.PREPARED, LedgerState.FAILED, null, 0);
        ledger.transition(TENANT, key(i), LedgerState.FAILED, LedgerState.PREPARED, null, 0);
      }
    }
    long before = Files.size(embedded().journal());
    embedded().compact();
    long after = Files.size(embedded().journal());
    assertThat(after).isLessThan(before / 100);
    assertThat(ledger.find(TENANT, key(3)).orElseThrow().attempts()).isEqualTo(200);

    ledger = reopen(ledger, options());
    assertThat(ledger.pending()).hasSize(10);
    try (Stream<Path> files = Files.list(embedded().directory())) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(name -> !name.startsWith(EmbeddedFileLedger.STORE + "-")))
          .as("no file of the compaction is left behind (the store's -wal and -shm are SQLite's while it is open)")
          .containsExactlyInAnyOrder("ledger.journal", "ledger.lock", "ledger.checkpoint", "ledger.db");
    }
  }

  @Test
  @DisplayName("compactions while eight threads write lose no write, under either force policy")
  void compactionBesideConcurrentWrites() throws Exception {
    for (ForcePolicy policy : ForcePolicy.values()) {
      openInstead(options().withForcePolicy(policy));
      EmbeddedFileLedger writing = embedded();
      AtomicInteger compactions = new AtomicInteger();
      java.util.concurrent.ExecutorService writers = java.util.concurrent.Executors.newFixedThreadPool(8);
      List<java.util.concurrent.Future<Integer>> written = new java.util.ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        written.add(writers.submit(() -> {
          int i = 0;
          for (; i < 300 || compactions.get() < 5; i++) { // until five compactions ran beside these writes
            String key = policy + "-" + thread + "-" + i;
            writing.prepare(TENANT, key, "Orders.create", args(key));
            writing.transition(TENANT, key, LedgerState.PREPARED, LedgerState.COMMITTED, result(i), 0);
          }
          return i;
        }));
      }
      while (written.stream().anyMatch(f -> !f.isDone())) {
        writing.compact();
        compactions.incrementAndGet();
      }
      writers.shutdown();

      ledger = reopen(ledger, options().withForcePolicy(policy));
      for (int t = 0; t < 8; t++) {
        for (int i = 0; i < written.get(t).get(); i++) {
          assertThat(ledger.find(TENANT, policy + "-" + t + "-" + i)).as("%s after %s compactions", policy, compactions)
              .hasValueSatisfying(r -> assertThat(r.state()).isEqualTo(LedgerState.COMMITTED));
        }
      }
    }
  }

  @Test
  @DisplayName("an R1 call costs one force: the attempt's outcome and the lease release ride on the next call's prepare")
  void oneForcePerR1Call() throws Exception {
    for (int i = 0; i < 20; i++) {
      ledger.prepare(TENANT, key(i), "Orders.create", args(i));
      ledger.transition(TENANT, key(i), LedgerState.PREPARED, LedgerState.COMMITTED, result(i), 0);
    }
    assertThat(embedded().forces()).as("prepare + commit, 20 times").isEqualTo(20);

    for (int i = 20; i < 40; i++) { // what the engine does for an R1 write
      Lease lease = ledger.prepareIfAbsent(TENANT, key(i), "Orders.create", args(i), "worker-a", Duration.ofSeconds(20)).lease();
      ledger.transition(TENANT, key(i), LedgerState.PREPARED, LedgerState.COMMITTED, result(i), lease.fencingToken());
      ledger.releaseLease(lease);
    }
    assertThat(embedded().forces()).as("prepareIfAbsent + commit + release, 20 times more").isEqualTo(40);

    Lease grant = ledger.acquireLease(TENANT, key(0), "worker-b", Duration.ofSeconds(20)).orElseThrow();
    assertThat(embedded().forces()).as("a lease grant (a new fencing token) is forced").isEqualTo(41);
    ledger.renewLease(grant, Duration.ofSeconds(20));
    assertThat(ledger.find(TENANT, key(39)).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    assertThat(embedded().forces()).as("a renewal and reads of forced records wait for nothing").isEqualTo(41);

    ledger = reopen(ledger, options());
    assertThat(ledger.find(TENANT, key(39)).orElseThrow().state()).as("deferred frames are forced at close").isEqualTo(LedgerState.COMMITTED);
    assertThat(ledger.currentLease(TENANT, key(0))).as("leases are forgotten on open").isEmpty();
  }

  @Test
  @DisplayName("OS_BUFFERED keeps the same semantics and durability across a clean close")
  void osBuffered() throws Exception {
    openInstead(options().withForcePolicy(ForcePolicy.OS_BUFFERED));
    ledger.prepare(TENANT, key(1), "Orders.create", args(1));
    ledger = reopen(ledger, options());
    assertThat(ledger.find(TENANT, key(1))).isPresent();
    assertThat(ledger.acquireLease(TENANT, key(1), "w", Duration.ofSeconds(1))).isPresent();
  }

  @Test
  @DisplayName("settled records leave memory for ledger.db, and a restart reads them from there, not from the journal")
  void settledRecordsLeaveMemory() throws Exception {
    for (int i = 0; i < 300; i++) {
      ledger.prepare(TENANT, key(i), "Orders.create", args(i));
      if (i % 3 != 0) {
        ledger.transition(TENANT, key(i), LedgerState.PREPARED, LedgerState.COMMITTED, result(i), 0);
      }
    }
    embedded().settleNow();
    assertThat(embedded().recordsInMemory()).as("only the 100 PREPARED ones").isEqualTo(100);
    embedded().compact();

    ledger = reopen(ledger, options());

    assertThat(embedded().openReport().liveRecords()).as("the journal replays the unsettled work only").isEqualTo(100);
    assertThat(embedded().size()).isEqualTo(300);
    assertThat(ledger.find(TENANT, key(2)).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    assertThat(ledger.find(TENANT, key(2)).orElseThrow().resultHash()).isEqualTo(result(2));
    assertThat(ledger.pending()).hasSize(100);
  }

  /** Moves every settled record to ledger.db, compacts the journal so it keeps no copy, and closes the ledger. */
  private Path closeWithSettledRecordsInStoreAlone() {
    embedded().settleNow();
    embedded().compact();
    Path dir = embedded().directory();
    ledger.close();
    ledger = null;
    return dir;
  }

  @Test
  @DisplayName("a ledger.db written before rows were indexed by key hash (schema 1) is upgraded on open and keeps every record")
  void storeOfSchemaOneIsUpgraded() throws Exception {
    for (int i = 0; i < 50; i++) {
      long token = ledger.prepareIfAbsent(TENANT, "task-" + (i % 5), key(i), "Orders.create", args(i), "worker",
          Duration.ofMinutes(1)).lease().fencingToken();
      ledger.transition(TENANT, key(i), LedgerState.PREPARED, LedgerState.COMMITTED, result(i), token);
    }
    Path dir = closeWithSettledRecordsInStoreAlone();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(EmbeddedFileLedger.STORE));
        java.sql.Statement s = c.createStatement()) {
      // the file as schema 1 left it: the same rows, indexed by tenant and key, without hashes
      s.execute("DROP INDEX records_by_hash");
      s.execute("DROP INDEX records_by_task_hash");
      s.execute("ALTER TABLE records DROP COLUMN key_hash");
      s.execute("ALTER TABLE records DROP COLUMN task_hash");
      s.execute("CREATE UNIQUE INDEX records_by_key ON records(tenant, key)");
      s.execute("CREATE INDEX records_by_task ON records(tenant, task_id) WHERE task_id IS NOT NULL");
      s.execute("UPDATE meta SET value = 1 WHERE name = 'schema'");
    }

    ledger = EmbeddedFileLedger.open(dir);
    for (int i = 0; i < 50; i++) {
      assertThat(ledger.find(TENANT, key(i)).orElseThrow().resultHash()).isEqualTo(result(i));
    }
    assertThat(ledger.taskRecords(TENANT, "task-3")).hasSize(10);
    long token = ledger.acquireLease(TENANT, key(7), "worker", Duration.ofMinutes(1)).orElseThrow().fencingToken();
    ledger.transition(TENANT, key(7), LedgerState.COMMITTED, LedgerState.COMPENSATED, result(7), token);
    embedded().settleNow(); // the changed record moves again, over its upgraded row
    assertThat(ledger.find(TENANT, key(7)).orElseThrow().state()).isEqualTo(LedgerState.COMPENSATED);
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(EmbeddedFileLedger.STORE));
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT (SELECT value FROM meta WHERE name = 'schema'), count(*),"
            + " count(key_hash), count(task_hash) FROM records")) {
      rs.next();
      assertThat(List.of(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4))).containsExactly(2, 50, 50, 50);
    }
  }

  @Test
  @DisplayName("a changed row of ledger.db is found by its check when read, and named; a file that is not a database refuses to open")
  void damagedStoreIsNamed() throws Exception {
    ledger.prepare(TENANT, key(1), "Orders.create", args(1));
    ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result(1), 0);
    Path dir = closeWithSettledRecordsInStoreAlone();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(EmbeddedFileLedger.STORE));
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT payload FROM records")) {
      rs.next();
      byte[] payload = rs.getBytes(1);
      payload[payload.length / 2] ^= 0x10; // one bit of the stored record, as a failing disk would change it
      try (java.sql.PreparedStatement update = c.prepareStatement("UPDATE records SET payload = ?")) {
        update.setBytes(1, payload);
        update.executeUpdate();
      }
    }
    try (EmbeddedFileLedger reopened = EmbeddedFileLedger.open(dir)) {
      assertThatThrownBy(() -> reopened.find(TENANT, key(1)))
          .isInstanceOf(LedgerCorruptedException.class)
          .hasMessageContaining(TENANT + "/" + key(1)).hasMessageContaining("CRC32C");
    }

    Files.write(dir.resolve(EmbeddedFileLedger.STORE), "not a database, just text that is long enough to be read".repeat(100).getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> EmbeddedFileLedger.open(dir))
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining(EmbeddedFileLedger.STORE).hasMessageContaining("backup");
  }

  @Test
  @DisplayName("Ledgers.embeddedDefault() uses ./hfr-ledger in the working directory")
  void defaultDirectory() {
    assertThat(Ledgers.DEFAULT_DIRECTORY).isEqualTo(Path.of("hfr-ledger"));
    assertThat(Ledgers.DEFAULT_DIRECTORY.isAbsolute()).isFalse();
  }
}
