package dev.hfr.runtime.degrade;

import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;

/**
 * The COMPRESS action's hook (an L1 step): after a context overflow (T6), shrinks what the next attempt
 * sends. A compressor that cannot shrink the context answers {@code false}; the engine then degrades or
 * fails instead of resending the same request (§4.3: never resend as is).
 */
@FunctionalInterface
public interface ContextCompressor {

  /**
   * Compresses the context of {@code invocation} before its next attempt.
   *
   * @param round how many times this call was compressed before (0 the first time)
   * @return whether the next attempt will send something smaller
   */
  boolean compress(ToolDescriptor tool, ToolInvocation<?> invocation, int round) throws Exception;

  /** The default: asks the invocation itself when it is {@link Compressible}; otherwise cannot compress. */
  static ContextCompressor invocationCompressible() {
    return InvocationCompressor.INSTANCE;
  }

  /** Compresses nothing. */
  static ContextCompressor none() {
    return (tool, invocation, round) -> false;
  }
}
