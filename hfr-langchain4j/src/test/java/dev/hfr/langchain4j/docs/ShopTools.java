package dev.hfr.langchain4j.docs;

import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.langchain4j.agent.tool.Tool;
import java.net.URI;
import java.util.Optional;

/** The tools docs/LANGCHAIN4J.md's examples give a model (a stand-in backend: the page shows the wiring). */
public class ShopTools {

  private final URI backend;

  public ShopTools(URI backend) {
    this.backend = backend;
  }

  /** Places an order: a write that can be looked up. */
  @Tool("Places an order")
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public String placeOrder(String sku, int quantity) {
    return "ORD-" + sku + "-" + quantity + "@" + backend.getHost();
  }

  /** The order placed for these arguments, if any. */
  public Optional<String> findOrder(String sku, int quantity) {
    return Optional.empty();
  }

  // tag::charge[]
  @Tool("Charges a customer's account")
  @SideEffect(Risk.R1) @Idempotent
  public String charge(String account, int cents, @IdempotencyKey String key) { return account + ":" + cents + ":" + key; }
  // end::charge[]
}
