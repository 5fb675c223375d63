package dev.hfr.agent.internal.telemetry;

import dev.hfr.agent.internal.record.Decision;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What the agent counts. The stderr summary reads the agent's own counters; the meters (below) are kept
 * in a Micrometer registry only when something reads them — the Prometheus endpoint. A JVM without the
 * endpoint then never sets Micrometer up (its registry, meters and configuration validation cost a JVM
 * sending one request about a third of what the agent added to its start-up, docs/AGENT.md).
 *
 * <table>
 *   <caption>Meters (with a registry)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@value #ATTEMPTS}</td><td>counter</td><td>client, host, method, class, outcome, action, mode</td></tr>
 *   <tr><td>{@value #CALL_DURATION}</td><td>timer</td><td>client, host, outcome</td></tr>
 *   <tr><td>{@value #RETRIES}</td><td>counter</td><td>client, host, class (enforced retries only)</td></tr>
 *   <tr><td>{@value #CIRCUIT_STATE}</td><td>gauge</td><td>target (0 closed, 1 open, 2 half-open; enforcement only)</td></tr>
 *   <tr><td>{@value #EVENTS_DROPPED}</td><td>counter</td><td>(decision events lost: queue full or file unwritable)</td></tr>
 * </table>
 */
public final class AgentMeters {

  public static final String ATTEMPTS = "harness.attempts";
  public static final String CALL_DURATION = "harness.call.duration";
  public static final String RETRIES = "harness.retries";
  public static final String CIRCUIT_STATE = "harness.circuit.state";
  public static final String EVENTS_DROPPED = "harness.decision.sink.failures";

  /** Null when no registry was given. */
  private final MicrometerMeters micrometer;
  /** Attempts by client, then "ok" or "CLASS->action": what the summary prints. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, LongAdder>> attemptsByClient = new ConcurrentHashMap<>();
  private final LongAdder attempts = new LongAdder();
  private final LongAdder eventsDropped = new LongAdder();

  /** Counters for the summary only: no Micrometer. */
  public AgentMeters() {
    this.micrometer = null;
  }

  /** Also keeps the meters in {@code registry}, tagged with {@code mode} ({@code shadow} or {@code enforce}). */
  public AgentMeters(MeterRegistry registry, String mode) {
    this.micrometer = new MicrometerMeters(registry, mode);
  }

  /** Counts one attempt and its duration. */
  public void attempt(String client, String host, String method, Decision decision, long latencyNanos) {
    String outcome = decision.success() ? "ok" : decision.classTag() + "->" + decision.actionTag();
    ConcurrentHashMap<String, LongAdder> byOutcome = attemptsByClient.get(client);
    if (byOutcome == null) {
      attemptsByClient.putIfAbsent(client, new ConcurrentHashMap<>());
      byOutcome = attemptsByClient.get(client);
    }
    LongAdder count = byOutcome.get(outcome);
    if (count == null) {
      byOutcome.putIfAbsent(outcome, new LongAdder());
      count = byOutcome.get(outcome);
    }
    count.increment();
    attempts.increment();
    if (micrometer != null) {
      micrometer.attempt(client, host, method, decision, latencyNanos);
    }
  }

  /** Counts one retry the agent made itself (enforcement). */
  public void retry(String client, String host, String fault) {
    if (micrometer != null) {
      micrometer.retry(client, host, fault);
    }
  }

  /** Registers the state gauge of one breaker. */
  public void circuitState(String target, Supplier<Number> state) {
    if (micrometer != null) {
      micrometer.circuitState(target, state);
    }
  }

  /** Counts a decision event that was lost. */
  public void eventDropped() {
    eventsDropped.increment();
    if (micrometer != null) {
      micrometer.eventDropped();
    }
  }

  /** All attempts counted so far. */
  public long attempts() {
    return attempts.sum();
  }

  /** Decision events lost so far. */
  public long eventsDropped() {
    return eventsDropped.sum();
  }

  /** Attempts so far by client (sorted), then by {@code ok} or {@code CLASS->action} (sorted). */
  public Map<String, Map<String, Long>> attemptsByClient() {
    Map<String, Map<String, Long>> copy = new TreeMap<>();
    for (Map.Entry<String, ConcurrentHashMap<String, LongAdder>> client : attemptsByClient.entrySet()) {
      Map<String, Long> counts = new TreeMap<>();
      for (Map.Entry<String, LongAdder> outcome : client.getValue().entrySet()) {
        counts.put(outcome.getKey(), outcome.getValue().sum());
      }
      copy.put(client.getKey(), counts);
    }
    return copy;
  }
}
