package dev.hfr.runtime;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.budget.TaskLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * What the task owner states about one agent task (the paper's {@code T = (x, g, c, q_min)} without the
 * input and goal, which the agent keeps): tenant, id, criticality, quality floor, deadline and limits.
 * Unset values come from the engine's configuration. Immutable.
 */
public final class TaskSpec {

  private final String tenant;
  private final String taskId;
  private final Criticality.Level criticality;
  private final Duration deadline;
  /** The quality floor and the limits, or {@code null}: neither set (a spec per task: 32 bytes instead of 40). */
  private final Overrides overrides;

  private TaskSpec(Builder b) {
    this.tenant = b.tenant;
    this.taskId = b.taskId;
    this.criticality = b.criticality;
    this.deadline = b.deadline;
    this.overrides = Double.isNaN(b.qualityFloor) && b.limits == null ? null : new Overrides(b.qualityFloor, b.limits);
  }

  /** The two settings that override the engine's configuration for one task. */
  private record Overrides(double qualityFloor, TaskLimits limits) {}

  /**
   * Starts a spec.
   *
   * @param tenant the tenant the task runs for (budgets, breakers and ledger records are per tenant)
   * @param taskId the task's id; a re-run of the same task after a crash must use the same id, so its
   *     writes find their ledger records and are not repeated
   */
  public static Builder builder(String tenant, String taskId) {
    return new Builder(tenant, taskId);
  }

  public String tenant() { return tenant; }

  public String taskId() { return taskId; }

  /** The task's criticality, or {@code null} to use each tool's own. A call runs at the higher of the two. */
  public Criticality.Level criticality() { return criticality; }

  /** The time the task has from {@link Hfr#openTask}, or {@code null} for no deadline. */
  public Duration deadline() { return deadline; }

  /** The quality floor q_min in [0, 1], or NaN to use the configured floor of the call's criticality. */
  public double qualityFloor() { return overrides == null ? Double.NaN : overrides.qualityFloor(); }

  /** The task limits, or {@code null} for the tenant's configured limits. */
  public TaskLimits limits() { return overrides == null ? null : overrides.limits(); }

  @Override
  public String toString() {
    return "TaskSpec[" + tenant + "/" + taskId + (criticality != null ? ", " + criticality : "")
        + (deadline != null ? ", deadline " + deadline : "") + "]";
  }

  /** Builds a {@link TaskSpec}; arguments are checked as they are given. */
  public static final class Builder {
    private final String tenant;
    private final String taskId;
    private Criticality.Level criticality;
    private Duration deadline;
    private double qualityFloor = Double.NaN;
    private TaskLimits limits;

    private Builder(String tenant, String taskId) {
      this.tenant = requireText(tenant, "tenant");
      this.taskId = requireText(taskId, "taskId");
    }

    public Builder criticality(Criticality.Level criticality) {
      this.criticality = Objects.requireNonNull(criticality, "criticality");
      return this;
    }

    /** The task must finish within {@code deadline} of being opened; retries that cannot make it are not tried. */
    public Builder deadline(Duration deadline) {
      Objects.requireNonNull(deadline, "deadline");
      if (deadline.isNegative() || deadline.isZero()) {
        throw new IllegalArgumentException("deadline must be positive, was " + deadline);
      }
      this.deadline = deadline;
      return this;
    }

    /** The lowest verified quality the task owner accepts, in [0, 1]. */
    public Builder qualityFloor(double floor) {
      if (!(floor >= 0.0 && floor <= 1.0)) {
        throw new IllegalArgumentException("qualityFloor must be within [0, 1], was " + floor);
      }
      this.qualityFloor = floor;
      return this;
    }

    public Builder limits(TaskLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    public TaskSpec build() {
      return new TaskSpec(this);
    }

    private static String requireText(String value, String what) {
      // A text that starts with a non-blank character is not blank: an id is checked without a scan.
      if (value == null || value.isEmpty() || (Character.isWhitespace(value.charAt(0)) && value.isBlank())) {
        throw new IllegalArgumentException(what + " must not be blank");
      }
      return value;
    }
  }
}
