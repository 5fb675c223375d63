package dev.hfr.runtime.model;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;

/**
 * One decision a model ladder took about a model call — what it saw and what it did — delivered to the listener
 * given to the adapter's builder and carried by {@link ModelCallFailedException#decisions()}.
 *
 * @param rung the name of the model rung the decision is about
 * @param level that rung's ladder level
 * @param attempt the attempt on that rung (1 for the first)
 * @param fault the F2D-9 class of the failure, or {@code null} for an accepted answer
 * @param rule the classifier rule that decided the class ({@code ok} for an accepted answer)
 * @param action what HFR did: {@code ACCEPT}, {@code RETRY}, {@code COMPRESS}, {@code DEGRADE_MODEL},
 *     {@code ESCALATE} or {@code FAIL} (the paper's action names)
 * @param delayMillis the wait before the next attempt, 0 when none
 * @param detail a short human-readable reason
 */
public record ModelDecision(
    String rung, DegradeLevel level, int attempt, Fault fault, String rule, String action, long delayMillis, String detail) {

  @Override
  public String toString() {
    return String.format("%-14s %-3s attempt %d  %-12s -> %-13s%s  %s", rung, level, attempt,
        fault == null ? "ok" : fault.name(), action, delayMillis > 0 ? " (wait " + delayMillis + " ms)" : "", detail);
  }
}
