package dev.hfr.samples.shop;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The program of docs/GETTING-STARTED.md: an engine, the shop's tools as Dagger hands them out, and one
 * task that places an order and charges it. The page includes the regions between the {@code tag::} and
 * {@code end::} comments, and {@code CheckoutTest} runs them against the shop's services on 127.0.0.1.
 */
public final class Checkout {

  private Checkout() {}

  /** The engine with an embedded ledger in {@code ledgerDir} and its meters in {@code meters}. */
  public static Hfr engine(Path ledgerDir, MeterRegistry meters) {
    // tag::engine[]
    Hfr hfr = Hfr.builder()
        .ledgerPath(ledgerDir)   // the embedded ledger's directory; without this line: ./hfr-ledger
        .meterRegistry(meters)   // harness.attempts, harness.retries, ... (optional)
        .build();
    // end::engine[]
    return hfr;
  }

  /** The shop's tools through HFR: Dagger injects the generated {@code ShopTools_Recovering}. */
  public static ShopTools tools(Hfr hfr, ShopApi api) {
    // tag::inject[]
    ShopTools tools = DaggerShopComponent.factory().create(hfr, api).shopTools();
    // end::inject[]
    return tools;
  }

  // tag::task[]
  /** Orders one lamp for a cart and pays for it, as one task; says how it ended. */
  public static String checkout(Hfr hfr, ShopTools tools, String cartId) throws IOException {
    TaskSpec spec = TaskSpec.builder("acme", "checkout-" + cartId).build();   // tenant, task id
    try (TaskScope task = hfr.openTask(spec)) {
      Order order = tools.createOrder(cartId, "sku-lamp", 1);   // a lost answer is reconciled, not resent
      Receipt receipt = tools.charge(order.id(), 2900, null);  // HFR fills in the idempotency key
      return "paid " + receipt.amountCents() + " for " + order.id();
    } catch (OutcomeUnknownException e) {
      // the write may have been applied: do NOT resend it; run the task again with the same id and HFR
      // reconciles the write before anything else
      return "unknown: " + e.outcome().reason();
    } catch (ToolCallException e) {
      // refused, escalated or failed; the tool's own exception is e.getCause()
      return "failed: " + e.outcome().reason() + (e.outcome().retryable() ? " (a later call may succeed)" : "");
    }
  }
  // end::task[]
}
