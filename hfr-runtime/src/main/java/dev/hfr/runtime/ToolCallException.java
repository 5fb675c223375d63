package dev.hfr.runtime;

import dev.hfr.annotations.Fault;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Thrown by a recovering proxy when HFR ends a tool call without an accepted result. Unchecked, and never
 * the tool's own exception: that one is the {@link #getCause() cause}, so a caller that retries on
 * {@code IOException} cannot resend a write HFR decided not to resend. The subclass names the case:
 *
 * <ul>
 *   <li>{@link CallRefusedException} — policy, approval, a task limit or another recoverer refused the call;
 *   <li>{@link CallEscalatedException} — handed to a human or upstream system with its evidence;
 *   <li>{@link OutcomeUnknownException}, a {@link CallEscalatedException} — a write may or may not have been
 *       applied and a person was asked: never resend it;
 *   <li>{@link CallFailedException} — a structured failure; {@code outcome().retryable()} says whether a
 *       later, separate call could succeed.
 * </ul>
 *
 * <p>{@link #outcome()} is the structured outcome; {@link #taskReport()} the task's report when the call
 * ended, readable in a {@code catch} after the task's scope has closed; the message ends with what to do
 * next.
 */
public class ToolCallException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Reasons that mean the call was refused rather than tried and failed. */
  private static final Set<String> REFUSALS = Set.of("policy_refusal", "approval_denied", "task_limit_reached",
      "repeated_action", "key_in_use", "already_committed", "approval_expired", "approval_used", "closed_by_person",
      "ledger_unavailable");

  private final transient ToolOutcome outcome;
  private final transient Supplier<TaskReport> report;
  /** When HFR expects to admit the call again, in ms from when it ended; -1 when it does not say. Set once, by the engine. */
  private long admitAfterMillis = -1;
  /** Whether the same write may be resent under its idempotency key (an R1 write whose answer was lost). */
  private boolean resendableUnderKey;

  /** A call that ended without an accepted result; prefer {@link #of} so the subclass names the case. */
  public ToolCallException(ToolOutcome outcome, Throwable cause) {
    this(outcome, cause, true);
  }

  /**
   * @param stackTrace whether the JVM records where this exception was created; the engine passes {@code
   *     false} unless asked ({@code Hfr.Builder.stackTraces}), since filling in a stack trace costs more than
   *     the rest of a failed call and the cause keeps its own
   */
  public ToolCallException(ToolOutcome outcome, Throwable cause, boolean stackTrace) {
    this(outcome, cause, null, "see the outcome's reason and the decision log", stackTrace);
  }

  /**
   * @param report the task's report, read when asked; {@code null} when there is none
   * @param nextStep what the caller can do, appended to the message
   * @param stackTrace whether the JVM records where this exception was created
   */
  protected ToolCallException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, String nextStep,
      boolean stackTrace) {
    super(message(outcome, nextStep), cause, true, stackTrace);
    this.outcome = outcome;
    this.report = report;
  }

  /**
   * The exception that names how the call ended.
   *
   * @param outcome the call's structured outcome
   * @param cause the tool's last failure (or the engine's), {@code null} when there was none
   * @param writeOutcomeUnknown whether a write may have been applied without anyone knowing
   * @param report the task's report, read when asked; {@code null} when there is none
   * @param stackTrace whether the JVM records where the exception was created
   */
  public static ToolCallException of(ToolOutcome outcome, Throwable cause, boolean writeOutcomeUnknown,
      Supplier<TaskReport> report, boolean stackTrace) {
    Objects.requireNonNull(outcome, "outcome");
    if (writeOutcomeUnknown && !"key_in_use".equals(outcome.reason())) {
      return new OutcomeUnknownException(outcome, cause, report, stackTrace);
    }
    if ("awaiting_approval".equals(outcome.reason())) {
      return new CallAwaitingApprovalException(outcome, cause, report, stackTrace);
    }
    if (outcome.errorType() == Fault.T8 || REFUSALS.contains(outcome.reason())) {
      return new CallRefusedException(outcome, cause, report, stackTrace);
    }
    if (outcome.status() == ToolOutcome.Status.ESCALATED) {
      return new CallEscalatedException(outcome, cause, report, stackTrace);
    }
    return new CallFailedException(outcome, cause, report, stackTrace);
  }

  /** The structured outcome of the call. */
  public ToolOutcome outcome() {
    return outcome;
  }

  /**
   * The report of the task the call belonged to, as it stands now (the call included); empty when the
   * exception was not thrown by the engine.
   */
  public Optional<TaskReport> taskReport() {
    return report == null ? Optional.empty() : Optional.of(report.get());
  }

  /**
   * How long after this call ended HFR expects to admit the same call: the call was refused by an open breaker
   * (its cool-down), an empty retry budget (its next token) or a rate limit (the provider's reset time), or
   * empty when nothing refused it. A scheduler that retries (Temporal, a queue) waits at least this long.
   */
  public Optional<java.time.Duration> admitAfter() {
    return admitAfterMillis < 0 ? Optional.empty() : Optional.of(java.time.Duration.ofMillis(admitAfterMillis));
  }

  /**
   * Whether a later attempt may send the same write again under the same idempotency key: an idempotent (R1)
   * write whose answer was lost, which the provider answers with its committed result if it was applied.
   * Never true for a write without a key.
   */
  public boolean resendableUnderKey() {
    return resendableUnderKey;
  }

  /**
   * Sets {@link #admitAfter()} and {@link #resendableUnderKey()}; the engine calls it once as it ends the call.
   *
   * @param admitAfterMillis when the call may be admitted, in ms from now; negative when nothing refused it
   * @return this exception
   */
  public ToolCallException withSchedulingHints(long admitAfterMillis, boolean resendableUnderKey) {
    this.admitAfterMillis = admitAfterMillis < 0 ? -1 : admitAfterMillis;
    this.resendableUnderKey = resendableUnderKey;
    return this;
  }

  private static String message(ToolOutcome outcome, String nextStep) {
    Objects.requireNonNull(outcome, "outcome");
    return outcome.tool() + " " + outcome.status().name().toLowerCase(Locale.ROOT)
        + (outcome.errorType() != null ? " (" + outcome.errorType() + ")" : "") + ": " + outcome.reason()
        + " after " + outcome.attempts() + (outcome.attempts() == 1 ? " attempt" : " attempts") + "; " + nextStep;
  }
}
