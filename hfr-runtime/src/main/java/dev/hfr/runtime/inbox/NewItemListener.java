package dev.hfr.runtime.inbox;

/**
 * Hears every item newly filed in the inbox (not a repeat of one that already waits): the notification hook, e.g. an
 * {@link InboxWebhook}. Runs on the thread of the call that filed it, so it must not block; one that throws is logged.
 */
@FunctionalInterface
public interface NewItemListener {

  /** {@code item} was filed and waits for a person. */
  void onFiled(InboxItem item);
}
