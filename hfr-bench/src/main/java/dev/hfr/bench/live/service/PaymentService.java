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
 * A payment service with R1 semantics: {@code POST /payments} honours an {@code Idempotency-Key} header
 * — a repeated key replays the first charge instead of charging again (the Stripe convention). Without
 * a key every call charges. Every charge counts as an effect of its business reference.
 */
final class PaymentService implements HttpHandler {

  private final FaultPlan plan;
  private final Wire wire;
  private final EffectLedger ledger;
  private final Map<String, String> chargeByKey = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  PaymentService(FaultPlan plan, Wire wire, EffectLedger ledger) {
    this.plan = plan;
    this.wire = wire;
    this.ledger = ledger;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      ledger.request();
      int task = Wire.task(ex);
      JsonNode req = Wire.body(ex);
      String ref = req.path("ref").asText("");
      String key = ex.getRequestHeaders().getFirst("idempotency-key");
      WireFault fault = plan.next(LiveServices.OP_PAYMENT, task);
      if (wire.answerError(ex, fault, false)) {
        return;
      }
      String id;
      boolean replay;
      synchronized (chargeByKey) {
        String existing = key == null ? null : chargeByKey.get(key);
        replay = existing != null;
        if (replay) {
          id = existing;
        } else {
          id = "ch_" + ids.incrementAndGet();
          if (key != null) {
            chargeByKey.put(key, id);
          }
          ledger.effect(ref);
          ledger.bill(task, 0.10);
        }
      }
      switch (fault) {
        case COMMIT_THEN_TIMEOUT -> wire.hold(ex);
        case COMMIT_THEN_DROP -> Wire.drop(ex);
        default -> {
          ObjectNode o = Wire.object();
          o.put("chargeId", id);
          o.put("ref", ref);
          o.put("amount", req.path("cents").asLong());
          if (replay) {
            ex.getResponseHeaders().set("idempotent-replayed", "true");
          }
          Wire.send(ex, replay ? 200 : 201, o);
        }
      }
    }
  }
}
