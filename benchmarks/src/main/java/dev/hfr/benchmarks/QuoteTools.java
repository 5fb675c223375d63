package dev.hfr.benchmarks;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.net.ConnectException;

/**
 * The tool every library protects in the benchmarks: a read-only price lookup that does a little work
 * (so the call is not optimised away), and a flaky variant that fails every other call with a
 * connection error — a T1 fault in every library's eyes.
 */
public class QuoteTools {

  // One counter per thread: a shared (racy) counter let two threads see several failures in a row, so
  // the retries ran out and the two-thread transient cases failed. Every library pays the same lookup.
  private final ThreadLocal<long[]> calls = ThreadLocal.withInitial(() -> new long[1]);

  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 3, baseDelayMs = 0, maxDelayMs = 0, on = Fault.T1)
  public long quote(String sku) {
    return sku.hashCode() * 31L + sku.length();
  }

  /**
   * Fails on every odd call, so each logical call is one T1 failure then a success. The exception has no
   * stack trace: filling one costs about a microsecond, the same in every library, and would hide what the
   * libraries themselves add (a network client's own exceptions are often pre-built or stackless too).
   */
  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 3, baseDelayMs = 0, maxDelayMs = 0, on = Fault.T1)
  public long flakyQuote(String sku) throws ConnectException {
    if ((calls.get()[0]++ & 1) == 0) {
      throw new Refused();
    }
    return sku.hashCode() * 31L + sku.length();
  }

  /** A connection refusal without a stack trace. */
  static final class Refused extends ConnectException {
    private static final long serialVersionUID = 1L;

    Refused() {
      super("connection refused");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
