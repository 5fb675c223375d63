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

  /** Fails on every odd call, so each logical call is one T1 failure then a success. */
  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 3, baseDelayMs = 0, maxDelayMs = 0, on = Fault.T1)
  public long flakyQuote(String sku) throws ConnectException {
    if ((calls.get()[0]++ & 1) == 0) {
      throw new ConnectException("connection refused");
    }
    return sku.hashCode() * 31L + sku.length();
  }
}
