package dev.hfr.runtime.inbox;

import dev.hfr.runtime.inbox.internal.InboxBook;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What waits for a person, and their answers: {@code hfr.inbox()}.
 *
 * <pre>{@code
 * for (InboxItem item : hfr.inbox().list()) {                    // waiting, oldest first
 *   hfr.inbox().answer(item.id(), Answer.HAPPENED, "ana@ops", "the provider shows it sent", "msg-7781");
 * }
 * hfr.inbox().onAnswered(item -> resume(item.taskId()));          // an app resumes the conversation itself
 * }</pre>
 *
 * An answer to a write moves its ledger record (it happened → committed with the given result; it did not → sent once
 * more by the model's next call); the model's next call of that write gets the answer. Every answer is audited (who,
 * when, why) in the item and the decision log.
 */
public final class Inbox {

  /** The most items one {@link #list} returns. */
  public static final int MAX_LIST = 500;

  private final InboxBook book;

  public Inbox(InboxBook book) {
    this.book = Objects.requireNonNull(book, "book");
  }

  /** The items waiting for a person, oldest first. */
  public List<InboxItem> list() {
    return list(InboxFilter.WAITING);
  }

  /** The items that pass {@code filter}, oldest first (at most {@value #MAX_LIST}). */
  public List<InboxItem> list(InboxFilter filter) {
    return book.store().list(Objects.requireNonNull(filter, "filter"), MAX_LIST);
  }

  /** The item {@code id}, whatever its state. */
  public Optional<InboxItem> get(String id) {
    return book.store().find(Objects.requireNonNull(id, "id"));
  }

  /**
   * Answers item {@code id}.
   *
   * @param by who answers (recorded)
   * @param reason why (required for {@link Answer#DENY}; the model is told it)
   * @param result for {@link Answer#HAPPENED}: the provider's reference or result the model's next call gets (text,
   *     or JSON for a tool that returns an object); may be {@code null}
   * @return the answered item
   * @throws InboxAnswerException when the item is unknown, answered, expired, busy, or the answer does not fit it
   */
  public InboxItem answer(String id, Answer answer, String by, String reason, String result) {
    return book.answer(Objects.requireNonNull(id, "id"), answer, by, reason, result);
  }

  /** Answers item {@code id} without a result. */
  public InboxItem answer(String id, Answer answer, String by, String reason) {
    return answer(id, answer, by, reason, null);
  }

  /** Calls {@code listener} after every answer is recorded. */
  public void onAnswered(InboxListener listener) {
    book.onAnswered(listener);
  }

  /** Calls {@code listener} for every newly filed item (the notification hook: a webhook, a chat message). */
  public void onFiled(NewItemListener listener) {
    book.onFiled(listener);
  }

  /** How many items wait for a person. */
  public long waiting() {
    return book.store().waiting().count();
  }

  /** How long the oldest waiting item has waited ({@link Duration#ZERO} when none waits). */
  public Duration oldestAge() {
    InboxStore.Waiting w = book.store().waiting();
    return w.oldest() == null ? Duration.ZERO : Duration.between(w.oldest(), book.now());
  }

  /** How long an approval request, and then its approval, stays valid. */
  public Duration approvalTtl() {
    return book.approvalTtl();
  }
}
