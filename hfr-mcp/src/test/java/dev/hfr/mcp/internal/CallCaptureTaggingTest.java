package dev.hfr.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.common.McpTransportContext;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Only the POST of the tools/call itself names the call's capture: other requests of the call say nothing of it. */
class CallCaptureTaggingTest {

  private static final URI ENDPOINT = URI.create("http://127.0.0.1:1/mcp");

  private final HttpFailureCapture capture = HttpFailureCapture.open();
  private final McpTransportContext duringTheCall =
      McpTransportContext.create(Map.of(HttpFailureCapture.CONTEXT_KEY, capture));

  @AfterEach
  void close() {
    capture.close();
  }

  @Test
  void theToolCallNamesTheCapture() {
    assertThat(tagged("POST", "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"id\":\"7\",\"params\":{\"name\":\"close_all\"}}"))
        .contains(capture.id());
  }

  @Test
  void aSessionRenewedWithinTheCallDoesNotNameIt() {
    assertThat(tagged("POST", "{\"jsonrpc\":\"2.0\",\"method\":\"initialize\",\"id\":\"8\",\"params\":{}}")).isEmpty();
    assertThat(tagged("POST", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).isEmpty();
  }

  @Test
  void theListeningStreamDoesNotNameIt() {
    assertThat(tagged("GET", null)).isEmpty();
  }

  @Test
  void aRequestOutsideACallNamesNothing() {
    HttpRequest.Builder request = HttpRequest.newBuilder(ENDPOINT);
    new CallCaptureTagging().customize(request, "POST", ENDPOINT, "{\"method\":\"tools/call\"}", McpTransportContext.EMPTY);
    assertThat(request.build().headers().firstValue(HttpFailureCapture.HEADER)).isEmpty();
  }

  private Optional<String> tagged(String method, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(ENDPOINT);
    new CallCaptureTagging().customize(request, method, ENDPOINT, body, duringTheCall);
    return request.build().headers().firstValue(HttpFailureCapture.HEADER);
  }
}
