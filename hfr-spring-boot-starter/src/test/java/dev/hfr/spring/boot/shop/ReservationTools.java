package dev.hfr.spring.boot.shop;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import org.springframework.stereotype.Component;

/** A write tool (R1: the service honours an idempotency key), so the tests see the ledger at work. */
@Component
public class ReservationTools {

  private final StockService stock;

  public ReservationTools(StockService stock) {
    this.stock = stock;
  }

  @SideEffect(Risk.R1)
  @Idempotent
  public String reserve(String sku, @IdempotencyKey String key) {
    return stock.reserve(sku, key);
  }

  /** Needs a human's approval, which the default gate never gives: every call escalates. */
  @SideEffect(value = Risk.R3, requiresApproval = true)
  public String cancelAll(String reason) {
    return stock.reserve("cancel-all", reason);
  }
}
