package dev.hfr.bench.live.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An order service with R2 semantics: {@code POST /orders} creates a new order on every call (no
 * idempotency key); {@code GET /orders?ref=} looks an order up by its business reference, which is how a
 * client reconciles a write whose response it lost; {@code POST /orders/cancel} cancels the order of a
 * reference (a compensation). Every order created and not cancelled counts as an effect of its reference:
 * two standing orders for one reference are a duplicate, counted here.
 */
final class OrderService implements HttpHandler {

  private final FaultPlan plan;
  private final Wire wire;
  private final EffectLedger ledger;
  private final Map<String, String> orderByRef = new ConcurrentHashMap<>();
  private final Map<String, String> cancelledByRef = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  OrderService(FaultPlan plan, Wire wire, EffectLedger ledger) {
    this.plan = plan;
    this.wire = wire;
    this.ledger = ledger;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      ledger.request();
      int task = Wire.task(ex);
      if ("GET".equals(ex.getRequestMethod())) {
        String ref = Wire.query(ex).getOrDefault("ref", "");
        if (ex.getRequestURI().getPath().endsWith("/cancel")) {
          String cancelled = cancelledByRef.get(ref);
          if (cancelled == null) {
            Wire.send(ex, 404, order("", ref));
          } else {
            Wire.send(ex, 200, order(cancelled, ref));
          }
          return;
        }
        WireFault fault = plan.next(LiveServices.OP_ORDER_LOOKUP, task);
        if (wire.answerError(ex, fault, false)) {
          return;
        }
        String id = orderByRef.get(ref);
        if (id == null) {
          ObjectNode none = Wire.object();
          none.put("ref", ref);
          none.put("found", false);
          Wire.send(ex, 404, none);
        } else {
          Wire.send(ex, 200, order(id, ref));
        }
        return;
      }
      JsonNode req = Wire.body(ex);
      String ref = req.path("ref").asText("");
      if (ex.getRequestURI().getPath().endsWith("/cancel")) {
        String id = orderByRef.remove(ref);
        if (id != null) {
          cancelledByRef.put(ref, id);
          ledger.undo(ref);
        }
        Wire.send(ex, 200, order(id == null ? "" : id, ref));
        return;
      }
      WireFault fault = plan.next(LiveServices.OP_ORDER_CREATE, task);
      if (fault == WireFault.WRONG_RECEIPT_NOTHING_COMMITTED) {
        Wire.send(ex, 201, order("", ref));
        return;
      }
      if (wire.answerError(ex, fault, false)) {
        return;
      }
      String id = "ord_" + ids.incrementAndGet();
      orderByRef.putIfAbsent(ref, id);
      ledger.effect(ref);
      ledger.bill(task, 0.10);
      switch (fault) {
        case COMMIT_THEN_TIMEOUT -> wire.hold(ex);
        case COMMIT_THEN_DROP -> Wire.drop(ex);
        case COMMIT_THEN_WRONG_RECEIPT -> Wire.send(ex, 201, order("", ref));
        default -> Wire.send(ex, 201, order(id, ref));
      }
    }
  }

  private static ObjectNode order(String id, String ref) {
    ObjectNode o = Wire.object();
    o.put("orderId", id);
    o.put("ref", ref);
    o.put("status", "placed");
    return o;
  }
}
