package dev.hfr.benchmarks;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.CallTiming;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowType;
import io.github.resilience4j.retry.RetryConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The same protection in each library: 3 attempts with zero backoff on a connection error, a circuit
 * breaker over the last 100 calls that trips at 80 % failures (so the benchmark's alternating failures
 * never trip it), and a bulkhead of 64 concurrent calls that never waits. HFR also keeps its Micrometer
 * meters on a {@link SimpleMeterRegistry}, verifies at V0 and checks its per-task and per-tenant retry
 * budgets; the other two record no metrics and have no budgets.
 */
final class Protections {

  static final int ATTEMPTS = 3;
  static final int CONCURRENT_CALLS = 64;
  static final float FAILURE_RATE_PERCENT = 80f;
  static final int WINDOW = 100;

  /** Held so that the level set on it stays (JUL keeps loggers weakly). */
  private static java.util.logging.Logger decisionLogger;

  private Protections() {}

  /**
   * Sets the level of the JDK logger behind {@code System.Logger} {@code dev.hfr.decisions}, where the
   * default engine sends its decision events: {@code WARNING} is a production service's setting.
   */
  static void decisionLoggerAt(java.util.logging.Level level) {
    decisionLogger = java.util.logging.Logger.getLogger("dev.hfr.decisions");
    decisionLogger.setLevel(level);
  }

  /**
   * The engine a user gets from {@code Hfr.builder().meterRegistry(registry).build()}, with the two
   * settings a benchmark must change: the per-tenant retry budget (600 retries a minute by default, which
   * rightly stops a loop that retries millions of times a second) and the breaker's thresholds, set to the
   * others' (the default trips above 50 % errors, which alternating failures sit on).
   */
  static Hfr hfrDefaults() {
    return defaults().build();
  }

  /** The same with decision events to {@code log} (on an in-memory ledger: one engine per ledger directory). */
  static Hfr hfrDefaults(DecisionSink log) {
    return defaults().decisionSink(log).ledger(new InMemoryLedger()).build();
  }

  /**
   * The same on {@code clock}, with its embedded file ledger in {@code ledgerDirectory} (one engine per ledger
   * directory: the default one is the other engine's).
   */
  static Hfr hfrDefaults(Clock clock, Path ledgerDirectory) {
    return defaults().clock(clock).ledgerPath(ledgerDirectory).build();
  }

  /**
   * {@code Hfr.builder().build()} with the one setting a benchmark must change: the per-tenant retry budget (see
   * {@link #hfrDefaults()}); no meter registry, the default breakers, ledger and decision log.
   */
  static Hfr hfrBuilderDefaults() {
    return Hfr.builder().tenantBudgets(unlimitedTenantBudgets()).build();
  }

  private static Hfr.Builder defaults() {
    return Hfr.builder()
        .meterRegistry(new SimpleMeterRegistry())
        .circuitBreakers(breakers())
        .tenantBudgets(unlimitedTenantBudgets());
  }

  private static CircuitBreakers breakers() {
    return CircuitBreakers.builder(Clock.system())
        .defaults(CircuitBreakerConfig.builder()
            .windowSize(WINDOW)
            .errorRateThreshold(FAILURE_RATE_PERCENT / 100.0)
            .consecutiveFailures(Integer.MAX_VALUE)
            .build())
        .build();
  }

  private static TenantRetryBudgets unlimitedTenantBudgets() {
    return TenantRetryBudgets.builder(Clock.system())
        .retriesPerWindow(Integer.MAX_VALUE / 2)
        .window(Duration.ofSeconds(1))
        .build();
  }

  /** The HFR engine: full features, meters on a SimpleMeterRegistry, decisions discarded. */
  static Hfr hfr(IdempotencyLedger ledger) {
    return hfr(ledger, CallTiming.ADAPTIVE);
  }

  /** The same engine with every call timed, on an in-memory ledger (a read never touches it). */
  static Hfr hfrTimingEveryCall() {
    return hfr(new InMemoryLedger(), CallTiming.EVERY_CALL);
  }

  private static Hfr hfr(IdempotencyLedger ledger, CallTiming timing) {
    Hfr.Builder builder = Hfr.builder()
        .callTiming(timing)
        .meterRegistry(new SimpleMeterRegistry())
        .decisionSink(DecisionSink.discarding())
        .circuitBreakers(breakers())
        .bulkheads(Bulkheads.builder().defaults(CONCURRENT_CALLS, 0).build())
        // The per-tenant retry budget stays on, sized so that a benchmark's millions of retries a
        // second do not exhaust it (the others have no such budget to exhaust).
        .tenantBudgets(unlimitedTenantBudgets());
    if (ledger != null) {
      builder.ledger(ledger);
    }
    return builder.build();
  }

  static io.github.resilience4j.retry.Retry r4jRetry() {
    return io.github.resilience4j.retry.Retry.of("quote", RetryConfig.custom()
        .maxAttempts(ATTEMPTS)
        .waitDuration(Duration.ZERO)
        .retryExceptions(ConnectException.class)
        .build());
  }

  static io.github.resilience4j.circuitbreaker.CircuitBreaker r4jBreaker() {
    return io.github.resilience4j.circuitbreaker.CircuitBreaker.of("quote",
        io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.custom()
            .slidingWindowType(SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(WINDOW)
            .failureRateThreshold(FAILURE_RATE_PERCENT)
            .build());
  }

  static io.github.resilience4j.bulkhead.Bulkhead r4jBulkhead() {
    return io.github.resilience4j.bulkhead.Bulkhead.of("quote", BulkheadConfig.custom()
        .maxConcurrentCalls(CONCURRENT_CALLS)
        .maxWaitDuration(Duration.ZERO)
        .build());
  }

  static dev.failsafe.FailsafeExecutor<Long> failsafe() {
    dev.failsafe.RetryPolicy<Long> retry = dev.failsafe.RetryPolicy.<Long>builder()
        .handle(ConnectException.class)
        .withMaxAttempts(ATTEMPTS) // Failsafe's default delay is zero (it refuses an explicit zero)
        .build();
    dev.failsafe.Bulkhead<Long> bulkhead = dev.failsafe.Bulkhead.<Long>builder(CONCURRENT_CALLS).build();
    // Failsafe composes right to left: Retry(CircuitBreaker(Bulkhead(call))), the same order as the others.
    return dev.failsafe.Failsafe.with(retry, failsafeBreaker(), bulkhead);
  }

  /** Failsafe's breaker at the others' thresholds: 80 % of the last 100 calls. */
  static dev.failsafe.CircuitBreaker<Long> failsafeBreaker() {
    return dev.failsafe.CircuitBreaker.<Long>builder()
        .withFailureThreshold((int) (FAILURE_RATE_PERCENT * WINDOW / 100), WINDOW)
        .withDelay(Duration.ofSeconds(30))
        .build();
  }
}
