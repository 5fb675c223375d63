package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.ToolDescriptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The engine's Micrometer meters (§5.5), in Micrometer's dot style — a Prometheus registry exports
 * {@code harness.attempts} as {@code harness_attempts_total}. Every meter has a description; tag values are bounded (tool names, fault classes, actions, levels, reasons from closed
 * sets), never keys, URLs, ids or messages. A base unit is set where it is the name's last word, so the
 * Prometheus names stay the paper's ({@code harness_reconcile_total}, not {@code
 * harness_reconcile_reconciliations_total}); the other counters count events, as their descriptions say.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>{@value #ATTEMPTS}</td><td>counter</td><td>tool, class, outcome</td></tr>
 *   <tr><td>{@value #DECISIONS}</td><td>counter</td><td>tool, action, mode</td></tr>
 *   <tr><td>{@value #RETRY_BUDGET_EXHAUSTED}</td><td>counter</td><td>tool, budget</td></tr>
 *   <tr><td>{@value #DEGRADATION}</td><td>counter</td><td>tool, level, reason</td></tr>
 *   <tr><td>{@value #DEGRADATION_QUALITY_DELTA}</td><td>distribution summary</td><td>tool, level</td></tr>
 *   <tr><td>{@value #RECONCILE}</td><td>counter</td><td>tool, outcome</td></tr>
 *   <tr><td>{@value #VERIFICATION_FAILURES}</td><td>counter</td><td>tool, level, reason</td></tr>
 *   <tr><td>{@value #ESCALATIONS}</td><td>counter</td><td>tool, reason</td></tr>
 *   <tr><td>{@value #DUPLICATE_SIDE_EFFECTS}</td><td>counter</td><td>tool</td></tr>
 *   <tr><td>{@value #APPROVALS}</td><td>counter</td><td>tool, outcome</td></tr>
 *   <tr><td>{@value #CALLS}</td><td>function counter</td><td>tool</td></tr>
 *   <tr><td>{@value #CALL_DURATION}</td><td>timer</td><td>tool, status, degraded</td></tr>
 *   <tr><td>{@value #RETRY_AMPLIFICATION}</td><td>gauge</td><td>tool</td></tr>
 *   <tr><td>{@value #CONTROLLER_FAILURES}</td><td>counter</td><td>tool, fallback</td></tr>
 *   <tr><td>{@value #CIRCUIT_STATE}</td><td>gauge</td><td>target, tenant</td></tr>
 *   <tr><td>{@value #SINK_FAILURES}</td><td>counter</td><td></td></tr>
 * </table>
 *
 * <p>A tool's meters are resolved once per descriptor ({@link #forTool}) and cached, each the first time
 * its tag combination occurs; the hot path only increments. {@value #CALLS}, the successful attempts and
 * {@value #RETRY_AMPLIFICATION} (attempts per call since start; over a window, divide the rates of the
 * two counters) are read from striped counters at scrape time, so a clean call costs one increment.
 * {@value #CALL_DURATION} holds every call the engine timed: every call, except the clean calls of a tool
 * that answers in microseconds, of which a random sample is timed (see {@code CallTiming}); its count is
 * then smaller than {@value #CALLS}.
 */
public final class HfrMeters {

  public static final String ATTEMPTS = "harness.attempts";
  public static final String DECISIONS = "harness.decisions";
  public static final String RETRY_BUDGET_EXHAUSTED = "harness.retry.budget.exhausted";
  public static final String DEGRADATION = "harness.degradation";
  public static final String DEGRADATION_QUALITY_DELTA = "harness.degradation.quality.delta";
  public static final String RECONCILE = "harness.reconcile";
  public static final String VERIFICATION_FAILURES = "harness.verification.failures";
  public static final String ESCALATIONS = "harness.escalations";
  public static final String DUPLICATE_SIDE_EFFECTS = "harness.duplicate.side.effects";
  public static final String APPROVALS = "harness.approvals";
  public static final String CALLS = "harness.calls";
  public static final String CALL_DURATION = "harness.call.duration";
  /**
   * Re-calls of a write the task already made (the model calling a tool again) answered without a new
   * attempt — from the ledger, the task's kept result or a reconcile — by status; not in {@value #CALL_DURATION}.
   */
  public static final String RECALLS = "harness.recalls";
  public static final String RETRY_AMPLIFICATION = "harness.retry.amplification";
  public static final String CONTROLLER_FAILURES = "harness.controller.failures";
  public static final String CIRCUIT_STATE = "harness.circuit.state";
  public static final String SINK_FAILURES = "harness.decision.sink.failures";

  private final MeterRegistry registry;
  private final ConcurrentHashMap<ToolDescriptor, ToolMeters> tools = new ConcurrentHashMap<>();
  private final Counter sinkFailures;

  public HfrMeters(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.sinkFailures = Counter.builder(SINK_FAILURES)
        .description("Decision events lost because the decision sink failed")
        .baseUnit("failures")
        .register(registry);
  }

  /** The registry the meters live in. */
  public MeterRegistry registry() {
    return registry;
  }

  /** The meters of {@code tool}, created on first use and cached for the descriptor's lifetime. */
  public ToolMeters forTool(ToolDescriptor tool) {
    ToolMeters m = tools.get(tool);
    return m != null ? m : tools.computeIfAbsent(tool, t -> new ToolMeters(registry, t.name()));
  }

  /** Counts one decision event the sink failed to record. */
  public void sinkFailure() {
    sinkFailures.increment();
  }

  /**
   * Registers the {@value #CIRCUIT_STATE} gauge of one breaker: 0 closed, 1 open, 2 half-open. The
   * gauge holds {@code breaker} weakly, as Micrometer gauges do. Tenants are a bounded set (from
   * configuration or authenticated identities), so they are a bounded tag.
   */
  public <T> void circuitState(String target, String tenant, T breaker, ToDoubleFunction<T> state) {
    Gauge.builder(CIRCUIT_STATE, breaker, state)
        .tag("target", target)
        .tag("tenant", tenant)
        .description("Circuit breaker state of a target: 0 closed, 1 open, 2 half-open")
        .baseUnit("state")
        .register(registry);
  }
}
