package dev.hfr.mcp.internal;

import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.common.McpTransportContext;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.regex.Pattern;

/**
 * Names the open {@link HttpFailureCapture} on the one request whose failed answer is the call's: the POST of
 * the {@code tools/call} itself. Every request the SDK sends while a call is under way carries the call's
 * transport context — an {@code initialize} and its notification when the session is renewed within the call,
 * and the new session's listening stream (a GET) — and a failed answer to one of those says nothing about the
 * call. Read as the call's, a 404 of the stream looked like an expired session (the call sent again), a 503 or a
 * 400 like a refusal before the tool ran (a write whose answer was lost counted as not made): a write sent twice.
 */
public final class CallCaptureTagging implements McpSyncHttpClientRequestCustomizer {

  /** The SDK writes compact JSON; whitespace is allowed anyway. */
  private static final Pattern TOOLS_CALL = Pattern.compile("\"method\"\\s*:\\s*\"tools/call\"");

  @Override
  public void customize(HttpRequest.Builder request, String method, URI uri, String body, McpTransportContext context) {
    Object capture = context == null ? null : context.get(HttpFailureCapture.CONTEXT_KEY);
    if (capture instanceof HttpFailureCapture c && isToolCall(method, body)) {
      request.header(HttpFailureCapture.HEADER, c.id());
    }
  }

  /** Whether a request of {@code method} with {@code body} is a {@code tools/call}. */
  static boolean isToolCall(String method, String body) {
    return "POST".equals(method) && body != null && TOOLS_CALL.matcher(body).find();
  }
}
