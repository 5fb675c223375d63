package dev.hfr.junit.internal;

import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import java.util.Objects;

/**
 * The engine a test hands its generated proxies: runs every call through the real engine, with the
 * invocation wrapped so the planned faults happen below the engine, where real failures happen.
 */
public final class FaultInjectingEngine implements RecoveryEngine {

  private final RecoveryEngine engine;
  private final FaultPlan plan;

  public FaultInjectingEngine(RecoveryEngine engine, FaultPlan plan) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.plan = Objects.requireNonNull(plan, "plan");
  }

  @Override
  public <R> R execute(ToolDescriptor tool, ToolInvocation<R> invocation) {
    return engine.execute(tool, new FaultInjectingInvocation<>(invocation, plan, tool.name()));
  }

  public FaultPlan plan() {
    return plan;
  }
}
