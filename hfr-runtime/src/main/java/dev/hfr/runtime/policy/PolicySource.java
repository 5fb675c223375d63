package dev.hfr.runtime.policy;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.budget.TaskLimits;

/**
 * Where the engine gets its effective policies: the annotation defaults with the configuration's
 * per-tenant and per-tool overrides applied.
 */
public interface PolicySource {

  /** The policy of {@code tool} for {@code tenant} when the call runs at {@code criticality}. */
  CallPolicy policy(String tenant, ToolDescriptor tool, Criticality.Level criticality);

  /** The task limits of {@code tenant} (B_t is {@link TaskLimits#maxRetries()}). */
  TaskLimits taskLimits(String tenant);

  /**
   * The configuration of {@code tool}'s own breaker for {@code tenant}, when a tenant or tool override
   * sets one; {@code null} leaves the breakers' defaults. Asked once per tool and tenant.
   */
  default CircuitBreakerConfig breakerConfig(String tenant, ToolDescriptor tool) {
    return null;
  }
}
