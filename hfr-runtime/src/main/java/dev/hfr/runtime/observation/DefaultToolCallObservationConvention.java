package dev.hfr.runtime.observation;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.observation.HfrObservationDocumentation.HighCardinalityKeys;
import dev.hfr.runtime.observation.HfrObservationDocumentation.LowCardinalityKeys;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default names and tags: the span is {@code execute_tool <tool>} (OpenTelemetry's GenAI span name for a tool
 * execution), the meter {@code hfr.tool.call}; the low-cardinality keys are the tool, its risk and what recovery
 * did, the high-cardinality ones (tenant, task, attempts) go on spans only.
 */
public class DefaultToolCallObservationConvention implements ToolCallObservationConvention {

  /** The Observation's (and the timer's) name. */
  public static final String NAME = "hfr.tool.call";
  /** The GenAI operation of a tool call. */
  public static final String EXECUTE_TOOL = "execute_tool";
  private static final String NONE = "none";

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public String getContextualName(ToolCallContext context) {
    return EXECUTE_TOOL + " " + context.tool().name();
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(ToolCallContext context) {
    DecisionEvent last = context.lastDecision();
    ToolOutcome outcome = context.outcome();
    boolean failed = context.getError() != null;
    String fault = outcome != null && outcome.errorType() != null ? outcome.errorType().name()
        : last != null && last.fault() != null ? last.fault().name() : NONE;
    DegradeLevel rung = outcome != null ? outcome.degradeLevel() : last != null ? last.rung() : DegradeLevel.L0;
    String ledgerState = context.ledgerState() != null ? context.ledgerState().name()
        : last != null && last.ledgerState() != null ? last.ledgerState() : NONE;
    return KeyValues.of(
        KeyValue.of(LowCardinalityKeys.OPERATION_NAME, EXECUTE_TOOL),
        KeyValue.of(LowCardinalityKeys.TOOL_NAME, context.tool().name()),
        KeyValue.of(LowCardinalityKeys.RISK, context.risk().name()),
        KeyValue.of(LowCardinalityKeys.FAULT, fault),
        KeyValue.of(LowCardinalityKeys.ACTION, last != null ? last.action().name() : NONE),
        KeyValue.of(LowCardinalityKeys.RUNG, rung == null ? DegradeLevel.L0.name() : rung.name()),
        KeyValue.of(LowCardinalityKeys.LEDGER_STATE, ledgerState),
        KeyValue.of(LowCardinalityKeys.OUTCOME, outcome != null ? outcome.status().name()
            : failed ? ToolOutcome.Status.FAILED.name() : ToolOutcome.Status.SUCCESS.name()),
        KeyValue.of(LowCardinalityKeys.MODE, context.shadow() ? "shadow" : "enforce"),
        KeyValue.of(LowCardinalityKeys.ERROR_TYPE, failed ? fault : NONE));
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(ToolCallContext context) {
    KeyValues values = KeyValues.empty();
    if (context.tenant() != null) {
      values = values.and(KeyValue.of(HighCardinalityKeys.TENANT, context.tenant()));
    }
    if (context.taskId() != null) {
      values = values.and(KeyValue.of(HighCardinalityKeys.TASK_ID, context.taskId()));
    }
    ToolOutcome outcome = context.outcome();
    return values.and(KeyValue.of(HighCardinalityKeys.ATTEMPTS, String.valueOf(outcome != null ? outcome.attempts() : 1)));
  }
}
