package dev.hfr.samples.shop;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Degrade;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tools an shopping agent calls, one of each risk. The annotations are all HFR needs: the processor
 * checks them at compile time and generates {@code ShopTools_Recovering}, which Dagger hands out wherever
 * {@code ShopTools} is injected (through the generated {@code ShopTools_HfrModule}).
 */
public class ShopTools {

  /** What the deterministic fallback answers with when it has seen nothing yet. */
  static final List<Product> BESTSELLERS = List.of(new Product("sku-lamp", "Desk lamp", 2900));

  private final ShopApi api;
  private final Map<String, List<Product>> lastKnown = new ConcurrentHashMap<>();

  @Inject
  public ShopTools(ShopApi api) {
    this.api = api;
  }

  // tag::search[]
  /** Searches the catalogue: read-only; on failure the mirror (L2), then the last known answer (L4). */
  @SideEffect(Risk.R0)
  @Criticality(Criticality.Level.LOW)
  @Retry(maxAttempts = 4, baseDelayMs = 50, maxDelayMs = 400)
  @Degrade(to = "searchMirror", level = DegradeLevel.L2)
  @Degrade(to = "searchCache", level = DegradeLevel.L4)
  public List<Product> search(String query) throws IOException {
    List<Product> found = parse(api.get("/search?" + ShopApi.encode(Map.of("q", query))));
    lastKnown.put(query, found);
    return found;
  }
  // end::search[]

  /** The same search on the mirror service: an equivalent tool (L2). */
  @SideEffect(Risk.R0)
  public List<Product> searchMirror(String query) throws IOException {
    return parse(api.get("/mirror/search?" + ShopApi.encode(Map.of("q", query))));
  }

  /** The last answer seen for the query, or the bestsellers: a deterministic fallback (L4), no network. */
  @SideEffect(Risk.R0)
  public List<Product> searchCache(String query) {
    return lastKnown.getOrDefault(query, BESTSELLERS);
  }

  // tag::writes[]
  /** Charges an order: an idempotent write; every attempt carries the same key, so it is charged once. */
  @SideEffect(Risk.R1)
  @Idempotent
  @Retry(maxAttempts = 3, baseDelayMs = 50, maxDelayMs = 2000, on = {Fault.T1, Fault.T2, Fault.T3})
  public Receipt charge(String orderId, long amountCents, @IdempotencyKey String idempotencyKey) throws IOException {
    String body = api.post("/payments",
        Map.of("orderId", orderId, "amountCents", Long.toString(amountCents)),
        Map.of("Idempotency-Key", idempotencyKey));
    return Receipt.parse(body);
  }

  /** Creates an order: a write that is not idempotent but can be looked up, so HFR reconciles before resending. */
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  @Retry(maxAttempts = 3, baseDelayMs = 50, maxDelayMs = 400)
  public Order createOrder(String customerRef, String sku, int quantity) throws IOException {
    String body = api.post("/orders",
        Map.of("ref", customerRef, "sku", sku, "quantity", Integer.toString(quantity)), Map.of());
    return Order.parse(body);
  }

  /** Read-only by contract: the order committed under this reference, if any. */
  public Optional<Order> findOrder(String customerRef, String sku, int quantity) throws IOException {
    return api.find("/orders?" + ShopApi.encode(Map.of("ref", customerRef))).map(Order::parse);
  }

  /** Sends an e-mail: irreversible, so never retried automatically. */
  @SideEffect(Risk.R3)
  public String sendEmail(String to, String subject) throws IOException {
    return api.post("/emails", Map.of("to", to, "subject", subject), Map.of()).strip();
  }
  // end::writes[]

  private static List<Product> parse(String body) {
    return body.lines().filter(l -> !l.isBlank()).map(Product::parse).toList();
  }
}
