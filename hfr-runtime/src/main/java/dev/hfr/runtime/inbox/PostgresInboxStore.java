package dev.hfr.runtime.inbox;

import dev.hfr.runtime.inbox.internal.JdbcInbox;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The inbox as a table ({@code hfr_inbox}) on the PostgreSQL ledger's database: every worker of a fleet files into
 * and answers from the same items. The table is created on first use, so a database that answers later is joined
 * then. Borrows a connection per operation; the engine does not close the {@code DataSource}.
 */
public final class PostgresInboxStore implements InboxStore {

  private final DataSource dataSource;
  private final JdbcInbox table;
  private volatile boolean schemaReady;

  private PostgresInboxStore(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.table = new JdbcInbox(new JdbcInbox.Connections() {
      @Override
      public <T> T with(JdbcInbox.Work<T> work) {
        try (Connection c = PostgresInboxStore.this.dataSource.getConnection()) {
          return work.run(c);
        } catch (SQLException e) {
          throw new InboxStorageException("the inbox's PostgreSQL database failed: " + e.getMessage()
              + ". Next step: check the ledger's database answers; the inbox shares it", e);
        }
      }
    });
  }

  /** The inbox on {@code dataSource} (the ledger's: {@code PostgresLedger.dataSource()}). */
  public static PostgresInboxStore create(DataSource dataSource) {
    return new PostgresInboxStore(dataSource);
  }

  private JdbcInbox ready() {
    if (!schemaReady) {
      synchronized (this) {
        if (!schemaReady) {
          table.createSchema();
          schemaReady = true;
        }
      }
    }
    return table;
  }

  @Override
  public InboxItem fileIfAbsent(InboxItem item, String subject) {
    return ready().fileIfAbsent(item, subject);
  }

  @Override
  public Optional<InboxItem> find(String id) {
    return ready().find(id);
  }

  @Override
  public Optional<InboxItem> latest(String tenant, ItemKind kind, String subject) {
    return ready().latest(tenant, kind, subject);
  }

  @Override
  public List<InboxItem> list(InboxFilter filter, int limit) {
    return ready().list(filter, limit);
  }

  @Override
  public boolean update(String id, ItemState from, InboxItem updated) {
    return ready().update(id, from, updated);
  }

  @Override
  public Waiting waiting() {
    return ready().waiting();
  }

  /** Leaves the {@code DataSource} open: it is the ledger's (or the application's). */
  @Override
  public void close() {}
}
