package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.ledger.internal.JournalCodec;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Journals written before records carried task ids (format version 2) still open. The fixture in {@code
 * src/test/resources/ledger-v2/} is a real ledger directory written by the HFR of main at 34fb36f
 * (journal format 2) with the program beside it ({@code MakeV2.java.txt}): a committed record, an UNKNOWN
 * one and a PREPARED one whose writer still held its lease.
 */
@DisplayName("A version-2 journal opens, keeps every record (without a task) and is rewritten as version 3")
class JournalVersion2Test {

  @TempDir Path tmp;

  private Path fixture() throws Exception {
    Path dir = tmp.resolve("ledger");
    Files.createDirectories(dir);
    for (String name : new String[] {EmbeddedFileLedger.JOURNAL, EmbeddedFileLedger.CHECKPOINT}) {
      try (InputStream in = getClass().getResourceAsStream("/ledger-v2/" + name)) {
        Files.copy(in, dir.resolve(name));
      }
    }
    return dir;
  }

  private static LedgerOptions keepForever() {
    return LedgerOptions.defaults().withRetention(Duration.ofDays(36500));
  }

  @Test
  @DisplayName("its records are read with their states, no task id, and the old file is kept beside the new one")
  void version2JournalOpens() throws Exception {
    Path dir = fixture();
    assertThat(Files.readAllBytes(dir.resolve(EmbeddedFileLedger.JOURNAL))).startsWith(JournalCodec.V2_MAGIC);

    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir, keepForever())) {
      assertThat(l.openReport().upgraded()).isTrue();
      assertThat(l.size()).isEqualTo(3);
      assertThat(l.find("acme", "key-committed")).hasValueSatisfying(r -> {
        assertThat(r.state()).isEqualTo(LedgerState.COMMITTED);
        assertThat(r.resultHash()).isEqualTo("result-1");
        assertThat(r.taskId()).isNull();
      });
      assertThat(l.pending()).extracting(LedgerRecord::key).containsExactlyInAnyOrder("key-unknown", "key-prepared");
      assertThat(l.acquireLease("acme", "key-prepared", "restarted", Duration.ofSeconds(20)))
          .as("the dead writer's lease is dropped on open, as for a version-3 journal").isPresent();
      l.prepareIfAbsent("acme", "task-1", "key-new", "Orders.create", "args-4", "w2", Duration.ofSeconds(20));
      l.saveCheckpoint(new TaskCheckpoint("acme", "task-1", TaskCheckpoint.Phase.STARTED, "spec-v1;config=defaults", null, "w2",
          java.time.Instant.EPOCH, java.time.Instant.EPOCH));
    }
    assertThat(Files.readAllBytes(dir.resolve(EmbeddedFileLedger.JOURNAL))).startsWith(JournalCodec.MAGIC);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).anySatisfy(n -> assertThat(n).startsWith("ledger.journal.v2-"));
    }
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir, keepForever())) {
      assertThat(l.openReport().upgraded()).isFalse();
      assertThat(l.size()).isEqualTo(4);
      assertThat(l.taskRecords("acme", "task-1")).extracting(LedgerRecord::key).containsExactly("key-new");
      assertThat(l.openTasks()).extracting(TaskCheckpoint::taskId).containsExactly("task-1");
    }
  }
}
