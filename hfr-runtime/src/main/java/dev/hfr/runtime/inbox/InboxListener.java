package dev.hfr.runtime.inbox;

/**
 * Hears every answer a person gives, after it is recorded (ledger, inbox, decision log): an application resumes the
 * conversation the item belongs to ({@link InboxItem#taskId()}) itself. A listener that throws is logged; the
 * answer stands.
 */
@FunctionalInterface
public interface InboxListener {

  /** {@code item} was answered; {@link InboxItem#answer()} holds the answer. */
  void onAnswered(InboxItem item);
}
