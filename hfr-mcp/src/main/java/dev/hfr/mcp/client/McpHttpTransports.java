package dev.hfr.mcp.client;

import dev.hfr.mcp.internal.CallCaptureTagging;
import dev.hfr.mcp.internal.HttpFailureCapture;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;

/**
 * The SDK's streamable HTTP client transport, set up so that HFR sees the status and headers of a failed
 * response (a 429's {@code Retry-After}, a 503) and not only the SDK's exception message.
 *
 * <pre>{@code
 * var transport = McpHttpTransports.streamableHttp("http://127.0.0.1:8080").endpoint("/mcp").build();
 * HfrMcpClient tracker = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(transport)).build();
 * }</pre>
 *
 * A transport built without this still works under HFR; failures are then classified from the SDK's
 * exception (the status when its message names one, no Retry-After).
 */
public final class McpHttpTransports {

  private McpHttpTransports() {}

  /** A streamable HTTP transport builder for {@code baseUri} whose failed responses HFR can read. */
  public static HttpClientStreamableHttpTransport.Builder streamableHttp(String baseUri) {
    return HttpClientStreamableHttpTransport.builder(baseUri)
        .clientBuilder(HttpFailureCapture.recordingClient())
        .addHttpRequestCustomizer(new CallCaptureTagging());
  }
}
