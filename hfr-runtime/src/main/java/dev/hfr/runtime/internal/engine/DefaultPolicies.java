package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.runtime.policy.PolicySource;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.budget.TaskLimits;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The policies of the annotations alone, with the paper's §5.2 defaults where the annotations say
 * nothing: quality floors 0.60 / 0.80 / 0.92 and automatic levels L1–L4 / L1–L3 / L1–L2 for LOW / MEDIUM /
 * HIGH criticality, the task limits of {@link TaskLimits#defaults()}, attempts bounded only by {@code
 * @Timeout}, reconcile calls by 1.5 s, and no human spot checks.
 */
public final class DefaultPolicies implements PolicySource {

  private static final Set<DegradeLevel> LOW = Collections.unmodifiableSet(EnumSet.of(DegradeLevel.L1, DegradeLevel.L2, DegradeLevel.L3, DegradeLevel.L4));
  private static final Set<DegradeLevel> MEDIUM = Collections.unmodifiableSet(EnumSet.of(DegradeLevel.L1, DegradeLevel.L2, DegradeLevel.L3));
  private static final Set<DegradeLevel> HIGH = Collections.unmodifiableSet(EnumSet.of(DegradeLevel.L1, DegradeLevel.L2));

  private final int attemptsOverride;

  /**
   * @param attemptsOverride when positive, every step's attempts are capped at this (a fixed-retry
   *     baseline); R3 methods keep their single attempt
   */
  public DefaultPolicies(int attemptsOverride) {
    this.attemptsOverride = attemptsOverride;
  }

  @Override
  public CallPolicy policy(String tenant, ToolDescriptor tool, Criticality.Level criticality) {
    // Without a configuration no accepted result is sampled for a human: the escalation handler sees only escalations.
    return new CallPolicy(overridden(tool.retry(), attemptsOverride), criticality, floor(criticality), allowed(criticality),
        tool.verifyLevel(), tool.timeoutMs(), CallPolicy.DEFAULT_RECONCILE_TIMEOUT_MS, true, true, 0.0);
  }

  @Override
  public TaskLimits taskLimits(String tenant) {
    return TaskLimits.defaults();
  }

  /** The §5.2 quality floor of {@code criticality}. */
  public static double floor(Criticality.Level criticality) {
    switch (criticality) {
      case LOW: return 0.60;
      case HIGH: return 0.92;
      default: return 0.80;
    }
  }

  /** The §5.2 automatic degradation levels of {@code criticality}. */
  public static Set<DegradeLevel> allowed(Criticality.Level criticality) {
    switch (criticality) {
      case LOW: return LOW;
      case HIGH: return HIGH;
      default: return MEDIUM;
    }
  }

  /** {@code spec} with its attempts replaced by {@code attempts} when positive (never for a single-attempt spec). */
  static RetrySpec overridden(RetrySpec spec, int attempts) {
    if (attempts <= 0 || spec.maxAttempts() == 1 && spec.retryOn().isEmpty()) {
      return spec;
    }
    return new RetrySpec(attempts, spec.baseDelayMs(), spec.maxDelayMs(), spec.retryOn());
  }
}
