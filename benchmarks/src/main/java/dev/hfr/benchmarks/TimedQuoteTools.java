package dev.hfr.benchmarks;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Timeout;

/** {@link QuoteTools}'s lookup with every attempt bounded: what a timeout adds to a clean call. */
@Timeout(ms = 2000)
public class TimedQuoteTools {

  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 3, baseDelayMs = 0, maxDelayMs = 0, on = Fault.T1)
  public long quote(String sku) {
    return sku.hashCode() * 31L + sku.length();
  }
}
