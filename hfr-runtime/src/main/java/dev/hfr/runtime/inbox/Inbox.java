package dev.hfr.runtime.inbox;

import java.time.Duration;
import java.util.List;
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
public interface Inbox {

  /** The most items one {@link #list} returns. */
  int MAX_LIST = 500;

  /** The items waiting for a person, oldest first. */
  default List<InboxItem> list() {
    return list(InboxFilter.WAITING);
  }

  /** The items that pass {@code filter}, oldest first (at most {@value #MAX_LIST}). */
  List<InboxItem> list(InboxFilter filter);

  /** The item {@code id}, whatever its state. */
  Optional<InboxItem> get(String id);

  /**
   * Answers item {@code id}.
   *
   * @param id the item
   * @param answer the answer
   * @param by who answers (recorded)
   * @param reason why (required for {@link Answer#DENY}; the model is told it)
   * @param result for {@link Answer#HAPPENED}: the provider's reference or result the model's next call gets (text,
   *     or JSON for a tool that returns an object); may be {@code null}
   * @return the answered item
   * @throws InboxAnswerException when the item is unknown, answered, expired, busy, or the answer does not fit it
   */
  InboxItem answer(String id, Answer answer, String by, String reason, String result);

  /**
   * Answers item {@code id} without a result.
   *
   * @param id the item
   * @param answer the answer
   * @param by who answers (recorded)
   * @param reason why (required for {@link Answer#DENY})
   * @return the answered item
   */
  default InboxItem answer(String id, Answer answer, String by, String reason) {
    return answer(id, answer, by, reason, null);
  }

  /** Calls {@code listener} after every answer is recorded. */
  void onAnswered(InboxListener listener);

  /** Calls {@code listener} for every newly filed item (the notification hook: a webhook, a chat message). */
  void onFiled(NewItemListener listener);

  /** How many items wait for a person. */
  long waiting();

  /** How long the oldest waiting item has waited ({@link Duration#ZERO} when none waits). */
  Duration oldestAge();

  /** How long an approval request, and then its approval, stays valid. */
  Duration approvalTtl();
}
