package dev.hfr.runtime.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and tags a tool call's Observation; give the engine your own to change them. */
public interface ToolCallObservationConvention extends ObservationConvention<ToolCallContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof ToolCallContext;
  }
}
