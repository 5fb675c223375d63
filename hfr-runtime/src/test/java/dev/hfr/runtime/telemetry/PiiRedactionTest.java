package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.PiiRedaction;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("PII redaction of free-text event fields")
class PiiRedactionTest {

  @Test
  @DisplayName("replaces e-mail addresses, card numbers, international phone numbers and IPv4 addresses")
  void replaces() {
    assertThat(PiiRedaction.redact("refund for jane.doe+shop@example.co.uk")).isEqualTo("refund for <email>");
    assertThat(PiiRedaction.redact("card 4111 1111 1111 1111 declined")).isEqualTo("card <card> declined");
    assertThat(PiiRedaction.redact("card-4111-1111-1111-1111")).isEqualTo("card-<card>");
    assertThat(PiiRedaction.redact("call +44 20 7946 0958 back")).isEqualTo("call <phone> back");
    assertThat(PiiRedaction.redact("from 192.168.10.7")).isEqualTo("from <ip>");
  }

  @Test
  @DisplayName("keeps ordinary ids, time stamps and digit runs that fail the card check, as the same instance")
  void keeps() {
    for (String text : new String[] {"order-42", "checkout-7", "task-1732912345678", "4111 1111 1111 1112",
        "hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a77-17", "version 1.2"}) {
      assertThat(PiiRedaction.redact(text)).isSameAs(text);
    }
    assertThat(PiiRedaction.redact(null)).isNull();
  }

  @Test
  @DisplayName("redacts tenant, task id, rule and verifier reason of an event and leaves the other fields")
  void event() {
    DecisionEvent clean = DecisionLogWriterTest.event(1);
    assertThat(PiiRedaction.apply(clean)).isSameAs(clean);
    DecisionEvent e = new DecisionEvent(1L, "enforce", "bob@acme.com", "ticket-+1 415 555 0100", 3, "Mail.send", clean.risk(), 1,
        clean.rung(), clean.fault(), 0.9, "custom 10.0.0.1", clean.action(), clean.reason(), 0, 0, 1, 1,
        "wrong recipient carol@acme.com", "hash", null, "key", "COMMITTED");
    DecisionEvent r = PiiRedaction.apply(e);
    assertThat(r.tenant()).isEqualTo("<email>");
    assertThat(r.taskId()).isEqualTo("ticket-<phone>");
    assertThat(r.rule()).isEqualTo("custom <ip>");
    assertThat(r.verifierReason()).isEqualTo("wrong recipient <email>");
    assertThat(r).usingRecursiveComparison().ignoringFields("tenant", "taskId", "rule", "verifierReason").isEqualTo(e);
  }
}
