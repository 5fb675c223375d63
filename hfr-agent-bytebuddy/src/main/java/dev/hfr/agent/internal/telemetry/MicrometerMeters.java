package dev.hfr.agent.internal.telemetry;

import dev.hfr.agent.internal.record.Decision;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The agent's meters in a Micrometer registry (the Prometheus endpoint's), named like the runtime's ({@code harness.attempts} exports to Prometheus as
 * {@code harness_attempts_total}). Tag values are bounded: client and mode are fixed sets, host is
 * capped by {@code HostTags}, method by {@code RequestRisk.methodTag}, class and action are enums.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@value AgentMeters#ATTEMPTS}</td><td>counter</td><td>client, host, method, class, outcome, action, mode</td></tr>
 *   <tr><td>{@value AgentMeters#CALL_DURATION}</td><td>timer</td><td>client, host, outcome</td></tr>
 *   <tr><td>{@value AgentMeters#RETRIES}</td><td>counter</td><td>client, host, class (enforced retries only)</td></tr>
 *   <tr><td>{@value AgentMeters#CIRCUIT_STATE}</td><td>gauge</td><td>target (0 closed, 1 open, 2 half-open; enforcement only)</td></tr>
 *   <tr><td>{@value AgentMeters#EVENTS_DROPPED}</td><td>counter</td><td>(decision events lost: queue full or file unwritable)</td></tr>
 * </table>
 *
 * <p>Each tag combination is resolved once and cached; the request path then only increments.
 */
final class MicrometerMeters {


  private final MeterRegistry registry;
  private final String mode;
  private final ConcurrentHashMap<AttemptKey, Counter> attempts = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<DurationKey, Timer> durations = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<DurationKey, Counter> retries = new ConcurrentHashMap<>();
  private final Counter eventsDropped;

  private record AttemptKey(String client, String host, String method, String fault, String action) {}

  private record DurationKey(String client, String host, String outcome) {}

  MicrometerMeters(MeterRegistry registry, String mode) {
    this.registry = registry;
    this.mode = mode;
    this.eventsDropped = Counter.builder(AgentMeters.EVENTS_DROPPED)
        .description("Decision events the agent could not write")
        .baseUnit("events")
        .register(registry);
  }

  /** Counts one attempt and its duration. */
  void attempt(String client, String host, String method, Decision decision, long latencyNanos) {
    String outcome = decision.success() ? "success" : "failure";
    attempts.computeIfAbsent(new AttemptKey(client, host, method, decision.classTag(), decision.actionTag()), k ->
        Counter.builder(AgentMeters.ATTEMPTS)
            .description("HTTP attempts seen by the agent, by F2D-9 class and the action HFR takes or would take")
            .baseUnit("attempts")
            .tag("client", k.client()).tag("host", k.host()).tag("method", k.method())
            .tag("class", k.fault()).tag("outcome", outcome).tag("action", k.action()).tag("mode", mode)
            .register(registry))
        .increment();
    durations.computeIfAbsent(new DurationKey(client, host, outcome), k ->
        Timer.builder(AgentMeters.CALL_DURATION)
            .description("Duration of the HTTP attempts seen by the agent")
            .tag("client", k.client()).tag("host", k.host()).tag("outcome", k.outcome())
            .register(registry))
        .record(latencyNanos, TimeUnit.NANOSECONDS);
  }

  /** Counts one retry the agent made itself (enforcement). */
  void retry(String client, String host, String fault) {
    retries.computeIfAbsent(new DurationKey(client, host, fault), k ->
        Counter.builder(AgentMeters.RETRIES)
            .description("Retries the agent made under enforcement")
            .baseUnit("retries")
            .tag("client", k.client()).tag("host", k.host()).tag("class", k.outcome())
            .register(registry))
        .increment();
  }

  /** Registers the state gauge of one breaker. */
  void circuitState(String target, Supplier<Number> state) {
    Gauge.builder(AgentMeters.CIRCUIT_STATE, state)
        .description("State of the agent's per-host breaker: 0 closed, 1 open, 2 half-open")
        .tag("target", target)
        .register(registry);
  }

  /** Counts a decision event that was lost. */
  void eventDropped() {
    eventsDropped.increment();
  }
}
