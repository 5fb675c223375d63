package dev.hfr.bench.live.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Verify;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.verify.Verdict;
import dev.hfr.runtime.verify.Verifier;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The order service with a verified receipt: a receipt that names no order is rejected (V1). {@link
 * #placeOrder} can be looked up and cancelled; {@link #placeOrderNoUndo} can only be looked up — the same
 * write for a tool that declares no compensate method.
 */
public class VerifiedOrderTools {

  /** A receipt must name the order placed. */
  public static final class ReceiptVerifier implements Verifier<OrderReceipt> {
    @Override
    public Verdict verify(OrderReceipt receipt) {
      return receipt.orderId().isEmpty() ? Verdict.reject("receipt_without_order", Map.of("ref", receipt.ref()))
          : Verdict.accept();
    }
  }

  private final ToolHttp http;
  private final URI base;

  public VerifiedOrderTools(ToolHttp http, URI base) {
    this.http = http;
    this.base = base;
  }

  @SideEffect(value = Risk.R2, reconcile = "findOrder", compensate = "cancelOrder")
  @Verify(level = VerifyLevel.V1, by = ReceiptVerifier.class)
  public OrderReceipt placeOrder(int task, String ref, String item, int quantity) {
    return place(task, ref, item, quantity);
  }

  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  @Verify(level = VerifyLevel.V1, by = ReceiptVerifier.class)
  public OrderReceipt placeOrderNoUndo(int task, String ref, String item, int quantity) {
    return place(task, ref, item, quantity);
  }

  /** Reconciles a placement: the order of {@code ref} if one stands. */
  public Optional<OrderReceipt> findOrder(int task, String ref, String item, int quantity) {
    JsonNode o = http.getOrNull(base.resolve("/orders?ref=" + URLEncoder.encode(ref, StandardCharsets.UTF_8)), task);
    return o == null ? Optional.empty() : Optional.of(new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText()));
  }

  /** Reconciles a cancellation: the cancelled order of {@code ref}, if it was cancelled. */
  public Optional<OrderReceipt> findCancellation(int task, String ref, String item, int quantity) {
    JsonNode o = http.getOrNull(base.resolve("/orders/cancel?ref=" + URLEncoder.encode(ref, StandardCharsets.UTF_8)), task);
    return o == null ? Optional.empty() : Optional.of(new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText()));
  }

  /** Cancels the order of {@code ref}: the compensation of {@link #placeOrder}. */
  @SideEffect(value = Risk.R2, reconcile = "findCancellation")
  public OrderReceipt cancelOrder(int task, String ref, String item, int quantity) {
    JsonNode o = http.post(base.resolve("/orders/cancel"), task, Map.of("ref", ref), null);
    return new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText());
  }

  private OrderReceipt place(int task, String ref, String item, int quantity) {
    JsonNode o = http.post(base.resolve("/orders"), task, Map.of("ref", ref, "item", item, "qty", quantity), null);
    return new OrderReceipt(o.path("orderId").asText(), o.path("ref").asText());
  }
}
