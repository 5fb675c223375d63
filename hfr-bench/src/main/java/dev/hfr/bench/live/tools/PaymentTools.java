package dev.hfr.bench.live.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.net.URI;
import java.util.Map;

/** The payment service: an idempotent write (R1) — the same key on every attempt charges at most once. */
public class PaymentTools {

  private final ToolHttp http;
  private final URI base;

  public PaymentTools(ToolHttp http, URI base) {
    this.http = http;
    this.base = base;
  }

  @SideEffect(Risk.R1)
  @Idempotent
  @Retry(maxAttempts = 4, baseDelayMs = 50, maxDelayMs = 500, on = {Fault.T1, Fault.T2, Fault.T3})
  public PaymentReceipt charge(@IdempotencyKey String idempotencyKey, int task, String ref, long cents) {
    JsonNode c = http.post(base.resolve("/payments"), task, Map.of("ref", ref, "cents", cents), idempotencyKey);
    return new PaymentReceipt(c.path("chargeId").asText(), c.path("ref").asText());
  }
}
