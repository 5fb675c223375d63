package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callers racing on the same keys while housekeeping moves their records to {@code ledger.db} as fast as it can:
 * a key read from the store before the lock, a record moved between that read and the lock, a key the store's
 * filter has just taken — whatever the interleaving, one caller creates each key, and a repeat finds it.
 */
@DisplayName("Records moving to ledger.db while callers race on their keys: each key is created once, and found again")
class EmbeddedLedgerMoveRaceTest {

  private static final String TENANT = "acme";
  private static final int KEYS = 3_000;

  @TempDir Path dir;

  @Test
  @DisplayName("four callers per key, housekeeping moving without pause: one creation per key, every repeat answered from the record")
  void oneCreationPerKeyWhileRecordsMove() throws Exception {
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, LedgerOptions.defaults().withForcePolicy(ForcePolicy.OS_BUFFERED))) {
      AtomicIntegerArray created = new AtomicIntegerArray(KEYS);
      AtomicBoolean writing = new AtomicBoolean(true);
      Thread mover = new Thread(() -> {
        while (writing.get()) {
          ledger.settleNow();
        }
      });
      mover.start();
      ExecutorService callers = Executors.newFixedThreadPool(8);
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < 8; c++) {
        int caller = c;
        done.add(callers.submit(() -> {
          for (int round = 0; round < 2; round++) { // the second round repeats writes whose records have moved
            for (int i = caller % 2; i < KEYS; i += 2) {
              String key = "key-" + i;
              Prepared p = ledger.prepareIfAbsent(TENANT, "task-" + i, key, "Orders.create", "args-" + i, "caller-" + caller,
                  Duration.ofSeconds(20));
              if (p.created()) {
                created.incrementAndGet(i);
                ledger.transition(TENANT, key, LedgerState.PREPARED, LedgerState.COMMITTED, "result-" + i, p.lease().fencingToken());
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      callers.shutdown();
      writing.set(false);
      mover.join();

      for (int i = 0; i < KEYS; i++) {
        assertThat(created.get(i)).as("creations of key-%d", i).isEqualTo(1);
      }
      ledger.settleNow();
      assertThat(ledger.recordsInMemory()).as("every record has moved").isZero();
      assertThat(ledger.find(TENANT, "key-17").orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
      assertThat(ledger.size()).isEqualTo(KEYS);
    }
  }
}
