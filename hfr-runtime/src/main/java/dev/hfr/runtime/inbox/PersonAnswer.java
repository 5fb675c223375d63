package dev.hfr.runtime.inbox;

import java.time.Instant;
import java.util.Objects;

/**
 * A person's answer to an inbox item, as recorded (the audit: who, when, why).
 *
 * @param answer what they answered
 * @param by who answered (the authenticated person; the token's operator name for HFR's own server)
 * @param at when
 * @param reason why, in their words (required to deny; may be empty otherwise)
 * @param result for {@link Answer#HAPPENED}: the provider's reference or result the model's next call gets, or {@code null}
 */
public record PersonAnswer(Answer answer, String by, Instant at, String reason, String result) {
  public PersonAnswer {
    Objects.requireNonNull(answer, "answer");
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(at, "at");
    reason = reason == null ? "" : reason;
  }
}
