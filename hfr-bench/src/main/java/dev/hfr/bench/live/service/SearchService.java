package dev.hfr.bench.live.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A read-only search service ({@code GET /search?q=}) and its cache ({@code GET /cache?q=}), R0. The
 * search may fail on the wire, answer without the {@code results} field, or answer a stale, different
 * query (recorded as wrong); the cache always answers, marked {@code stale}. Billing: 0.10 per search.
 */
final class SearchService implements HttpHandler {

  private final FaultPlan plan;
  private final Wire wire;
  private final EffectLedger ledger;
  private final AtomicLong ids = new AtomicLong();

  SearchService(FaultPlan plan, Wire wire, EffectLedger ledger) {
    this.plan = plan;
    this.wire = wire;
    this.ledger = ledger;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      ledger.request();
      boolean cache = ex.getRequestURI().getPath().startsWith("/cache");
      int task = Wire.task(ex);
      Map<String, String> q = Wire.query(ex);
      String query = q.getOrDefault("q", "");
      WireFault fault = cache ? WireFault.NONE : plan.next(LiveServices.OP_SEARCH, task);
      if (wire.answerError(ex, fault, false)) {
        return;
      }
      if (!cache) {
        ledger.bill(task, 0.10);
      }
      String id = (cache ? "c" : "s") + ids.incrementAndGet();
      ObjectNode body = Wire.object();
      body.put("id", id);
      boolean wrong = fault == WireFault.WRONG_BUT_PLAUSIBLE;
      body.put("query", wrong ? query + " (last week)" : query);
      if (wrong) {
        ledger.wrong(id);
      }
      if (fault == WireFault.SCHEMA_MISMATCH) {
        ledger.wrong(id); // the results field is missing
      } else {
        body.putArray("results").add("doc-" + Math.abs(query.hashCode() % 1000)).add("doc-" + Math.abs((query + "2").hashCode() % 1000));
      }
      body.put("stale", cache);
      Wire.send(ex, 200, body);
    }
  }
}
