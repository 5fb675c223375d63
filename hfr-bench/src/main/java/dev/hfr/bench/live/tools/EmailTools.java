package dev.hfr.bench.live.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.net.URI;
import java.util.Map;

/** The e-mail service: sending is irreversible and cannot be looked up (R3) — never retried automatically. */
public class EmailTools {

  private final ToolHttp http;
  private final URI base;

  public EmailTools(ToolHttp http, URI base) {
    this.http = http;
    this.base = base;
  }

  @SideEffect(Risk.R3)
  public EmailReceipt send(int task, String ref, String to, String body) {
    JsonNode m = http.post(base.resolve("/emails"), task, Map.of("ref", ref, "to", to, "body", body), null);
    return new EmailReceipt(m.path("messageId").asText(), m.path("ref").asText());
  }
}
