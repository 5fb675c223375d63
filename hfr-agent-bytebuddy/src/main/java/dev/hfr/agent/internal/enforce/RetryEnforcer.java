package dev.hfr.agent.internal.enforce;

import dev.hfr.agent.internal.record.Decision;
import dev.hfr.agent.internal.telemetry.AgentMeters;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.breaker.TargetKind;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.internal.retry.FullJitterBackoff;
import dev.hfr.runtime.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Enforcement: whether the agent sends a failed request again by itself, and after how long. Only
 * requests the agent may repeat safely (GET, HEAD, OPTIONS, PUT, DELETE, or a request carrying an
 * {@code Idempotency-Key}), only for the classes the runtime retries (T1 transient, T2 rate limit,
 * T3 timeout) when the action table says RETRY, within a bounded number of attempts, after a full-jitter
 * backoff that is never shorter than the server's rate-limit hint ({@code Retry-After}, {@code retry-after-ms},
 * {@code x-ratelimit-reset-*}, {@code anthropic-ratelimit-*-reset}), only while the host's breaker lets retries
 * through, and only while the JVM's retry budget (the runtime's tenant budget, one tenant: this JVM) has a retry left
 * in the current minute. A hint longer than {@code retry.after.max} is not waited for: the response goes to the
 * application as it is.
 *
 * <p>The breaker and the budget only gate the agent's own retries; a request the application makes is never refused.
 */
public final class RetryEnforcer {

  /** The one tenant of the budget: the agent retries for the whole JVM. */
  static final String TENANT = "jvm";

  private final RetrySpec spec;
  private final long retryAfterMaxMillis;
  private final CircuitBreakers breakers;
  private final TenantRetryBudgets budget;
  private final AgentMeters meters;
  private final Set<String> gaugedHosts = ConcurrentHashMap.newKeySet();

  /** @param retriesPerMinute the retry budget: retries the agent may make in a minute, all hosts together */
  public RetryEnforcer(int maxAttempts, long baseMillis, long capMillis, long retryAfterMaxMillis, int retriesPerMinute,
      Clock clock, AgentMeters meters) {
    this.spec = RetrySpec.of(maxAttempts, baseMillis, capMillis, Fault.T1, Fault.T2, Fault.T3);
    this.retryAfterMaxMillis = retryAfterMaxMillis;
    this.breakers = CircuitBreakers.builder(clock).build();
    this.budget = TenantRetryBudgets.builder(clock).retriesPerWindow(retriesPerMinute).build();
    this.meters = meters;
  }

  /** Reports an attempt's outcome to the host's breaker. */
  public void onAttempt(String host, Decision decision, long latencyNanos) {
    CircuitBreaker breaker = breakerFor(host);
    if (decision.success()) {
      breaker.onSuccess(latencyNanos);
    } else {
      breaker.onFailure(decision.fault(), latencyNanos);
    }
  }

  /**
   * The delay before retrying attempt number {@code attempt} (1 = the application's own), or -1 when
   * the request is not retried.
   *
   * @param hintMillis a wait the response asked for that the classifier does not read (Anthropic's reset instants), or
   *     -1; the longer of it and the classification's wait is honoured
   */
  public long retryDelayNanos(String host, boolean retryable, int attempt, Decision decision, long hintMillis) {
    if (!retryable || decision.success() || decision.action() != Action.RETRY) {
      return -1;
    }
    if (!spec.retryOn().contains(decision.fault()) || attempt >= spec.maxAttempts()) {
      return -1;
    }
    long retryAfter = decision.fault() == Fault.T2 ? Math.max(decision.classification().retryAfterMillis(), hintMillis)
        : decision.classification().retryAfterMillis();
    if (retryAfter > retryAfterMaxMillis) {
      return -1;
    }
    if (!breakerFor(host).tryAcquire()) {
      return -1;
    }
    if (!budget.tryAcquire(TENANT)) {
      return -1;
    }
    return FullJitterBackoff.INSTANCE.delayNanos(attempt, spec, retryAfter, ThreadLocalRandom.current());
  }

  private CircuitBreaker breakerFor(String host) {
    CircuitBreaker breaker = breakers.forTarget(TargetKind.PROVIDER, host);
    if (!gaugedHosts.contains(host) && gaugedHosts.add(host)) {
      meters.circuitState(host, () -> breaker.state().gaugeValue());
    }
    return breaker;
  }
}
