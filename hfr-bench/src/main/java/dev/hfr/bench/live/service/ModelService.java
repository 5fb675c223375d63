package dev.hfr.bench.live.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An LLM-style endpoint with two model tiers, {@code POST /v1/models/{primary|backup}/messages}, answering
 * like a real provider: a message with content, stop reason and usage; or 429 with {@code retry-after},
 * 529 {@code overloaded_error}, 400 {@code context_length_exceeded} or {@code content_filter}, 5xx, a
 * malformed message (no content), a plausible but wrong answer, a held or dropped connection.
 *
 * <p>A correct answer to prompt {@code p} carries {@code answer_of = digest(p)}; a wrong one does not,
 * and its id is recorded as wrong. Billing: primary 1.00, backup 0.45 per answered request.
 */
final class ModelService implements HttpHandler {

  private final FaultPlan plan;
  private final Wire wire;
  private final EffectLedger ledger;
  private final AtomicLong ids = new AtomicLong();

  ModelService(FaultPlan plan, Wire wire, EffectLedger ledger) {
    this.plan = plan;
    this.wire = wire;
    this.ledger = ledger;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      ledger.request();
      String path = ex.getRequestURI().getPath();
      boolean primary = path.contains("/primary/");
      String op = primary ? LiveServices.OP_MODEL_PRIMARY : LiveServices.OP_MODEL_BACKUP;
      int task = Wire.task(ex);
      JsonNode req = Wire.body(ex);
      WireFault fault = plan.next(op, task);
      if (wire.answerError(ex, fault, true)) {
        return;
      }
      String prompt = req.path("prompt").asText("");
      ledger.bill(task, primary ? 1.00 : 0.45);
      String id = "msg_" + (primary ? "p" : "b") + ids.incrementAndGet();
      ObjectNode msg = Wire.object();
      msg.put("id", id);
      msg.put("type", "message");
      msg.put("model", primary ? "bench-large" : "bench-small");
      if (fault == WireFault.SCHEMA_MISMATCH) {
        ledger.wrong(id); // a message without content: a malformed answer
      } else {
        boolean wrong = fault == WireFault.WRONG_BUT_PLAUSIBLE;
        msg.put("content", (wrong ? "A confident answer to a different question" : "Answer to: " + prompt));
        msg.put("answer_of", wrong ? digest(prompt + "#stale") : digest(prompt));
        if (wrong) {
          ledger.wrong(id);
        }
      }
      msg.put("stop_reason", "end_turn");
      ObjectNode usage = msg.putObject("usage");
      usage.put("input_tokens", prompt.length() / 4 + 1);
      usage.put("output_tokens", 24);
      Wire.send(ex, 200, msg);
    }
  }

  /** The digest a correct answer to {@code prompt} carries. */
  static String digest(String prompt) {
    return Integer.toHexString(prompt.hashCode() * 31 + 7);
  }
}
