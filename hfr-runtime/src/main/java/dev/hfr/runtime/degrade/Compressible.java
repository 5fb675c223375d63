package dev.hfr.runtime.degrade;

/**
 * Implemented by a {@link dev.hfr.runtime.ToolInvocation} of a model call whose context can be
 * shrunk (summarise old turns, narrow retrieval). The default {@link ContextCompressor} uses it.
 */
public interface Compressible {

  /**
   * Shrinks the context this invocation will send on its next attempt.
   *
   * @param round how many times the context was compressed in this call before (0 the first time)
   * @return whether anything changed; {@code false} means the context cannot shrink further, and the
   *     engine will not resend it unchanged
   */
  boolean compressContext(int round);
}
