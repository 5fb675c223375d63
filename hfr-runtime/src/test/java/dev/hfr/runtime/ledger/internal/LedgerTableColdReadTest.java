package dev.hfr.runtime.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Prepared;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The embedded ledger reads a key's stored row before it takes its lock; a record that moved to the store in
 * between must not be taken for absent (that would create the write a second time).
 */
@DisplayName("A store read made before the lock is trusted only if no record moved since")
class LedgerTableColdReadTest {

  private static final long NOW = 1_000_000L;

  /** A store that holds what it is given. */
  private final Map<String, StoredEntry> stored = new HashMap<>();
  private final LedgerTable table = new LedgerTable(new LedgerTable.Persister() {
    @Override
    public void put(StoredEntry entry) {}

    @Override
    public void remove(StoredEntry entry) {}
  }, new LedgerTable.ColdRecords() {
    @Override
    public StoredEntry find(String tenant, String key) {
      return stored.get(key);
    }

    @Override
    public List<StoredEntry> taskEntries(String tenant, String taskId) {
      return List.of();
    }

    @Override
    public TaskCheckpoint findTask(String tenant, String taskId) {
      return null;
    }
  });

  @Test
  @DisplayName("read 'absent', then another caller's record is created, settles and moves: the prepare finds it, creates nothing")
  void aMoveInBetweenMakesTheTableReadAgain() {
    long movesThen = table.moves();
    StoredEntry readBeforeTheLock = stored.get("k1"); // absent

    // meanwhile, another caller:
    Prepared first = table.prepareIfAbsent("acme", "t1", "k1", "Orders.create", "args", "caller-b", Duration.ofSeconds(20), NOW);
    table.transition("acme", "k1", LedgerState.PREPARED, LedgerState.COMMITTED, "result", first.lease().fencingToken(), NOW);
    List<StoredEntry> moved = table.settledToMove(100, NOW);
    moved.forEach(e -> stored.put(e.key(), e));
    table.forgetMoved(moved, List.of());
    assertThat(table.holds("acme", "k1")).isFalse();

    Prepared second = table.withColdRead("acme", "k1", readBeforeTheLock, movesThen,
        () -> table.prepareIfAbsent("acme", "t1", "k1", "Orders.create", "args", "caller-a", Duration.ofSeconds(20), NOW));

    assertThat(second.created()).isFalse();
    assertThat(second.record().state()).isEqualTo(LedgerState.COMMITTED);
  }

  @Test
  @DisplayName("with no move in between, the read is used as it is: the store is not asked twice")
  void noMoveUsesTheRead() {
    long movesThen = table.moves();
    StoredEntry fromTheStore = LedgerRules.newEntry("acme", "k2", "Orders.create", "args", NOW);
    // the store has since "lost" it: only the earlier read can answer
    Prepared p = table.withColdRead("acme", "k2", fromTheStore, movesThen,
        () -> table.prepareIfAbsent("acme", "t1", "k2", "Orders.create", "args", "caller-a", Duration.ofSeconds(20), NOW));

    assertThat(p.created()).isFalse();
    assertThat(p.record()).isEqualTo(fromTheStore.record());
  }
}
