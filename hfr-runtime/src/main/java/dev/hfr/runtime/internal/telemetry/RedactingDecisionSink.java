package dev.hfr.runtime.internal.telemetry;

import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.telemetry.DecisionLog;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.util.Objects;

/**
 * Hands each event to another sink after {@link PiiRedaction}: how {@code telemetry.redact_pii} reaches a
 * sink the application supplies. Redacts on the deciding thread; the engine's own {@link DecisionLog}
 * redacts on its writer thread instead.
 */
public final class RedactingDecisionSink implements DecisionSink {

  private final DecisionSink delegate;

  public RedactingDecisionSink(DecisionSink delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public void record(DecisionEvent event) throws Exception {
    delegate.record(PiiRedaction.apply(event));
  }

  @Override
  public boolean wantsEvents() {
    return delegate.wantsEvents();
  }

  @Override
  public void close() throws java.io.IOException {
    delegate.close();
  }

  @Override
  public String toString() {
    return "redacting " + delegate;
  }
}
