package dev.hfr.agent.internal.telemetry;

/**
 * One line of the agent's events file: what one HTTP attempt was and what HFR makes of it. The
 * runtime's {@code DecisionEvent} describes a tool call inside a task (tenant, task, step, ledger key);
 * an agent sees neither, but sees client, host, method and status, so it has its own record. Nothing
 * here is raw request data: host is the bounded tag value, there is no URL, header value or body.
 * {@link HttpDecisionEventJson} writes it, {@code null} fields left out.
 *
 * @param epochMillis when the attempt ended
 * @param mode {@code shadow} (decided, not acted on) or {@code enforce}
 * @param client the instrumented client
 * @param host the host tag
 * @param method the method tag
 * @param risk the inferred risk
 * @param attempt 1 for the application's own attempt, 2.. for the agent's retries
 * @param status the HTTP status, 0 when no response came
 * @param fault the F2D-9 class, {@code null} after a success
 * @param confidence the classifier's confidence
 * @param rule the classifier rule that decided
 * @param exception the exception's class name (never its message), or {@code null}
 * @param action the action HFR takes or would take, {@code null} after a success
 * @param enforced whether the agent acted (retried) on it
 * @param delayMillis the backoff before the agent's retry, 0 when it did not retry
 * @param retryAfterMillis the server's Retry-After, -1 when none
 * @param latencyMillis how long the attempt took
 */
public record HttpDecisionEvent(
    long epochMillis,
    String mode,
    String client,
    String host,
    String method,
    String risk,
    int attempt,
    int status,
    String fault,
    double confidence,
    String rule,
    String exception,
    String action,
    boolean enforced,
    long delayMillis,
    long retryAfterMillis,
    double latencyMillis) {}
