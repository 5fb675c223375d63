package dev.hfr.runtime.observation;

import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
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

  /**
   * Runs an asynchronous call as one Observation: it starts here and stops when the call's future completes (marked
   * with the failure when it fails). {@code call} gets the {@link CallScope} that makes the Observation current
   * again on each thread that continues the call, so the decisions taken there become its events.
   */
  public <R> CompletableFuture<R> observeAsync(ToolDescriptor tool, String tenant, String taskId, boolean shadow,
      Function<CallScope, CompletableFuture<R>> call) {
    ToolCallContext context = new ToolCallContext(tool, tenant, taskId, shadow);
    Observation observation = HfrObservationDocumentation.TOOL_CALL
        .observation(convention, DEFAULT, () -> context, registry)
        .start();
    AsyncEnd<R> end = new AsyncEnd<>(observation);
    // The Observation is stopped once its future is done and no thread has it open: never inside its own scope.
    CallScope scope = () -> {
      Observation.Scope opened = observation.openScope();
      return () -> {
        opened.close();
        end.stopIfDone();
      };
    };
    Observation.Scope started = observation.openScope();
    CompletableFuture<R> future;
    try {
      future = call.apply(scope);
    } catch (Throwable failure) {
      started.close();
      observation.error(failure);
      observation.stop();
      throw ToolCallObservations.<RuntimeException>rethrow(failure);
    }
    started.close();
    end.future = future;
    end.stopIfDone();
    future.whenComplete((result, failure) -> {
      if (registry.getCurrentObservation() != observation) {
        end.stopIfDone();
      }
    });
    return future;
  }

  /** Stops an asynchronous call's Observation once, when its future is done, marked with the failure if it failed. */
  private static final class AsyncEnd<R> {
    private final Observation observation;
    private final AtomicBoolean stopped = new AtomicBoolean();
    volatile CompletableFuture<R> future;

    AsyncEnd(Observation observation) {
      this.observation = observation;
    }

    void stopIfDone() {
      CompletableFuture<R> f = future;
      if (f == null || !f.isDone() || !stopped.compareAndSet(false, true)) {
        return;
      }
      if (f.isCompletedExceptionally()) {
        try {
          f.join();
        } catch (CompletionException | CancellationException e) {
          observation.error(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
        }
      }
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
