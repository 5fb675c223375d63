package dev.hfr.runtime.internal.engine;


/**
 * RETRY_WAIT (Table 9), after the wait: the driver has already waited the backoff DECIDE chose (slept by
 * {@link BlockingDriver}); a write that reconciliation found absent is prepared again before its resend
 * (under a new key when it needs one, {@link RejectedWrite#prepareAgain}).
 */
final class RetryWait {

  private final RejectedWrite rejectedWrites;

  RetryWait(RejectedWrite rejectedWrites) {
    this.rejectedWrites = rejectedWrites;
  }

  <R> Next run(Call<R> c) {
    Next refused = rejectedWrites.prepareAgain(c);
    return refused != null ? refused : Next.to(ControllerState.RUN_STEP);
  }
}
