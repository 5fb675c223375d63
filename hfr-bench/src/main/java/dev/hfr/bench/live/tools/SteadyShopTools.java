package dev.hfr.bench.live.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The shop of a plain Java service as its developers would annotate it, with HFR's defaults only (no
 * {@code @Retry}, {@code @Timeout} or ladder): a search (R0), an order found again by its reference (R2), a charge
 * under an {@code Idempotency-Key} (R1) and a receipt e-mail (R3). {@link dev.hfr.bench.live.SteadyShopRun} drives
 * it at a steady rate against the live services.
 */
public class SteadyShopTools {

  private final ToolHttp http;
  private final URI search;
  private final URI orders;
  private final URI payments;
  private final URI emails;

  public SteadyShopTools(ToolHttp http, URI search, URI orders, URI payments, URI emails) {
    this.http = http;
    this.search = search;
    this.orders = orders;
    this.payments = payments;
    this.emails = emails;
  }

  @SideEffect(Risk.R0)
  public String search(int task, String query) {
    JsonNode r = http.getOrNull(search.resolve("/search?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8)), task);
    if (r == null) {
      throw new IllegalStateException("search answered 404");
    }
    return r.path("id").asText();
  }

  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public OrderReceipt createOrder(int task, String ref, String item) {
    JsonNode o = http.post(orders.resolve("/orders"), task, Map.of("ref", ref, "item", item, "qty", 1), null);
    return new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText());
  }

  /** Reconciles {@link #createOrder}: the order of {@code ref} if it was placed. */
  public Optional<OrderReceipt> findOrder(int task, String ref, String item) {
    JsonNode o = http.getOrNull(orders.resolve("/orders?ref=" + URLEncoder.encode(ref, StandardCharsets.UTF_8)), task);
    return o == null ? Optional.empty() : Optional.of(new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText()));
  }

  @SideEffect(Risk.R1)
  @Idempotent
  public PaymentReceipt charge(@IdempotencyKey String idempotencyKey, int task, String ref, long cents) {
    JsonNode c = http.post(payments.resolve("/payments"), task, Map.of("ref", ref, "cents", cents), idempotencyKey);
    return new PaymentReceipt(c.path("chargeId").asText(), c.path("ref").asText());
  }

  @SideEffect(Risk.R3)
  public EmailReceipt sendMail(int task, String ref, String to) {
    JsonNode m = http.post(emails.resolve("/emails"), task, Map.of("ref", ref, "to", to, "body", "thanks"), null);
    return new EmailReceipt(m.path("messageId").asText(), m.path("ref").asText());
  }
}
