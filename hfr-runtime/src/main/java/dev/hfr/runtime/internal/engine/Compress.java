package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.action.Reason;

/** COMPRESS (Table 9): shrinks the context after an overflow; the call is resent only if it changed. */
final class Compress {

  private final FailureHandling failures;
  private final Check check;
  private final Decide decide;

  Compress(FailureHandling failures, Check check, Decide decide) {
    this.failures = failures;
    this.check = check;
    this.decide = decide;
  }

  <R> Next run(Call<R> c) {
    boolean changed;
    try {
      changed = failures.compressor.compress(c.tool(), c.invocation, c.compressRounds++);
    } catch (Exception e) {
      changed = false;
    }
    if (!changed) {
      return decide.fallback(c, Reason.CONTEXT_NOT_COMPRESSIBLE);
    }
    c.history().markCompressed();
    return check.retry(c);
  }
}
