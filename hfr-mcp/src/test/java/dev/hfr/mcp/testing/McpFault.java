package dev.hfr.mcp.testing;

/**
 * One fault the loopback server injects into one {@code tools/call}, or into the session's listening stream (the
 * client's GET, {@link FaultPlan#LISTENING_STREAM}: a 429, 503 or 404 there). The first four happen on the wire,
 * around the SDK's servlet; the others inside the tool handler.
 */
public sealed interface McpFault {

  /** HTTP 429 with {@code Retry-After: seconds}, before the tool runs. */
  record RateLimited(int retryAfterSeconds) implements McpFault {}

  /** HTTP 503, before the tool runs. */
  record Unavailable() implements McpFault {}

  /** HTTP 404 for the session (the server forgot it), before the tool runs. */
  record SessionExpired() implements McpFault {}

  /**
   * The tool runs and commits, then the connection is dropped before the answer leaves; the request waits
   * {@code delayMillis} before it reaches the tool (so that what the client does meanwhile lands first).
   */
  record DropAfterCommit(long delayMillis) implements McpFault {
    public DropAfterCommit() {
      this(0);
    }
  }

  /** The tool does not run; the answer is {@code isError: true} with this text. */
  record ErrorResult(String text) implements McpFault {}

  /** The tool does not run; the answer is a JSON-RPC error with this code. */
  record RpcError(int code, String message) implements McpFault {}

  /** The tool runs and commits, then answers after {@code millis} (past the client's request timeout). */
  record SlowAfterCommit(long millis) implements McpFault {}

  /** Whether the servlet filter injects this fault (else the tool handler does). */
  default boolean onTheWire() {
    return this instanceof RateLimited || this instanceof Unavailable || this instanceof SessionExpired
        || this instanceof DropAfterCommit;
  }
}
