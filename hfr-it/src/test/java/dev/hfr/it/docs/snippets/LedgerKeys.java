package dev.hfr.it.docs.snippets;

import dev.hfr.runtime.ledger.IdempotencyKeys;
import java.util.List;

/** The key functions as docs/LEDGER.md shows them; {@code DocCodeTest} runs it. */
final class LedgerKeys {

  private LedgerKeys() {}

  /** The three values LEDGER.md names: a write's key, a named step's key, and the arguments' hash. */
  static List<String> ofOneWrite() {
    // tag::keys[]
    List<Object> args = List.of("sku-lamp", 1);                 // the call's arguments, in order
    String key  = IdempotencyKeys.key("acme", "checkout-42", "ShopTools.createOrder", args, 0);  // 64 hex chars
    String step = IdempotencyKeys.keyForStep("acme", "checkout-42", "pay", "ShopTools.charge", args); // a named step
    String hash = IdempotencyKeys.argsHash(args);               // what the ledger stores instead of the arguments
    // end::keys[]
    return List.of(key, step, hash);
  }
}
