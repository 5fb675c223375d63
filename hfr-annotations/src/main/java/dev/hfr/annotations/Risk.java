package dev.hfr.annotations;

/**
 * The side-effect risk of a tool method (the paper's Table 7). The level decides what the runtime
 * may do automatically after a failure.
 */
public enum Risk {
  /** Read-only, no side effect: retried freely within the retry budgets. */
  R0,
  /** Idempotent write honouring an idempotency key: retried with the same key on every attempt. */
  R1,
  /**
   * Non-idempotent write whose outcome can be queried: after an ambiguous failure the runtime first
   * reconciles (asks the {@code reconcile} method whether the write committed) and retries only when
   * the write is known to be absent.
   */
  R2,
  /** Irreversible or unqueryable write (e-mail, transfer, delete): never retried automatically. */
  R3;

  /** Whether a call at this level can change the outside world. */
  public boolean isWrite() {
    return this != R0;
  }
}
