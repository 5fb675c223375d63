package dev.hfr.mcp.testing;

/**
 * One fault the loopback server injects into one {@code tools/call}. The first four happen on the wire,
 * around the SDK's servlet; the others inside the tool handler.
 */
public sealed interface McpFault {

  /** HTTP 429 with {@code Retry-After: seconds}, before the tool runs. */
  record RateLimited(int retryAfterSeconds) implements McpFault {}

  /** HTTP 503, before the tool runs. */
  record Unavailable() implements McpFault {}

  /** HTTP 404 for the session (the server forgot it), before the tool runs. */
  record SessionExpired() implements McpFault {}

  /** The tool runs and commits, then the connection is dropped before the answer leaves. */
  record DropAfterCommit() implements McpFault {}

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
