package dev.hfr.runtime.observation;

import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.engine.CallListener;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One Micrometer {@link Observation} per tool call — a span when a tracing bridge is registered, a timer when a
 * meter handler is. {@link #observe} wraps the engine's run of the call and keeps the Observation current on the
 * calling thread; as the engine's {@link CallListener} it adds every decision as an event of the current call's
 * Observation and hands it the outcome. A call that ends in a structured failure (failed or escalated) marks the
 * Observation with its error, so its span's status is ERROR.
 *
 * <p>Only built when the application gives the engine a registry; without one the engine does none of this.
 */
public final class ToolCallObservations implements CallListener {

  private static final ToolCallObservationConvention DEFAULT = new DefaultToolCallObservationConvention();

  private final ObservationRegistry registry;
  private final ToolCallObservationConvention convention;

  /**
   * @param convention the application's names and tags, or {@code null} for {@link DefaultToolCallObservationConvention}
   */
  public ToolCallObservations(ObservationRegistry registry, ToolCallObservationConvention convention) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.convention = convention;
  }

  /**
   * Runs {@code call} as the Observation of one call of {@code tool}; what it throws passes through unchanged.
   *
   * @param tenant the task's tenant, or {@code null} outside a task
   * @param taskId the task's id, or {@code null} outside a task
   * @param shadow whether the engine runs in shadow mode
   */
  public <R> R observe(ToolDescriptor tool, String tenant, String taskId, boolean shadow, Supplier<R> call) {
    ToolCallContext context = new ToolCallContext(tool, tenant, taskId, shadow);
    Observation observation = HfrObservationDocumentation.TOOL_CALL
        .observation(convention, DEFAULT, () -> context, registry)
        .start();
    try (Observation.Scope scope = observation.openScope()) {
      return call.get();
    } catch (Throwable failure) {
      observation.error(failure);
      throw ToolCallObservations.<RuntimeException>rethrow(failure);
    } finally {
      observation.stop();
    }
  }

  @Override
  public void decided(DecisionEvent event) {
    Observation observation = registry.getCurrentObservation();
    if (observation != null && observation.getContext() instanceof ToolCallContext context
        && context.tool().name().equals(event.tool())) {
      context.decided(event);
      observation.event(Observation.Event.of(HfrObservationDocumentation.Events.DECISION.getName(), describe(event)));
    }
  }

  @Override
  public void ended(ToolOutcome outcome, LedgerState ledgerState) {
    Observation observation = registry.getCurrentObservation();
    if (observation != null && observation.getContext() instanceof ToolCallContext context
        && context.tool().name().equals(outcome.tool())) {
      context.ended(outcome, ledgerState);
    }
  }

  /** {@code attempt 2 on L0: T1 -> RETRY (transient_error, wait 180 ms, ledger PREPARED)}. */
  static String describe(DecisionEvent e) {
    StringBuilder s = new StringBuilder("attempt ").append(e.attempt());
    if (e.rung() != null && e.rung().ordinal() > 0) {
      s.append(" on ").append(e.rung());
    }
    s.append(": ").append(e.fault() == null ? "ok" : e.fault().name()).append(" -> ").append(e.action());
    s.append(" (").append(e.reason() == null ? "" : e.reason().code());
    if (e.delayMillis() > 0) {
      s.append(", wait ").append(e.delayMillis()).append(" ms");
    }
    if (e.ledgerState() != null) {
      s.append(", ledger ").append(e.ledgerState());
    }
    return s.append(')').toString();
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T rethrow(Throwable t) throws T {
    throw (T) t;
  }
}
