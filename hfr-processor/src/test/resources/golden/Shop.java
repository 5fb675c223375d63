package com.acme.shop;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Degrade;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Timeout;
import dev.hfr.annotations.Verify;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.verify.Verdict;
import dev.hfr.runtime.verify.Verifier;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** The representative tool class of the golden files: one tool of each risk. */
public class Shop {

  /** Accepts an order id that looks like one. */
  public static final class OrderIdVerifier implements Verifier<String> {
    @Override
    public Verdict verify(String orderId) {
      return orderId.startsWith("ord-") ? Verdict.accept() : Verdict.reject("malformed_order_id");
    }
  }

  private final String region;

  @Inject
  public Shop(String region) {
    this.region = region;
  }

  @SideEffect(Risk.R0)
  @Criticality(Criticality.Level.LOW)
  @Timeout(ms = 2000)
  @Degrade(to = "searchMirror", level = DegradeLevel.L2)
  @Degrade(to = "searchCache", level = DegradeLevel.L4)
  public List<String> search(String query, int limit) throws IOException {
    return List.of(region, query);
  }

  @SideEffect(Risk.R0)
  public List<String> searchMirror(String query, int limit) {
    return List.of(query);
  }

  @SideEffect(Risk.R0)
  protected List<String> searchCache(String query, int limit) {
    return List.of();
  }

  @SideEffect(Risk.R1)
  @Idempotent
  @Retry(maxAttempts = 3, baseDelayMs = 100, maxDelayMs = 1000, on = {Fault.T1, Fault.T2})
  public long charge(String orderId, long amountCents, @IdempotencyKey String idempotencyKey) {
    return amountCents;
  }

  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  @Verify(level = VerifyLevel.V1, by = OrderIdVerifier.class)
  @Criticality(Criticality.Level.HIGH)
  public String createOrder(String sku, int quantity) {
    return "ord-" + sku;
  }

  /** Read-only by contract: was an order for this sku and quantity committed? */
  public Optional<String> findOrder(String sku, int quantity) {
    return Optional.empty();
  }

  @SideEffect(value = Risk.R3, requiresApproval = true)
  public void sendEmail(String to, String body) {}
}
