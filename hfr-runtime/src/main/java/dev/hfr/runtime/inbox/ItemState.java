package dev.hfr.runtime.inbox;

/** Where an inbox item is. */
public enum ItemState {
  /** Waits for a person. */
  WAITING,
  /** A person answered it. */
  ANSWERED,
  /** An approval a call has used: it never lets another call run. */
  USED,
  /** An approval request or approval past its expiry: refused. */
  EXPIRED
}
