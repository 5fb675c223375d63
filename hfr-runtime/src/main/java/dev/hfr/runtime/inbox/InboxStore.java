package dev.hfr.runtime.inbox;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where the inbox's items live: an SQLite file beside the embedded ledger ({@code inbox.db}), or a table on the
 * PostgreSQL ledger's database, so every worker of a fleet sees the same items. Every state change is one
 * conditional update: of two people answering one item, one wins and the other is told.
 */
public interface InboxStore extends AutoCloseable {

  /**
   * Files {@code item} unless an item of its kind already waits for the same {@code subject} (the write's ledger key,
   * or the call's identity without one) in its tenant: then that one is returned and nothing is filed, so a person is
   * never asked twice about one thing.
   */
  InboxItem fileIfAbsent(InboxItem item, String subject);

  /** The item {@code id}. */
  Optional<InboxItem> find(String id);

  /** The newest item of {@code kind} for {@code subject} in {@code tenant}, whatever its state. */
  Optional<InboxItem> latest(String tenant, ItemKind kind, String subject);

  /** Items that pass {@code filter}, oldest first, at most {@code limit}. */
  List<InboxItem> list(InboxFilter filter, int limit);

  /**
   * Moves item {@code id} from {@code from} to {@code updated}'s state, answer and expiry, if it is still in {@code
   * from}; returns whether it was.
   */
  boolean update(String id, ItemState from, InboxItem updated);

  /** How many items wait, and since when the oldest waits ({@code null} when none). */
  Waiting waiting();

  /**
   * What waits.
   *
   * @param count items waiting
   * @param oldest when the oldest was filed, or {@code null} when none waits
   */
  record Waiting(long count, Instant oldest) {}

  @Override
  void close();
}
