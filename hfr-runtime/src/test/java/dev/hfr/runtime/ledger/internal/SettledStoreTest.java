package dev.hfr.runtime.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("SettledStore: rows are found by a hash of their key, and told apart by the key itself")
class SettledStoreTest {

  private static final String TENANT = "acme";
  private static final Instant AT = Instant.parse("2026-12-07T12:00:00Z");

  @TempDir Path dir;

  @Test
  @DisplayName("two keys that share a hash each read and update their own row")
  void keysSharingAHashAreToldApart() throws Exception {
    try (SettledStore store = SettledStore.open(dir, ForcePolicy.EVERY_WRITE)) {
      store.putAll(List.of(entry("key-a", "task-a", "result-a"), entry("key-b", "task-b", "result-b")), List.of(), null);
    }
    // a 64-bit collision, made by hand: key-b's row now carries key-a's hash, and its task task-a's
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(SettledStore.NAME));
        PreparedStatement collide = c.prepareStatement("UPDATE records SET key_hash = ?, task_hash = ? WHERE key = 'key-b'")) {
      collide.setLong(1, KeyHash.of(TENANT, "key-a"));
      collide.setLong(2, KeyHash.of(TENANT, "task-a"));
      assertThat(collide.executeUpdate()).isEqualTo(1);
    }

    try (SettledStore store = SettledStore.open(dir, ForcePolicy.EVERY_WRITE)) {
      assertThat(store.find(TENANT, "key-a").record().resultHash()).isEqualTo("result-a");
      assertThat(store.taskEntries(TENANT, "task-a")).extracting(StoredEntry::key).containsExactly("key-a");
      assertThat(store.find("globex", "key-a")).isNull();

      store.putAll(List.of(entry("key-a", "task-a", "result-a2")), List.of(), null); // settled again: an update
      assertThat(store.find(TENANT, "key-a").record().resultHash()).isEqualTo("result-a2");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(SettledStore.NAME));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT key, count(*) FROM records GROUP BY key ORDER BY key")) {
      assertThat(rs.next() && rs.getString(1).equals("key-a") && rs.getInt(2) == 1).isTrue();
      assertThat(rs.next() && rs.getString(1).equals("key-b") && rs.getInt(2) == 1).isTrue(); // untouched by key-a's update
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  @DisplayName("a new ledger.db has 16 KB pages and is in WAL mode")
  void newStoreHasLargePages() throws Exception {
    try (SettledStore store = SettledStore.open(dir, ForcePolicy.EVERY_WRITE)) {
      store.putAll(List.of(entry("key-a", null, "result-a")), List.of(), new StoredKeys(1_000));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(SettledStore.NAME));
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
        assertThat(rs.getInt(1)).isEqualTo(16 * 1024);
      }
      try (ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
        assertThat(rs.getString(1)).isEqualTo("wal");
      }
    }
  }

  @Test
  @DisplayName("a move larger than the driver is handed at once stores every row and task, and updates the rows it held")
  void aLargeMoveStoresEveryRow() {
    List<StoredEntry> first = new ArrayList<>();
    List<TaskCheckpoint> tasks = new ArrayList<>();
    for (int i = 0; i < 1_234; i++) { // more than two executes' worth, and a remainder
      first.add(entry("key-" + i, "task-" + i, "result-" + i));
      tasks.add(new TaskCheckpoint(TENANT, "task-" + i, TaskCheckpoint.Phase.CLOSED, "spec", null, "owner", AT, AT));
    }
    List<StoredEntry> again = new ArrayList<>();
    for (int i = 0; i < 1_234; i += 2) {
      again.add(entry("key-" + i, "task-" + i, "result-" + i + "-again"));
    }
    again.add(entry("key-new", null, "result-new"));

    try (SettledStore store = SettledStore.open(dir, ForcePolicy.EVERY_WRITE)) {
      StoredKeys storedKeys = new StoredKeys(10_000); // learns first's keys: again's rows are updated, key-new's inserted
      store.putAll(first, tasks, storedKeys);
      store.putAll(again, List.of(), storedKeys);

      assertThat(store.size()).isEqualTo(1_235);
      assertThat(store.find(TENANT, "key-0").record().resultHash()).isEqualTo("result-0-again");
      assertThat(store.find(TENANT, "key-1").record().resultHash()).isEqualTo("result-1");
      assertThat(store.find(TENANT, "key-1233").record().resultHash()).isEqualTo("result-1233");
      assertThat(store.find(TENANT, "key-new").record().resultHash()).isEqualTo("result-new");
      assertThat(store.findTask(TENANT, "task-1233").phase()).isEqualTo(TaskCheckpoint.Phase.CLOSED);
      assertThat(store.taskEntries(TENANT, "task-617")).extracting(StoredEntry::key).containsExactly("key-617");
    }
  }

  private static StoredEntry entry(String key, String taskId, String result) {
    return new StoredEntry(new LedgerRecord(TENANT, key, "Orders.create", "args-" + key, LedgerState.COMMITTED, 1, result, 1,
        AT, AT, taskId), null, 0);
  }
}
