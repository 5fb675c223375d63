package dev.hfr.runtime.inbox;

import dev.hfr.runtime.inbox.internal.JdbcInbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The inbox in an SQLite file: {@value #FILE_NAME} in the embedded ledger's directory by default. Write-ahead log
 * and {@code synchronous=FULL}: an answer that returned is on disk. One connection, used by one thread at a time.
 */
public final class SqliteInboxStore implements InboxStore {

  /** The file's name in the ledger's directory. */
  public static final String FILE_NAME = "inbox.db";

  private final Connection connection;
  private final JdbcInbox table;
  private final String where;

  private SqliteInboxStore(Connection connection, String where) {
    this.connection = connection;
    this.where = where;
    this.table = new JdbcInbox(new JdbcInbox.Connections() {
      @Override
      public <T> T with(JdbcInbox.Work<T> work) {
        synchronized (SqliteInboxStore.this) {
          try {
            return work.run(SqliteInboxStore.this.connection);
          } catch (SQLException e) {
            throw new InboxStorageException("the inbox at " + SqliteInboxStore.this.where + " failed: " + e.getMessage(), e);
          }
        }
      }
    });
    table.createSchema();
  }

  /**
   * Opens (or creates) the inbox file {@code file}.
   *
   * @throws InboxStorageException naming the file when it cannot be opened
   */
  public static SqliteInboxStore open(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA journal_mode=WAL");
        s.execute("PRAGMA synchronous=FULL");
        s.execute("PRAGMA busy_timeout=5000");
      }
      return new SqliteInboxStore(c, file.toString());
    } catch (SQLException | java.io.IOException e) {
      throw new InboxStorageException("cannot open the inbox file " + file + ": " + e.getMessage()
          + ". Next step: check the directory is writable and no other program holds the file", e);
    }
  }

  /** An inbox that lives as long as its engine (the in-memory ledger's, for tests). */
  public static SqliteInboxStore inMemory() {
    try {
      return new SqliteInboxStore(DriverManager.getConnection("jdbc:sqlite::memory:"), "memory");
    } catch (SQLException e) {
      throw new InboxStorageException("cannot open an in-memory inbox: " + e.getMessage(), e);
    }
  }

  @Override
  public InboxItem fileIfAbsent(InboxItem item, String subject) {
    return table.fileIfAbsent(item, subject);
  }

  @Override
  public Optional<InboxItem> find(String id) {
    return table.find(id);
  }

  @Override
  public Optional<InboxItem> latest(String tenant, ItemKind kind, String subject) {
    return table.latest(tenant, kind, subject);
  }

  @Override
  public List<InboxItem> list(InboxFilter filter, int limit) {
    return table.list(filter, limit);
  }

  @Override
  public boolean update(String id, ItemState from, InboxItem updated) {
    return table.update(id, from, updated);
  }

  @Override
  public Waiting waiting() {
    return table.waiting();
  }

  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new InboxStorageException("closing the inbox at " + where + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "SqliteInboxStore[" + where + "]";
  }
}
