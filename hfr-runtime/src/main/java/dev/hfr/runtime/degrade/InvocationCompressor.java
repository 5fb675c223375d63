package dev.hfr.runtime.degrade;

import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;

/** Delegates to a {@link Compressible} invocation. */
enum InvocationCompressor implements ContextCompressor {
  INSTANCE;

  @Override
  public boolean compress(ToolDescriptor tool, ToolInvocation<?> invocation, int round) {
    return invocation instanceof Compressible && ((Compressible) invocation).compressContext(round);
  }
}
