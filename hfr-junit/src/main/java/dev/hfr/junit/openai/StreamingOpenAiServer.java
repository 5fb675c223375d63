package dev.hfr.junit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An OpenAI-compatible server on 127.0.0.1 that streams chat completions as server-sent events, the way
 * {@code stream: true} is answered, from a script per model. A scripted stream may end cleanly, end with a
 * content-filter finish, or be cut off after some tokens (the connection closes mid-body). A
 * {@link Step#relay()} step forwards the request to a {@link ScriptedOpenAiServer} and relays its answer,
 * so provider errors (429 with {@code Retry-After}, 529, 400 content policy) are the very replies the
 * synchronous tests use. Used by the streaming tests of both adapters (any OpenAI-compatible client).
 */
public final class StreamingOpenAiServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One scripted answer. */
  public static final class Step {
    final List<String> tokens;
    final String finishReason; // null: cut the connection after the tokens
    final boolean relay;

    private Step(List<String> tokens, String finishReason, boolean relay) {
      this.tokens = tokens;
      this.finishReason = finishReason;
      this.relay = relay;
    }

    /** Streams the tokens, then {@code finish_reason: stop} and {@code [DONE]}. */
    public static Step tokens(String... tokens) {
      return new Step(List.of(tokens), "stop", false);
    }

    /** Streams the tokens, then {@code finish_reason: content_filter}. */
    public static Step contentFilteredAfter(String... tokens) {
      return new Step(List.of(tokens), "content_filter", false);
    }

    /** Streams the tokens, then closes the connection before the body ends. */
    public static Step tokensThenDrop(String... tokens) {
      return new Step(List.of(tokens), null, false);
    }

    /** The next reply the scripted server has for the same model. */
    public static Step relay() {
      return new Step(List.of(), null, true);
    }
  }

  private final ScriptedOpenAiServer errors;
  private final HttpClient relayClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Map<String, Deque<Step>> scripts = new HashMap<>();
  private final List<String> requests = new ArrayList<>();

  private final LoopbackHttpServer http;

  private StreamingOpenAiServer(ScriptedOpenAiServer errors) {
    this.errors = errors;
    this.http = LoopbackHttpServer.start("streaming-openai", 2, this::handle); // last: it serves at once
  }

  public static StreamingOpenAiServer start(ScriptedOpenAiServer errors) {
    return new StreamingOpenAiServer(errors);
  }

  public String baseUrl() {
    return http.openAiBaseUrl();
  }

  public synchronized StreamingOpenAiServer script(String model, Step... steps) {
    Deque<Step> q = scripts.computeIfAbsent(model, m -> new ArrayDeque<>());
    for (Step s : steps) {
      q.add(s);
    }
    return this;
  }

  /** The models of the requests received, in order. */
  public synchronized List<String> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    http.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    Step step;
    boolean cut = false;
    try {
      byte[] requestBody;
      try (InputStream in = exchange.getRequestBody()) {
        requestBody = in.readAllBytes();
      }
      JsonNode body = JSON.readTree(requestBody);
      String model = body.path("model").asText("");
      synchronized (this) {
        requests.add(model);
        Deque<Step> q = scripts.get(model);
        step = q == null ? null : q.poll();
      }
      if (step == null) {
        sendWhole(exchange, 500, "application/json", Map.of(),
            "{\"error\":{\"message\":\"no scripted stream left for model " + model + "\",\"type\":\"server_error\",\"code\":\"script_exhausted\"}}");
      } else if (step.relay) {
        relay(exchange, requestBody);
      } else {
        stream(exchange, model, step);
      }
    } catch (StreamCutException e) {
      cut = true; // not closed: closing would end the body cleanly
      throw e;
    } finally {
      if (!cut) {
        exchange.close();
      }
    }
  }

  private void relay(HttpExchange exchange, byte[] requestBody) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(errors.baseUrl() + "/chat/completions"))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(requestBody))
        .build();
    HttpResponse<String> answer;
    try {
      answer = relayClient.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    Map<String, String> headers = new HashMap<>();
    answer.headers().firstValue("retry-after").ifPresent(v -> headers.put("retry-after", v));
    sendWhole(exchange, answer.statusCode(), answer.headers().firstValue("content-type").orElse("application/json"), headers, answer.body());
  }

  private static void stream(HttpExchange exchange, String model, Step step) throws IOException {
    StringBuilder events = new StringBuilder();
    boolean first = true;
    for (String token : step.tokens) {
      ObjectNode delta = JSON.createObjectNode();
      if (first) {
        delta.put("role", "assistant");
        first = false;
      }
      delta.put("content", token);
      events.append(event(model, delta, null));
    }
    if (step.finishReason != null) {
      events.append(event(model, JSON.createObjectNode(), step.finishReason)).append("data: [DONE]\n\n");
    }
    byte[] bytes = events.toString().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("content-type", "text/event-stream");
    if (step.finishReason != null) {
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
      return;
    }
    // A cut-off stream: chunked, the tokens sent, then the handler fails before the last chunk, and the
    // server drops the connection — the client sees the body end early, as when a provider's stream breaks.
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    out.write(bytes);
    out.flush();
    throw new StreamCutException();
  }

  /** Thrown by the handler to make the server drop the connection mid-body. */
  private static final class StreamCutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StreamCutException() {
      super("stream cut by the script", null, false, false);
    }
  }

  private static String event(String model, ObjectNode delta, String finishReason) {
    ObjectNode chunk = JSON.createObjectNode()
        .put("id", "chatcmpl-streamed")
        .put("object", "chat.completion.chunk")
        .put("created", 1_767_225_600L)
        .put("model", model);
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.set("delta", delta);
    if (finishReason == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finishReason);
    }
    return "data: " + chunk + "\n\n";
  }

  private static void sendWhole(HttpExchange exchange, int status, String contentType, Map<String, String> headers, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("content-type", contentType);
    headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
