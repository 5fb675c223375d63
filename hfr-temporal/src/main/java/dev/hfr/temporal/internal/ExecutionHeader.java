package dev.hfr.temporal.internal;

import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.interceptors.Header;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowOutboundCallsInterceptorBase;
import io.temporal.workflow.Workflow;
import java.util.HashMap;
import java.util.Map;

/**
 * Names the workflow execution on every activity it schedules: the header {@value #HEADER} carries the run id of
 * the execution's first run ({@code WorkflowInfo.getFirstExecutionRunId()}), which Temporal keeps across the
 * execution's retries, continue-as-new and resets, and which a new execution under a workflow id used before does
 * not share. The activity's HFR task is then that execution ({@link ActivityTasks#spec}): a retry finds the
 * records of the attempts before it, a new execution starts afresh. Deterministic: the value is the same on replay.
 */
public final class ExecutionHeader extends WorkflowInboundCallsInterceptorBase {

  /** The activity header naming the execution (a JSON string payload). */
  public static final String HEADER = "hfr-execution";

  public ExecutionHeader(WorkflowInboundCallsInterceptor next) {
    super(next);
  }

  @Override
  public void init(WorkflowOutboundCallsInterceptor outbound) {
    super.init(new WorkflowOutboundCallsInterceptorBase(outbound) {
      @Override
      public <R> ActivityOutput<R> executeActivity(ActivityInput<R> input) {
        return super.executeActivity(new ActivityInput<>(input.getActivityName(), input.getResultClass(),
            input.getResultType(), input.getArgs(), input.getOptions(), named(input.getHeader())));
      }

      @Override
      public <R> LocalActivityOutput<R> executeLocalActivity(LocalActivityInput<R> input) {
        return super.executeLocalActivity(new LocalActivityInput<>(input.getActivityName(), input.getResultClass(),
            input.getResultType(), input.getArgs(), input.getOptions(), named(input.getHeader())));
      }
    });
  }

  /** A copy of {@code header} with the execution's first run id added. */
  private static Header named(Header header) {
    Map<String, Payload> values = new HashMap<>(header == null ? Map.of() : header.getValues());
    DefaultDataConverter.STANDARD_INSTANCE.toPayload(Workflow.getInfo().getFirstExecutionRunId())
        .ifPresent(p -> values.put(HEADER, p));
    return new Header(values);
  }

  /** The execution named in an activity's {@code header}, or {@code null} when its workflow did not name one. */
  static String of(Header header) {
    Payload payload = header == null ? null : header.getValues().get(HEADER);
    if (payload == null) {
      return null;
    }
    String named = DefaultDataConverter.STANDARD_INSTANCE.fromPayload(payload, String.class, String.class);
    return named == null || named.isBlank() ? null : named;
  }
}
