package dev.hfr.runtime.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link PiiRedaction} runs its patterns only where a one-pass check says they could match. That check
 * must never skip a match: whatever the text, redacting with it equals redacting with every pattern.
 */
@DisplayName("PII redaction's pre-check")
class PiiRedactionPrecheckTest {

  /** Characters that make or break the patterns, with ordinary letters and text beyond ASCII. */
  private static final String ALPHABET = "0123456789012345678901234567890123456789 -()@+.abcxyzAZ_/:\u00e9\u4e2d";

  private static void assertSameAsEveryPattern(String text) {
    assertThat(PiiRedaction.redact(text)).as(text).isEqualTo(PiiRedaction.redactRunningEveryPattern(text));
  }

  @Test
  @DisplayName("skips no e-mail address, card, phone number or IPv4 address in tens of thousands of random texts")
  void randomTexts() {
    SplittableRandom random = new SplittableRandom(16);
    for (int i = 0; i < 40_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(60);
      for (int j = 0; j < length; j++) {
        text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      assertSameAsEveryPattern(text.toString());
    }
  }

  @Test
  @DisplayName("finds each kind at the edges of the check: 13 digits, 8 phone digits, three dots, separators, text around")
  void edges() {
    for (String text : new String[] {"4111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "x4111111111111111y",
        "4111\u00e91111 1111 1111", "+44 20 7946 0958", "+4420794", "(+44) 20.7946.0958", "1.2.3.4", "a1.2.3.4b",
        "999.2.3.4", "jane@example.com", "@", "a@b.cd", "hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a77-17",
        "hfr-12345678-1234-1234-1234-123456789012-4", ""}) {
      assertSameAsEveryPattern(text);
    }
    assertThat(PiiRedaction.redact("4111 1111 1111 1111")).isEqualTo("<card>");
    assertThat(PiiRedaction.redact("from 10.0.0.1.")).isEqualTo("from <ip>.");
  }

  @Test
  @DisplayName("that remembers each field's last text redacts a stream of events as redacting each alone does")
  void remembering() {
    PiiRedaction.Remembering writer = new PiiRedaction.Remembering();
    List<String> texts = List.of("acme", "bob@acme.com", "order-42", "call +44 20 7946 0958", "10.0.0.1 down");
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      String tenant = texts.get(random.nextInt(texts.size()));
      String taskId = random.nextBoolean() ? new String(texts.get(random.nextInt(texts.size()))) : "task-" + i;
      String rule = random.nextInt(4) == 0 ? null : texts.get(random.nextInt(texts.size()));
      DecisionEvent e = new DecisionEvent(i, "enforce", tenant, taskId, 1, "Mail.send", Risk.R0, 1, DegradeLevel.L0,
          Fault.T1, 0.9, rule, Action.RETRY, Reason.RETRYABLE, 0, 0, 1, 1, rule, null, null, null, null);
      DecisionEvent expected = PiiRedaction.apply(e);
      DecisionEvent actual = writer.apply(e);
      assertThat(actual).isEqualTo(expected);
      if (expected == e) {
        assertThat(actual).as("nothing to redact: the same event").isSameAs(e);
      }
    }
  }

  @Test
  @DisplayName("keeps the task id the engine makes for a call outside any task, which could read as a card number")
  void engineTaskIds() {
    SplittableRandom random = new SplittableRandom(3);
    int wouldBeGarbled = 0;
    for (int i = 0; i < 5_000; i++) {
      String id = "hfr-" + new UUID(random.nextLong(), random.nextLong()) + "-" + random.nextLong(1, 10_000_000L);
      assertThat(PiiRedaction.engineTaskId(id)).as(id).isTrue();
      assertThat(PiiRedaction.redactTaskId(id)).isSameAs(id);
      if (!PiiRedaction.redact(id).equals(id)) {
        wouldBeGarbled++;
      }
    }
    assertThat(wouldBeGarbled).as("engine ids the card pattern would have garbled").isPositive();
    for (String id : new String[] {"hfr-3F2A9C1E-0B7D-4C1E-9A55-2B1D6E0F4A77-17", "hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a77-",
        "hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a77-4111111111111111", "xfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a77-17",
        "hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a77-1 bob@acme.com", "hfr-3f2a9c1e+0b7d-4c1e-9a55-2b1d6e0f4a77-17"}) {
      assertThat(PiiRedaction.engineTaskId(id)).as(id).isFalse();
    }
    assertThat(PiiRedaction.redactTaskId("hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a7f-4111111111111111"))
        .isEqualTo("hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a7f-<card>");
    assertThat(PiiRedaction.redactTaskId("ticket bob@acme.com")).isEqualTo("ticket <email>");
  }

  @Test
  @DisplayName("that remembers the last engine id checks the next id of that engine by its prefix and number, as redacting it alone does")
  void rememberingEngineIds() {
    PiiRedaction.Remembering writer = new PiiRedaction.Remembering();
    String engine = "hfr-3f2a9c1e-0b7d-4c1e-9a55-2b1d6e0f4a7f-";
    String[] ids = {engine + 1, engine + 2, engine + "4111111111111111", engine + 3, engine + "1 bob@acme.com",
        engine + "123456789012", engine + "1234567890123", engine, engine + "4x", "hfr-00000000-0b7d-4c1e-9a55-2b1d6e0f4a7f-4",
        engine + 5, engine.toUpperCase() + "4111111111111111", engine + "+4420794609",
        engine.substring(0, engine.length() - 1) + "+44207946091", engine + 6};
    for (String id : ids) {
      DecisionEvent e = new DecisionEvent(1, "enforce", "acme", id, 1, "Mail.send", Risk.R0, 1, DegradeLevel.L0, Fault.T1,
          0.9, "r", Action.RETRY, Reason.RETRYABLE, 0, 0, 1, 1, null, null, null, null, null);
      assertThat(writer.apply(e).taskId()).as(id).isEqualTo(PiiRedaction.apply(e).taskId());
    }
  }
}
