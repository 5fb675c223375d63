package dev.hfr.benchmarks;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;

/** An R1 write for the ledger benchmark: the service would deduplicate on the key. */
public class PaymentTools {

  @SideEffect(Risk.R1)
  @Idempotent
  public String charge(String account, long cents, @IdempotencyKey String key) {
    return key;
  }
}
