package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ledger directory written by the HFR before {@code ledger.db} (fixture: 300 records of 100 tasks, one in three
 * still PREPARED, a STARTED and a CLOSED task, every record in the journal, written by that version's code).
 */
@DisplayName("A directory written before ledger.db opens with every record, and its settled records move out of memory")
class LedgerBeforeStoreTest {

  @TempDir Path tmp;

  private Path fixture() throws Exception {
    Path dir = tmp.resolve("ledger");
    Files.createDirectories(dir);
    for (String name : new String[] {EmbeddedFileLedger.JOURNAL, EmbeddedFileLedger.CHECKPOINT}) {
      try (InputStream in = getClass().getResourceAsStream("/ledger-before-store/" + name)) {
        Files.copy(in, dir.resolve(name));
      }
    }
    return dir;
  }

  private static LedgerOptions keepForever() {
    return LedgerOptions.defaults().withRetention(Duration.ofDays(36500));
  }

  @Test
  @DisplayName("every record and task is there at once; housekeeping moves the 200 settled ones; a restart replays only the 100 unsettled")
  void upgradesInPlace() throws Exception {
    Path dir = fixture();
    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir, keepForever())) {
      assertThat(l.openReport().liveRecords()).as("read from the journal, as before").isEqualTo(300);
      assertThat(l.find("acme", "key-2")).hasValueSatisfying(r -> {
        assertThat(r.state()).isEqualTo(LedgerState.COMMITTED);
        assertThat(r.resultHash()).isEqualTo("result-2");
        assertThat(r.taskId()).isEqualTo("task-0");
      });
      assertThat(l.pending()).hasSize(100);

      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (l.recordsInMemory() > 100 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(l.recordsInMemory()).as("housekeeping moved the settled records by itself").isEqualTo(100);
      assertThat(l.find("acme", "key-2").orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
      l.compact(); // as housekeeping does once superseded frames pile up (past 100,000, or a thousand at close)
    }

    try (EmbeddedFileLedger l = EmbeddedFileLedger.open(dir, keepForever())) {
      assertThat(l.openReport().liveRecords()).as("the journal now holds the unsettled work alone").isEqualTo(100);
      assertThat(l.size()).isEqualTo(300);
      assertThat(l.taskRecords("acme", "task-0")).extracting(LedgerRecord::key).containsExactly("key-0", "key-1", "key-2");
      assertThat(l.unfinishedTaskRecords("acme", "task-0")).extracting(LedgerRecord::key).containsExactly("key-0");
      assertThat(l.openTasks()).extracting(TaskCheckpoint::taskId).containsExactly("task-0");
      assertThat(l.findCheckpoint("acme", "task-1")).hasValueSatisfying(t -> assertThat(t.phase()).isEqualTo(TaskCheckpoint.Phase.CLOSED));
      assertThat(l.prepareIfAbsent("acme", "task-0", "key-2", "Orders.create", "args-2", "new-worker", Duration.ofSeconds(20)).created())
          .as("a repeat of a settled write finds its record in ledger.db").isFalse();
    }
  }
}
