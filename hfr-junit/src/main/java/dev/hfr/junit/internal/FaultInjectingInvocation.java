package dev.hfr.junit.internal;

import dev.hfr.runtime.ToolInvocation;
import java.util.Optional;

/**
 * A tool invocation that consults the {@link FaultPlan} on every physical call: a planned call fails
 * with the fault's wire exception, after running the real call first when the fault is commit-then-drop.
 * Reconcile, compensate and degradation rungs go straight to the real invocation.
 */
final class FaultInjectingInvocation<R> extends ToolInvocation<R> {

  private final ToolInvocation<R> real;
  private final FaultPlan plan;
  private final String tool;

  FaultInjectingInvocation(ToolInvocation<R> real, FaultPlan plan, String tool) {
    this.real = real;
    this.plan = plan;
    this.tool = tool;
  }

  @Override
  public R proceed(String idempotencyKey) throws Exception {
    FaultPlan.Planned fault = plan.onCall(tool);
    if (fault == null) {
      return real.proceed(idempotencyKey);
    }
    if (fault.commitThenDrop()) {
      real.proceed(idempotencyKey);
    }
    throw WireFaults.exceptionFor(fault.fault(), tool, fault.retryAfterSeconds());
  }

  @Override
  public int argumentCount() {
    return real.argumentCount();
  }

  @Override
  public Object argument(int index) {
    return real.argument(index);
  }

  @Override
  public Optional<R> reconcile() throws Exception {
    return real.reconcile();
  }

  @Override
  public void compensate() throws Exception {
    real.compensate();
  }

  @Override
  public R degrade(int index) throws Exception {
    return real.degrade(index);
  }
}
