package dev.hfr.junit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that answers from a script, so an agent built
 * on a real client can be run offline and deterministically — tool calls and provider faults included.
 * Replies are scripted per requested model and consumed in order; a model whose script ran out answers
 * 500 with {@code script_exhausted}, so an unexpected call is visible — unless it was given a policy
 * ({@link #answerEveryRequest}), which then answers every further request of that model.
 *
 * <pre>{@code
 * try (ScriptedOpenAiServer server = ScriptedOpenAiServer.start()) {
 *   server.script("gpt-4o", Reply.overloaded());
 *   server.script("gpt-4o-mini", Reply.text("done"));
 *   ChatModel model = OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("test")
 *       .modelName("gpt-4o").maxRetries(0).build();
 * }
 * }</pre>
 */
public final class ScriptedOpenAiServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<String, Deque<Reply>> scripts = new HashMap<>();
  private final Map<String, Function<RecordedRequest, Reply>> policies = new HashMap<>();
  private final List<RecordedRequest> requests = new ArrayList<>();
  private final LoopbackHttpServer http;

  private ScriptedOpenAiServer() {
    this.http = LoopbackHttpServer.start("scripted-openai", 4, this::handle); // last: it serves at once
  }

  /** Starts a server on an ephemeral port of 127.0.0.1. */
  public static ScriptedOpenAiServer start() {
    return new ScriptedOpenAiServer();
  }

  /** The base URL to give the client, e.g. {@code http://127.0.0.1:41234/v1}. */
  public String baseUrl() {
    return http.openAiBaseUrl();
  }

  /** Appends replies to the script of {@code model}. */
  public synchronized ScriptedOpenAiServer script(String model, Reply... replies) {
    Deque<Reply> q = scripts.computeIfAbsent(model, m -> new ArrayDeque<>());
    for (Reply r : replies) {
      q.add(r);
    }
    return this;
  }

  /**
   * Lets {@code policy} answer every request of {@code model} once its scripted replies are used up: a model
   * whose behaviour is a rule over the conversation (for example, call the next tool after each successful
   * result), for runs of any length such as a sample application that serves conversations on demand.
   */
  public synchronized ScriptedOpenAiServer answerEveryRequest(String model, Function<RecordedRequest, Reply> policy) {
    policies.put(model, Objects.requireNonNull(policy, "policy"));
    return this;
  }

  /** Every request received so far, in order. */
  public synchronized List<RecordedRequest> requests() {
    return List.copyOf(requests);
  }

  /** The requests received for {@code model}. */
  public synchronized List<RecordedRequest> requests(String model) {
    return requests.stream().filter(r -> r.model().equals(model)).toList();
  }

  /** How many scripted replies of {@code model} are still unused. */
  public synchronized int remaining(String model) {
    Deque<Reply> q = scripts.get(model);
    return q == null ? 0 : q.size();
  }

  @Override
  public void close() {
    http.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod()) || !exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
        send(exchange, 404, Map.of("content-type", "application/json"),
            "{\"error\":{\"message\":\"unknown path " + exchange.getRequestURI().getPath() + "\",\"type\":\"invalid_request_error\",\"code\":\"unknown_url\"}}");
        return;
      }
      JsonNode body;
      try (InputStream in = exchange.getRequestBody()) {
        body = JSON.readTree(in);
      }
      String model = body.path("model").asText("");
      Reply reply;
      synchronized (this) {
        Deque<Reply> q = scripts.get(model);
        reply = q == null ? null : q.poll();
        if (reply == null && policies.containsKey(model)) {
          reply = Reply.from(policies.get(model));
        }
      }
      if (reply == null) {
        record(new RecordedRequest(model, body, "script_exhausted"));
        send(exchange, 500, Map.of("content-type", "application/json"),
            "{\"error\":{\"message\":\"no scripted reply left for model " + model + "\",\"type\":\"server_error\",\"code\":\"script_exhausted\"}}");
        return;
      }
      RecordedRequest recorded = new RecordedRequest(model, body, reply.label);
      if (reply.dynamic != null) {
        reply = reply.dynamic.apply(recorded);
        recorded = new RecordedRequest(model, body, reply.label);
      }
      record(recorded);
      if (!reply.stall.isZero()) {
        try {
          Thread.sleep(reply.stall.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      send(exchange, reply.status, reply.headers, reply.bodyFor(model));
    }
  }

  private synchronized void record(RecordedRequest r) {
    requests.add(r);
  }

  private static void send(HttpExchange exchange, int status, Map<String, String> headers, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
    try {
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (IOException clientGone) {
      // The client timed out and closed the connection: nothing left to answer.
    }
  }
}
