package dev.hfr.junit.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One scripted answer of {@link ScriptedOpenAiServer}: a status, headers and a body in the real format of
 * the OpenAI chat-completions API (or of the provider whose error it imitates), optionally after a stall.
 * A reply may also be computed from the request it answers ({@link #from(Function)}).
 */
public final class Reply {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  final int status;
  final Map<String, String> headers;
  final String body;
  final Duration stall;
  final Function<RecordedRequest, Reply> dynamic;
  final String label;

  private Reply(int status, Map<String, String> headers, String body, Duration stall, Function<RecordedRequest, Reply> dynamic, String label) {
    this.status = status;
    this.headers = Map.copyOf(headers);
    this.body = body;
    this.stall = stall;
    this.dynamic = dynamic;
    this.label = label;
  }

  /** An assistant answer with {@code finish_reason: "stop"}. */
  public static Reply text(String content) {
    ObjectNode message = F.objectNode().put("role", "assistant").put("content", content);
    return ok(message, "stop", "text");
  }

  /** An assistant message calling one tool, {@code finish_reason: "tool_calls"}. */
  public static Reply toolCall(String callId, String toolName, String argumentsJson) {
    ObjectNode message = F.objectNode().put("role", "assistant").putNull("content");
    ArrayNode calls = message.putArray("tool_calls");
    ObjectNode call = calls.addObject().put("id", callId).put("type", "function");
    call.putObject("function").put("name", toolName).put("arguments", argumentsJson);
    return ok(message, "tool_calls", "tool_call " + toolName);
  }

  /** An answer stopped by the provider's content filter: {@code finish_reason: "content_filter"}. */
  public static Reply contentFilterFinish() {
    ObjectNode message = F.objectNode().put("role", "assistant").putNull("content");
    return ok(message, "content_filter", "finish content_filter");
  }

  /** A model refusal in the {@code refusal} field of the assistant message. */
  public static Reply refusal(String text) {
    ObjectNode message = F.objectNode().put("role", "assistant").putNull("content").put("refusal", text);
    return ok(message, "stop", "refusal");
  }

  /** 429 with {@code Retry-After} in seconds ({@code rate_limit_exceeded}). */
  public static Reply rateLimited(int retryAfterSeconds) {
    return error(429, Map.of("retry-after", Integer.toString(retryAfterSeconds)),
        "Rate limit reached for requests. Please try again in " + retryAfterSeconds + "s.", "requests", "rate_limit_exceeded",
        "429 retry-after " + retryAfterSeconds + "s");
  }

  /** 429 for an exhausted quota ({@code insufficient_quota}): waiting does not help. */
  public static Reply quotaExhausted() {
    return error(429, Map.of(), "You exceeded your current quota, please check your plan and billing details.",
        "insufficient_quota", "insufficient_quota", "429 insufficient_quota");
  }

  /** 529 with an Anthropic-style {@code overloaded_error} body. */
  public static Reply overloaded() {
    ObjectNode body = F.objectNode().put("type", "error");
    body.putObject("error").put("type", "overloaded_error").put("message", "Overloaded");
    return new Reply(529, Map.of("content-type", "application/json"), body.toString(), Duration.ZERO, null, "529 overloaded_error");
  }

  /** 400 {@code context_length_exceeded}. */
  public static Reply contextLengthExceeded() {
    return error(400, Map.of(), "This model's maximum context length is 8192 tokens. However, your messages resulted in 9011 tokens."
        + " Please reduce the length of the messages.", "invalid_request_error", "context_length_exceeded", "400 context_length_exceeded");
  }

  /** 400 {@code content_policy_violation}: the provider's safety system refused the request. */
  public static Reply contentPolicyViolation() {
    return error(400, Map.of(), "Your request was rejected as a result of our safety system: content policy violation.",
        "invalid_request_error", "content_policy_violation", "400 content_policy_violation");
  }

  /** 404 {@code model_not_found}: the requested model does not exist or is not available to this key. */
  public static Reply modelNotFound() {
    return error(404, Map.of(), "The model does not exist or you do not have access to it.", "invalid_request_error",
        "model_not_found", "404 model_not_found");
  }

  /** 401 {@code invalid_api_key}. */
  public static Reply unauthorized() {
    return error(401, Map.of(), "Incorrect API key provided.", "invalid_request_error", "invalid_api_key", "401 invalid_api_key");
  }

  /** A 5xx server error. */
  public static Reply serverError(int status) {
    if (status < 500 || status > 599) {
      throw new IllegalArgumentException("a server error has a 5xx status, not " + status);
    }
    return error(status, Map.of(), "The server had an error while processing your request.", "server_error", null, status + " server_error");
  }

  /** A reply computed from the request it answers (for example, to echo a tool result). */
  public static Reply from(Function<RecordedRequest, Reply> dynamic) {
    return new Reply(0, Map.of(), null, Duration.ZERO, Objects.requireNonNull(dynamic, "dynamic"), "dynamic");
  }

  /** This reply, sent only after {@code stall} (to make a client time out). */
  public Reply after(Duration stall) {
    if (stall.isNegative() || stall.compareTo(Duration.ofSeconds(30)) > 0) {
      throw new IllegalArgumentException("stall must be within 0..30 s, was " + stall);
    }
    return new Reply(status, headers, body, stall, dynamic, label + " after " + stall.toMillis() + " ms");
  }

  /** A short description, as the server logs it. */
  public String label() {
    return label;
  }

  private static Reply ok(ObjectNode message, String finishReason, String label) {
    ObjectNode body = F.objectNode()
        .put("id", "chatcmpl-scripted")
        .put("object", "chat.completion")
        .put("created", 1_767_225_600L)
        .put("model", "scripted");
    ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
    choice.set("message", message);
    choice.put("finish_reason", finishReason);
    body.putObject("usage").put("prompt_tokens", 42).put("completion_tokens", 7).put("total_tokens", 49);
    return new Reply(200, Map.of("content-type", "application/json"), body.toString(), Duration.ZERO, null, label);
  }

  private static Reply error(int status, Map<String, String> extraHeaders, String message, String type, String code, String label) {
    ObjectNode body = F.objectNode();
    ObjectNode error = body.putObject("error").put("message", message).put("type", type).putNull("param");
    if (code == null) {
      error.putNull("code");
    } else {
      error.put("code", code);
    }
    java.util.Map<String, String> headers = new java.util.HashMap<>(extraHeaders);
    headers.put("content-type", "application/json");
    return new Reply(status, headers, body.toString(), Duration.ZERO, null, label);
  }

  /** The body with the model name the request asked for. */
  String bodyFor(String model) {
    return body == null || status != 200 ? body : body.replace("\"model\":\"scripted\"", "\"model\":\"" + model + "\"");
  }
}
