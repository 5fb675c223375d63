package dev.hfr.bench.live.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * How the live services speak HTTP: JSON in and out, and every {@link WireFault} answered the way real
 * providers answer it (status, headers and error body), or by holding or dropping the connection.
 */
final class Wire {

  static final ObjectMapper JSON = new ObjectMapper();

  private final long holdMillis;

  /** @param holdMillis how long a "timeout" holds the response: longer than the client's timeout */
  Wire(long holdMillis) {
    this.holdMillis = holdMillis;
  }

  static JsonNode body(HttpExchange ex) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      byte[] bytes = in.readAllBytes();
      return bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
    }
  }

  static Map<String, String> query(HttpExchange ex) {
    Map<String, String> q = new HashMap<>();
    URI uri = ex.getRequestURI();
    String raw = uri.getRawQuery();
    if (raw != null) {
      for (String part : raw.split("&")) {
        int eq = part.indexOf('=');
        if (eq > 0) {
          q.put(URLDecoder.decode(part.substring(0, eq), StandardCharsets.UTF_8), URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return q;
  }

  /** The task number a request belongs to (header {@code x-task}); -1 when absent. */
  static int task(HttpExchange ex) {
    String t = ex.getRequestHeaders().getFirst("x-task");
    try {
      return t == null ? -1 : Integer.parseInt(t.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("content-type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  static ObjectNode object() {
    return JSON.createObjectNode();
  }

  /** Holds the response past the client's timeout, then closes the connection without answering. */
  void hold(HttpExchange ex) {
    try {
      Thread.sleep(holdMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    drop(ex);
  }

  /** Closes the connection without a response. */
  static void drop(HttpExchange ex) {
    ex.close();
  }

  /**
   * Answers a request with {@code fault} as a real service would. Returns {@code false} for faults that
   * are not an error response ({@link WireFault#NONE}, the commit-then faults, schema mismatch, wrong
   * content): those are the handler's to play.
   */
  boolean answerError(HttpExchange ex, WireFault fault, boolean modelProvider) throws IOException {
    switch (fault) {
      case RATE_LIMITED -> {
        ex.getResponseHeaders().set("retry-after", "1");
        ex.getResponseHeaders().set("retry-after-ms", "100");
        send(ex, 429, error(modelProvider ? "rate_limit_error" : "rate_limited", "Rate limit reached for requests", null));
      }
      case SERVER_ERROR -> send(ex, 500, error("api_error", "Internal server error", null));
      case BAD_GATEWAY -> send(ex, 502, error("api_error", "Bad gateway", null));
      case UNAVAILABLE -> send(ex, 503, error("api_error", "Service unavailable", null));
      case OVERLOADED -> send(ex, 529, error("overloaded_error", "Overloaded", null));
      case CONTEXT_LENGTH -> send(ex, 400, error("invalid_request_error",
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.",
          "context_length_exceeded"));
      case CONTENT_FILTER -> send(ex, 400, error("invalid_request_error",
          "The response was filtered due to the prompt triggering the content management policy.", "content_filter"));
      case UNKNOWN_TOOL -> send(ex, 404, error("not_found_error", "unknown tool: the requested tool is not registered", "unknown_tool"));
      case FORBIDDEN -> send(ex, 403, error("permission_error", "Permission denied for this resource", "forbidden"));
      case DISK_FULL -> send(ex, 507, error("api_error", "Insufficient storage: no space left on device", null));
      case TIMEOUT -> hold(ex);
      case DROP -> drop(ex);
      default -> {
        return false;
      }
    }
    return true;
  }

  private static ObjectNode error(String type, String message, String code) {
    ObjectNode root = object();
    root.put("type", "error");
    ObjectNode err = root.putObject("error");
    err.put("type", type);
    err.put("message", message);
    if (code != null) {
      err.put("code", code);
    }
    return root;
  }
}
