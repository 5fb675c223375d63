package dev.hfr.temporal;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.temporal.internal.ActivityTasks;
import dev.hfr.temporal.internal.ExecutionHeader;
import dev.hfr.temporal.internal.TaskPerWorkflowExecution;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkflowInboundCallsInterceptor;
import io.temporal.common.interceptors.WorkerInterceptorBase;
import java.time.Duration;
import java.util.Objects;

/**
 * Runs every HFR-protected tool an activity calls as part of one HFR task per workflow execution, and turns
 * HFR's decisions into Temporal's. Register it on the worker factory; the activities stay as they are (they
 * call the generated {@code _Recovering} proxies):
 *
 * <pre>{@code
 * WorkerFactory factory = WorkerFactory.newInstance(client, WorkerFactoryOptions.newBuilder()
 *     .setWorkerInterceptors(HfrWorkerInterceptor.builder(hfr).tenant("acme").build())
 *     .build());
 * }</pre>
 *
 * <p>Around each activity attempt it opens the task {@code (tenant, workflow execution)}: the tenant from the
 * activity's {@value #TENANT_HEADER} header ({@link HfrTenantPropagator}) or {@link Builder#tenant}, the task
 * id {@code <workflow id>/<first run id>}, which Temporal's activity retries, worker crashes, workflow replays,
 * retries and continue-as-new all keep, and which a new execution reusing the workflow id does not share. A write
 * repeated by a retried attempt has the same ledger key as before, so HFR finds its record and reconciles it
 * instead of sending it again. The task's deadline is what is left of the attempt's start-to-close (and
 * schedule-to-close) timeout, so HFR never retries past the point where Temporal gives up on the attempt;
 * HFR's retries inside an attempt are bounded so that the two layers add up, never multiply ({@link
 * Builder#laterAttemptRetries}). A call HFR ends without an accepted result ends the attempt with an {@code
 * ApplicationFailure} of a type in {@link HfrFailureTypes}, non-retryable when resending could repeat a
 * write or cannot help, with {@code nextRetryDelay} set from the provider's {@code Retry-After}.
 */
public final class HfrWorkerInterceptor extends WorkerInterceptorBase {

  /** The activity header the tenant is read from (a JSON string payload), see {@link HfrTenantPropagator}. */
  public static final String TENANT_HEADER = "hfr-tenant";

  private final ActivityTasks tasks;

  private HfrWorkerInterceptor(ActivityTasks tasks) {
    this.tasks = tasks;
  }

  /** A builder for an interceptor that runs activities' tools through {@code hfr}. */
  public static Builder builder(Hfr hfr) {
    return new Builder(hfr);
  }

  @Override
  public ActivityInboundCallsInterceptor interceptActivity(ActivityInboundCallsInterceptor next) {
    return new TaskPerWorkflowExecution(next, tasks);
  }

  /** Names the workflow execution on the activities it schedules, so their task is that execution's. */
  @Override
  public WorkflowInboundCallsInterceptor interceptWorkflow(WorkflowInboundCallsInterceptor next) {
    return new ExecutionHeader(next);
  }

  /** Builds {@link HfrWorkerInterceptor}; each setter checks its argument and names it when it refuses. */
  public static final class Builder {

    private final Hfr hfr;
    private String tenant = Hfr.DEFAULT_TENANT;
    private boolean taskPerRun;
    private TaskLimits limits = TaskLimits.defaults();
    private int laterAttemptRetries = 1;
    private Duration deadlineMargin = Duration.ofMillis(200);
    private Criticality.Level criticality;
    private boolean retryUnknownOutcomes;

    private Builder(Hfr hfr) {
      this.hfr = Objects.requireNonNull(hfr, "hfr");
    }

    /** The tenant of activities whose header names none; {@value Hfr#DEFAULT_TENANT} by default. */
    public Builder tenant(String tenant) {
      if (tenant == null || tenant.isBlank()) {
        throw new IllegalArgumentException("tenant must not be blank, was " + (tenant == null ? "null" : "'" + tenant + "'"));
      }
      this.tenant = tenant;
      return this;
    }

    /**
     * Whether each run of a workflow is its own task (task id {@code <workflow id>/<run id>}) rather than the
     * execution (the default, {@code <workflow id>/<first run id>}). By default a write repeated by a later run of
     * the same execution — a workflow retry, a reset, a continue-as-new with the same arguments — is answered from
     * the ledger, never sent again, while a new execution that reuses the workflow id sends its writes anew; per
     * run, each run sends its writes anew.
     */
    public Builder taskPerRun(boolean perRun) {
      this.taskPerRun = perRun;
      return this;
    }

    /**
     * The limits of each activity attempt's task (they replace the tenant's {@code task_limits} of the
     * configuration, as any {@code TaskSpec}'s do); {@link TaskLimits#defaults()} by default. Its retry budget
     * B_t applies to the first attempt; later attempts get {@link #laterAttemptRetries}.
     */
    public Builder limits(TaskLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * HFR's retry budget B_t in the second and later attempts of an activity (1 by default, never more than
     * {@link #limits}' own): Temporal is then the layer that retries, and one HFR retry leaves room for the resend
     * of a write its reconcile proved absent. Zero leaves such a write to the next attempt. Must not be negative.
     */
    public Builder laterAttemptRetries(int retries) {
      if (retries < 0) {
        throw new IllegalArgumentException("laterAttemptRetries must not be negative, was " + retries);
      }
      this.laterAttemptRetries = retries;
      return this;
    }

    /**
     * How much of the attempt's timeout HFR leaves to Temporal (reporting the failure, heartbeats): the task's
     * deadline is the attempt's remaining time minus this, 200 ms by default. Must not be negative.
     */
    public Builder deadlineMargin(Duration margin) {
      Objects.requireNonNull(margin, "deadlineMargin");
      if (margin.isNegative()) {
        throw new IllegalArgumentException("deadlineMargin must not be negative, was " + margin);
      }
      this.deadlineMargin = margin;
      return this;
    }

    /**
     * Whether Temporal may retry an activity whose write HFR left with an unknown outcome that no person took (the
     * escalation handler failed: {@code HfrOutcomeUnknown} retryable); {@code false} by default. It is safe
     * because the next attempt finds the write's ledger record and reconciles it before anything is sent. Two
     * cases never depend on it: an R1 write whose answer was lost is always retryable (the next attempt resends it
     * under the same key), and a write handed to a person is always {@code HfrEscalated}, not retryable. The engine
     * must keep its ledger on ({@code HfrFeatures.idempotency()}), else the next attempt could not find the write.
     *
     * @throws IllegalStateException at {@link #build()} when the engine's ledger is off
     */
    public Builder retryUnknownOutcomes(boolean retry) {
      this.retryUnknownOutcomes = retry;
      return this;
    }

    /** The criticality of every activity's task; the engine's default when not set. */
    public Builder criticality(Criticality.Level criticality) {
      this.criticality = Objects.requireNonNull(criticality, "criticality");
      return this;
    }

    /** The interceptor. */
    public HfrWorkerInterceptor build() {
      if (retryUnknownOutcomes && !hfr.features().idempotency()) {
        throw new IllegalStateException("retryUnknownOutcomes(true) needs the engine's idempotency ledger, which its"
            + " features switch off: a retried attempt would send the write again; turn idempotency on or drop"
            + " retryUnknownOutcomes");
      }
      return new HfrWorkerInterceptor(new ActivityTasks(hfr, tenant, taskPerRun, limits,
          limits.toBuilder().maxRetries(Math.min(laterAttemptRetries, limits.maxRetries())).build(), deadlineMargin,
          criticality, retryUnknownOutcomes));
    }
  }
}
