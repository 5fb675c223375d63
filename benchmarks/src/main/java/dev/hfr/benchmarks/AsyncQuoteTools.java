package dev.hfr.benchmarks;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.util.concurrent.CompletableFuture;

/** {@link QuoteTools#quote} as an asynchronous tool: the answer is a future, already complete (a cache hit). */
public class AsyncQuoteTools {

  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 3, baseDelayMs = 0, maxDelayMs = 0, on = Fault.T1)
  public CompletableFuture<Long> quote(String sku) {
    return CompletableFuture.completedFuture(sku.hashCode() * 31L + sku.length());
  }
}
