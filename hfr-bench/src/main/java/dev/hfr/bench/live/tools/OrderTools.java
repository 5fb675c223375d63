package dev.hfr.bench.live.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The order service: placing an order is a non-idempotent write whose outcome can be looked up by its
 * business reference (R2) — so after a timeout or a dropped connection the runtime reconciles through
 * {@link #findOrder} before it would place it again.
 */
public class OrderTools {

  private final ToolHttp http;
  private final URI base;

  public OrderTools(ToolHttp http, URI base) {
    this.http = http;
    this.base = base;
  }

  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public OrderReceipt placeOrder(int task, String ref, String item, int quantity) {
    JsonNode o = http.post(base.resolve("/orders"), task, Map.of("ref", ref, "item", item, "qty", quantity), null);
    return new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText());
  }

  /** Reconciles {@link #placeOrder}: the order of {@code ref} if it was placed. */
  public Optional<OrderReceipt> findOrder(int task, String ref, String item, int quantity) {
    JsonNode o = http.getOrNull(base.resolve("/orders?ref=" + URLEncoder.encode(ref, StandardCharsets.UTF_8)), task);
    return o == null ? Optional.empty() : Optional.of(new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText()));
  }
}
