package dev.hfr.runtime.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction writes the new journal while writes go on, then switches appends to it; the rename comes with the
 * next force. What a crash leaves at each step — the directory's files copied as they are, which is what a
 * killed process leaves in the page cache — must open with every acknowledged (forced) record.
 */
@DisplayName("A compaction beside writes: a crash at any step keeps every acknowledged record")
class CompactionBesideWritesTest {

  private static final String TENANT = "acme";
  private static final long LEDGER_ID = 42;

  @TempDir Path tmp;
  private Path dir;
  private Path journal;
  private FileChannel checkpointChannel;
  private JournalWriter writer;

  @BeforeEach
  void newJournal() throws Exception {
    dir = tmp.resolve("ledger");
    Files.createDirectories(dir);
    journal = dir.resolve(EmbeddedFileLedger.JOURNAL);
    Path checkpointPath = dir.resolve(CheckpointFile.NAME);
    checkpointChannel = FileChannel.open(checkpointPath, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    CheckpointFile checkpoint = new CheckpointFile(checkpointChannel, checkpointPath);
    JournalWriter.writeFresh(journal, LEDGER_ID, 1, List.of(), checkpoint);
    writer = new JournalWriter(journal, ForcePolicy.EVERY_WRITE, checkpoint, LEDGER_ID, 1, 0);
  }

  @AfterEach
  void close() throws Exception {
    writer.close();
    checkpointChannel.close();
  }

  @Test
  @DisplayName("before the switch, after it, after the rename: each crash state opens with what was acknowledged")
  void eachStepLeavesAJournalWithEveryAcknowledgedRecord() throws Exception {
    List<byte[]> live = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      live.add(put("k" + i, LedgerState.PREPARED));
      writer.append(live.get(i), false);
      writer.append(put("k" + i, LedgerState.COMMITTED), false); // supersedes: the compaction drops the PREPARED frame
      live.set(i, put("k" + i, LedgerState.COMMITTED));
    }
    writer.syncUntil(writer.required());

    JournalWriter.Compaction compaction = writer.beginCompaction(() -> live);
    // Appended while the compaction began, to the old journal: more than a writer's lock should copy (256 KB), so
    // that the compaction copies them in its catch-up rounds, without the lock.
    appendAcknowledged(100, 3100);
    writer.writeCompaction(compaction);
    appendAcknowledged(3100, 3110); // left for the copy under the lock
    Path written = crashCopy("written");

    writer.finishCompaction(compaction);
    appendUnforced(3110, 3120); // to the new file, not yet the journal: not acknowledged
    Path switched = crashCopy("switched");

    writer.completeCompaction();
    Path renamed = crashCopy("renamed");
    appendAcknowledged(3120, 3130);
    Path after = crashCopy("after");

    assertThat(recordsIn(written)).as("crash while the new journal was written").containsAll(keys(0, 3110));
    assertThat(recordsIn(switched)).as("crash after the switch, before the rename").containsAll(keys(0, 3110));
    assertThat(recordsIn(renamed)).as("crash after the rename").containsAll(keys(0, 3120));
    assertThat(recordsIn(after)).as("crash after more writes").containsExactlyInAnyOrderElementsOf(keys(0, 3130));
    assertThat(writer.framesInFile()).as("the superseded frames are gone; the ones appended meanwhile were carried over")
        .isEqualTo(100 + 3010 + 20);
  }

  @Test
  @DisplayName("a compaction whose file could not be written leaves the journal as it was, and the writer working")
  void aFailedWriteOfTheNewJournalChangesNothing() throws Exception {
    appendAcknowledged(0, 10);
    JournalWriter.Compaction compaction = writer.beginCompaction(() -> List.of(put("k0", LedgerState.PREPARED)));
    Files.createDirectories(JournalWriter.compactionFile(journal)); // a directory where the file should go: the write fails
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> writer.writeCompaction(compaction))
        .hasMessageContaining("the journal is unchanged");
    Files.delete(JournalWriter.compactionFile(journal));
    appendAcknowledged(10, 20);
    assertThat(recordsIn(crashCopy("after-failure"))).containsExactlyInAnyOrderElementsOf(keys(0, 20));
  }

  private void appendAcknowledged(int from, int to) {
    appendUnforced(from, to);
    writer.syncUntil(writer.required());
  }

  private void appendUnforced(int from, int to) {
    for (int i = from; i < to; i++) {
      writer.append(put("k" + i, LedgerState.PREPARED), false);
    }
  }

  /** The directory's files as they are now: what a process killed now leaves. */
  private Path crashCopy(String name) throws Exception {
    Path copy = tmp.resolve(name);
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    return copy;
  }

  private static List<String> recordsIn(Path copy) {
    List<String> keys = new ArrayList<>();
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(copy)) {
      for (int i = 0; i < 3200; i++) {
        String key = "k" + i;
        ledger.find(TENANT, key).ifPresent(r -> keys.add(key));
      }
    }
    return keys;
  }

  private static List<String> keys(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> "k" + i).toList();
  }

  private static byte[] put(String key, LedgerState state) {
    Instant at = Instant.parse("2026-12-07T12:00:00Z");
    return JournalCodec.encodePut(new StoredEntry(
        new LedgerRecord(TENANT, key, "Orders.create", "args-" + key, state, 1, state == LedgerState.COMMITTED ? "r" : null, 1, at, at, null),
        null, 0));
  }
}
