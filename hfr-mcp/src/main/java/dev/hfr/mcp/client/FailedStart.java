package dev.hfr.mcp.client;

/**
 * What a client that failed to start (its {@code initialize} or first tool listing threw) leaves behind is closed
 * before the failure is thrown on: the SDK's transport threads (non-daemon, so the JVM would never exit) and, for a
 * stdio server, its process. A failure to close is added to the start failure as suppressed.
 */
final class FailedStart {

  private FailedStart() {}

  /** Runs {@code closeGracefully}, then {@code close} if that failed; returns {@code failure} for throwing. */
  static <T extends Throwable> T closeAfter(T failure, Runnable closeGracefully, Runnable close) {
    try {
      closeGracefully.run();
    } catch (RuntimeException graceful) {
      failure.addSuppressed(graceful);
      try {
        close.run();
      } catch (RuntimeException forced) {
        failure.addSuppressed(forced);
      }
    }
    return failure;
  }
}
