package dev.hfr.mcp.client;

import dev.hfr.mcp.internal.HttpFailureCapture;
import dev.hfr.runtime.classify.HttpCallException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the SDK throws for a failed {@code tools/call} into something the classifier reads: a JSON-RPC
 * error as {@link McpRpcErrorException}, an HTTP failure as {@link HttpCallException} with the status and
 * headers HFR captured; anything else (a dropped connection, a request timeout) is passed on as it is —
 * the classifier walks its cause chain to the JDK's I/O or timeout exception.
 */
final class McpFailures {

  /** How the SDK's transport words an HTTP failure it does not model ("Status code: 429"). */
  private static final Pattern STATUS_IN_MESSAGE = Pattern.compile("[Ss]tatus code:? ?(\\d{3})");
  private static final int MAX_DEPTH = 32;

  private McpFailures() {}

  /** Whether the server did not know the session: the request reached no tool, the SDK re-initializes. */
  static boolean sessionExpired(Throwable t, HttpFailureCapture capture) {
    // The SDK invalidates the session and fails the pending request with "MCP session with server
    // terminated"; the 404 HFR captured (or the SDK's own exception) says why.
    return find(t, McpTransportSessionNotFoundException.class) != null || capture != null && capture.status() == 404;
  }

  /**
   * What a failed {@code tools/call} of {@code request} to {@code server} is thrown as: {@link SessionExpired}
   * when the server did not know the session and the request may go once more, else the translated failure.
   */
  static RuntimeException ofCall(String server, McpSchema.CallToolRequest request, RuntimeException e,
      HttpFailureCapture capture, boolean mayReconnect) {
    if (mayReconnect && sessionExpired(e, capture)) {
      return new SessionExpired();
    }
    return translate(server + "." + request.name(), "mcp:" + server + "/" + request.name(), e, capture);
  }

  /** The server did not know the session: nothing ran, the SDK re-initializes, the request goes again. */
  static final class SessionExpired extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SessionExpired() {
      super(null, null, false, false);
    }
  }

  static RuntimeException translate(String tool, String target, RuntimeException e, HttpFailureCapture capture) {
    McpError rpc = find(e, McpError.class);
    if (rpc != null) {
      return new McpRpcErrorException(tool, rpc);
    }
    if (capture != null && capture.status() >= 400) {
      return new HttpCallException(target, capture.status(), capture.headers(), null, e);
    }
    Throwable t = e;
    for (int depth = 0; t != null && depth < MAX_DEPTH; depth++) {
      Matcher m = STATUS_IN_MESSAGE.matcher(String.valueOf(t.getMessage()));
      if (m.find()) {
        return new HttpCallException(target, Integer.parseInt(m.group(1)), Map.of(), null, e);
      }
      Throwable next = t.getCause();
      t = next == t ? null : next;
    }
    return e;
  }

  private static <T extends Throwable> T find(Throwable t, Class<T> type) {
    for (int depth = 0; t != null && depth < MAX_DEPTH; depth++) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
      Throwable next = t.getCause();
      t = next == t ? null : next;
    }
    return null;
  }
}
