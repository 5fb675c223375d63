package dev.hfr.runtime;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.budget.TaskLimits;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@link TaskSpec} as its start checkpoint saves it (§5.4: the spec, its budgets and the configuration
 * version), and back. One line of {@code name=value} fields separated by {@code ;}, the format's version
 * first, so a checkpoint written by another HFR version is read or refused by name, never misread:
 *
 * <pre>
 * spec-v1;criticality=HIGH;deadline_ms=30000;quality_floor=0.8;limits=turns:10,calls:40,same:5,retries:6,reserve:1,wall_ms:60000,cost:2.5,writes:4;config=1.0@hfr.yaml
 * </pre>
 *
 * A field that is not set is left out; {@code limits} is left out when the task uses its tenant's
 * configured limits.
 */
final class SpecText {

  private static final String VERSION = "spec-v1";

  private SpecText() {}

  static String of(TaskSpec spec, String configVersion) {
    StringBuilder b = new StringBuilder(160).append(VERSION);
    if (spec.criticality() != null) {
      b.append(";criticality=").append(spec.criticality().name());
    }
    if (spec.deadline() != null) {
      b.append(";deadline_ms=").append(spec.deadline().toMillis());
    }
    if (!Double.isNaN(spec.qualityFloor())) {
      b.append(";quality_floor=").append(spec.qualityFloor());
    }
    TaskLimits l = spec.limits();
    if (l != null) {
      b.append(";limits=turns:").append(l.maxTurns())
          .append(",calls:").append(l.maxToolCalls())
          .append(",same:").append(l.maxSameToolCalls())
          .append(",retries:").append(l.maxRetries())
          .append(",reserve:").append(l.retryReserveForFinalStep())
          .append(",wall_ms:").append(l.maxWallTime() == null ? -1 : l.maxWallTime().toMillis())
          .append(",cost:").append(l.maxCost())
          .append(",writes:").append(l.maxWriteActions());
    }
    return b.append(";config=").append(configVersion).toString();
  }

  /** The configuration version a spec text was saved under. */
  static String configVersion(String text) {
    return fields(text).getOrDefault("config", "");
  }

  /**
   * The spec saved as {@code text} for task {@code taskId} of {@code tenant}.
   *
   * @throws IllegalArgumentException if the text is not a spec this HFR wrote
   */
  static TaskSpec parse(String tenant, String taskId, String text) {
    Map<String, String> f = fields(text);
    TaskSpec.Builder spec = TaskSpec.builder(tenant, taskId);
    try {
      if (f.containsKey("criticality")) {
        spec.criticality(Criticality.Level.valueOf(f.get("criticality")));
      }
      if (f.containsKey("deadline_ms")) {
        spec.deadline(Duration.ofMillis(Long.parseLong(f.get("deadline_ms"))));
      }
      if (f.containsKey("quality_floor")) {
        spec.qualityFloor(Double.parseDouble(f.get("quality_floor")));
      }
      if (f.containsKey("limits")) {
        spec.limits(limits(f.get("limits")));
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("the checkpoint of task " + taskId + " of tenant " + tenant + " holds a spec this HFR cannot "
          + "read (" + e.getMessage() + "): " + text, e);
    }
    return spec.build();
  }

  private static TaskLimits limits(String text) {
    Map<String, String> l = new LinkedHashMap<>();
    for (String part : text.split(",")) {
      int colon = part.indexOf(':');
      l.put(part.substring(0, colon), part.substring(colon + 1));
    }
    TaskLimits.Builder b = TaskLimits.builder()
        .maxTurns(Integer.parseInt(l.get("turns")))
        .maxToolCalls(Integer.parseInt(l.get("calls")))
        .maxSameToolCalls(Integer.parseInt(l.get("same")))
        .maxRetries(Integer.parseInt(l.get("retries")))
        .retryReserveForFinalStep(Integer.parseInt(l.get("reserve")))
        .maxCost(Double.parseDouble(l.get("cost")))
        .maxWriteActions(Integer.parseInt(l.get("writes")));
    long wall = Long.parseLong(l.get("wall_ms"));
    if (wall > 0) {
      b.maxWallTime(Duration.ofMillis(wall));
    }
    return b.build();
  }

  private static Map<String, String> fields(String text) {
    String[] parts = text.split(";");
    if (!VERSION.equals(parts[0])) {
      throw new IllegalArgumentException("a task spec must start with " + VERSION + ", this one starts with " + parts[0]);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("a task spec field must be name=value, got " + parts[i]);
      }
      out.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
    }
    return out;
  }
}
