package dev.hfr.bench.live.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An e-mail service with R3 semantics: {@code POST /emails} sends at once; nothing can be looked up or
 * undone, and no key is honoured. Every e-mail sent counts as an effect of its business reference.
 */
final class EmailService implements HttpHandler {

  private final FaultPlan plan;
  private final Wire wire;
  private final EffectLedger ledger;
  private final AtomicLong ids = new AtomicLong();

  EmailService(FaultPlan plan, Wire wire, EffectLedger ledger) {
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
      WireFault fault = plan.next(LiveServices.OP_EMAIL, task);
      if (wire.answerError(ex, fault, false)) {
        return;
      }
      ledger.effect(ref);
      ledger.bill(task, 0.01);
      String id = "em_" + ids.incrementAndGet();
      switch (fault) {
        case COMMIT_THEN_TIMEOUT -> wire.hold(ex);
        case COMMIT_THEN_DROP -> Wire.drop(ex);
        default -> {
          ObjectNode o = Wire.object();
          o.put("messageId", id);
          o.put("ref", ref);
          Wire.send(ex, 202, o);
        }
      }
    }
  }
}
