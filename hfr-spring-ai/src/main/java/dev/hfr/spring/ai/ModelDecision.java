package dev.hfr.spring.ai;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;

/**
 * One decision {@link HfrChatModel} took about a model call, delivered to the listener given to its builder.
 *
 * @param rung the name of the model rung the decision is about
 * @param level that rung's ladder level
 * @param attempt the attempt on that rung (1 for the first)
 * @param fault the F2D-9 class of the failure, or {@code null} for an accepted answer
 * @param rule the classifier rule that decided the class ({@code ok} for an accepted answer)
 * @param action {@code ACCEPT}, {@code RETRY}, {@code DEGRADE_MODEL}, {@code ESCALATE} or {@code FAIL}
 * @param delayMillis the wait before the next attempt, 0 when none
 * @param detail a short human-readable reason
 */
public record ModelDecision(
    String rung, DegradeLevel level, int attempt, Fault fault, String rule, String action, long delayMillis, String detail) {}
