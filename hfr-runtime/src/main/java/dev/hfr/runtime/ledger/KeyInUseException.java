package dev.hfr.runtime.ledger;

import java.time.Duration;

/**
 * Another holder leased a write's key for as long as the engine waited: the cause of a {@code key_in_use}
 * outcome, naming the holder and how long its lease has left (a live holder renews it while its call
 * runs; a dead one's lapses within that time, and a later call takes the key over).
 */
public final class KeyInUseException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final transient Lease holder;
  private final Duration remaining;

  public KeyInUseException(String key, Lease holder, Duration remaining) {
    super(holder == null
        ? "key " + key + " was leased by another holder throughout the wait; its lease has just ended, ask again"
        : "key " + key + " is leased by " + holder.owner() + " for another " + remaining.toMillis()
            + " ms (renewed while its call runs; a dead holder's lease lapses)");
    this.holder = holder;
    this.remaining = remaining;
  }

  /** The holder's lease, or {@code null} if it ended just as the wait did. */
  public Lease holder() {
    return holder;
  }

  /** How long the holder's lease had left when the engine gave up waiting. */
  public Duration remaining() {
    return remaining;
  }
}
