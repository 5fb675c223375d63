package dev.hfr.runtime.inbox.internal;

import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxFilter;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.InboxStore;
import dev.hfr.runtime.inbox.ItemKind;
import dev.hfr.runtime.inbox.ItemState;
import dev.hfr.runtime.inbox.PersonAnswer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The inbox table and its statements, in the SQL SQLite and PostgreSQL both speak; the stores differ only in where
 * their connections come from. One row per item; a partial unique index keeps one waiting item per kind and subject.
 */
public final class JdbcInbox {

  /** Lends a connection for one operation. */
  public interface Connections {
    <T> T with(Work<T> work);
  }

  /** One operation on a connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** The table, its indexes: created if absent, so a new store and an old one open alike. */
  public static final List<String> SCHEMA = List.of(
      "CREATE TABLE IF NOT EXISTS hfr_inbox (id TEXT PRIMARY KEY, kind TEXT NOT NULL, state TEXT NOT NULL,"
          + " tenant TEXT NOT NULL, subject TEXT NOT NULL, task_id TEXT NOT NULL, tool TEXT NOT NULL, risk TEXT,"
          + " reason TEXT NOT NULL, ledger_key TEXT, args_hash TEXT, args_preview TEXT, evidence TEXT,"
          + " created_at BIGINT NOT NULL, expires_at BIGINT, answer TEXT, answered_by TEXT, answered_at BIGINT,"
          + " answer_reason TEXT, answer_result TEXT)",
      "CREATE UNIQUE INDEX IF NOT EXISTS hfr_inbox_one_waiting ON hfr_inbox (tenant, kind, subject) WHERE state = 'WAITING'",
      "CREATE INDEX IF NOT EXISTS hfr_inbox_by_subject ON hfr_inbox (tenant, subject, created_at)",
      "CREATE INDEX IF NOT EXISTS hfr_inbox_by_state ON hfr_inbox (state, created_at)");

  private static final String COLUMNS = "id, kind, state, tenant, task_id, tool, risk, reason, ledger_key, args_hash,"
      + " args_preview, evidence, created_at, expires_at, answer, answered_by, answered_at, answer_reason, answer_result";

  private final Connections connections;

  public JdbcInbox(Connections connections) {
    this.connections = connections;
  }

  /** Creates the table and indexes where they are missing. */
  public void createSchema() {
    connections.with(c -> {
      try (var s = c.createStatement()) {
        for (String ddl : SCHEMA) {
          s.execute(ddl);
        }
      }
      return null;
    });
  }

  public InboxItem fileIfAbsent(InboxItem item, String subject) {
    return connections.with(c -> {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO hfr_inbox (" + COLUMNS + ", subject) VALUES"
          + " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
        bind(ps, item);
        ps.setString(20, subject);
        if (ps.executeUpdate() == 1) {
          return item;
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM hfr_inbox WHERE tenant = ? AND kind = ?"
          + " AND subject = ? AND state = 'WAITING'")) {
        ps.setString(1, item.tenant());
        ps.setString(2, item.kind().name());
        ps.setString(3, subject);
        List<InboxItem> found = read(ps);
        // the waiting one was answered between the two statements: file this one after all
        return found.isEmpty() ? fileIfAbsent(item, subject) : found.get(0);
      }
    });
  }

  public Optional<InboxItem> find(String id) {
    return connections.with(c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM hfr_inbox WHERE id = ?")) {
        ps.setString(1, id);
        return read(ps).stream().findFirst();
      }
    });
  }

  public Optional<InboxItem> latest(String tenant, ItemKind kind, String subject) {
    return connections.with(c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM hfr_inbox WHERE tenant = ? AND kind = ?"
          + " AND subject = ? ORDER BY created_at DESC, id DESC LIMIT 1")) {
        ps.setString(1, tenant);
        ps.setString(2, kind.name());
        ps.setString(3, subject);
        return read(ps).stream().findFirst();
      }
    });
  }

  public List<InboxItem> list(InboxFilter filter, int limit) {
    StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM hfr_inbox WHERE 1 = 1");
    List<String> args = new ArrayList<>();
    where(sql, args, "tenant", filter.tenant());
    where(sql, args, "tool", filter.tool());
    where(sql, args, "reason", filter.reason());
    where(sql, args, "state", filter.state() == null ? null : filter.state().name());
    sql.append(" ORDER BY created_at, id LIMIT ").append(Math.max(0, limit));
    return connections.with(c -> {
      try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
        for (int i = 0; i < args.size(); i++) {
          ps.setString(i + 1, args.get(i));
        }
        return read(ps);
      }
    });
  }

  private static void where(StringBuilder sql, List<String> args, String column, String value) {
    if (value != null) {
      sql.append(" AND ").append(column).append(" = ?");
      args.add(value);
    }
  }

  public boolean update(String id, ItemState from, InboxItem updated) {
    return connections.with(c -> {
      try (PreparedStatement ps = c.prepareStatement("UPDATE hfr_inbox SET state = ?, expires_at = ?, answer = ?,"
          + " answered_by = ?, answered_at = ?, answer_reason = ?, answer_result = ? WHERE id = ? AND state = ?")) {
        PersonAnswer a = updated.answer();
        ps.setString(1, updated.state().name());
        setMillis(ps, 2, updated.expiresAt());
        ps.setString(3, a == null ? null : a.answer().name());
        ps.setString(4, a == null ? null : a.by());
        setMillis(ps, 5, a == null ? null : a.at());
        ps.setString(6, a == null ? null : a.reason());
        ps.setString(7, a == null ? null : a.result());
        ps.setString(8, id);
        ps.setString(9, from.name());
        return ps.executeUpdate() == 1;
      }
    });
  }

  public InboxStore.Waiting waiting() {
    return connections.with(c -> {
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), MIN(created_at) FROM hfr_inbox WHERE state = 'WAITING'");
          ResultSet rs = ps.executeQuery()) {
        rs.next();
        long oldest = rs.getLong(2);
        return new InboxStore.Waiting(rs.getLong(1), rs.wasNull() ? null : Instant.ofEpochMilli(oldest));
      }
    });
  }

  private static void bind(PreparedStatement ps, InboxItem i) throws SQLException {
    ps.setString(1, i.id());
    ps.setString(2, i.kind().name());
    ps.setString(3, i.state().name());
    ps.setString(4, i.tenant());
    ps.setString(5, i.taskId());
    ps.setString(6, i.tool());
    ps.setString(7, i.risk());
    ps.setString(8, i.reason());
    ps.setString(9, i.ledgerKey());
    ps.setString(10, i.argsHash());
    ps.setString(11, i.argsPreview());
    ps.setString(12, i.evidence());
    ps.setLong(13, i.createdAt().toEpochMilli());
    setMillis(ps, 14, i.expiresAt());
    PersonAnswer a = i.answer();
    ps.setString(15, a == null ? null : a.answer().name());
    ps.setString(16, a == null ? null : a.by());
    setMillis(ps, 17, a == null ? null : a.at());
    ps.setString(18, a == null ? null : a.reason());
    ps.setString(19, a == null ? null : a.result());
  }

  private static void setMillis(PreparedStatement ps, int index, Instant at) throws SQLException {
    if (at == null) {
      ps.setNull(index, Types.BIGINT);
    } else {
      ps.setLong(index, at.toEpochMilli());
    }
  }

  private static List<InboxItem> read(PreparedStatement ps) throws SQLException {
    List<InboxItem> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String answer = rs.getString(15);
        PersonAnswer a = answer == null ? null : new PersonAnswer(Answer.valueOf(answer), rs.getString(16),
            millis(rs, 17), rs.getString(18), rs.getString(19));
        out.add(new InboxItem(rs.getString(1), ItemKind.valueOf(rs.getString(2)), ItemState.valueOf(rs.getString(3)),
            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9),
            rs.getString(10), rs.getString(11), rs.getString(12), millis(rs, 13), millis(rs, 14), a));
      }
    }
    return out;
  }

  private static Instant millis(ResultSet rs, int index) throws SQLException {
    long v = rs.getLong(index);
    return rs.wasNull() ? null : Instant.ofEpochMilli(v);
  }
}
