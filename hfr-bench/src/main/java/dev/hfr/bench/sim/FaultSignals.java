package dev.hfr.bench.sim;

import dev.hfr.annotations.Fault;
import dev.hfr.bench.workload.StepKind;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.runtime.classify.HttpCallException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;

/**
 * Turns an injected fault into what a real client would throw for it — an {@link HttpCallException}
 * with the provider's status, headers and error body, or the JDK's {@link HttpTimeoutException} — so the
 * engine's real classifier has to recognise it. Nothing here tells the engine the fault class.
 */
final class FaultSignals {

  private static final Map<String, List<String>> JSON = Map.of("content-type", List.of("application/json"));

  // The error bodies are the same on every throw: built once (millions of faults are thrown per run).
  private static final String UNAVAILABLE = error("api_error", "Service unavailable", null);
  private static final String MODEL_RATE_LIMITED = error("rate_limit_error", "Rate limit reached for requests", null);
  private static final String TOOL_RATE_LIMITED = error("rate_limited", "Rate limit reached for requests", null);
  private static final String OVERLOADED = error("overloaded_error", "Overloaded", null);
  private static final String UNKNOWN_TOOL =
      error("not_found_error", "unknown tool: the requested tool is not registered", "unknown_tool");
  private static final String CONTEXT_TOO_LONG = error("invalid_request_error",
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens.", "context_length_exceeded");
  private static final String FORBIDDEN = error("permission_error", "Permission denied for this resource", "forbidden");
  private static final String FILTERED = error("invalid_request_error",
      "The response was filtered due to the prompt triggering the content management policy.", "content_filter");

  /** The headers of a 429 for the last Retry-After asked for (one value per run in practice). */
  private static volatile RateLimitHeaders rateLimitHeaders = RateLimitHeaders.of(1);

  private FaultSignals() {}

  static Exception exception(Fault fault, StepKind kind, WorkloadParameters p) {
    boolean model = kind == StepKind.MODEL;
    return switch (fault) {
      case T1 -> http(503, JSON, UNAVAILABLE);
      case T2 -> http(429, rateLimitHeaders(p.retryAfterSeconds()), model ? MODEL_RATE_LIMITED : TOOL_RATE_LIMITED);
      case T3 -> new SimulatedTimeout();
      case T4 -> http(529, JSON, OVERLOADED);
      case T5 -> http(404, JSON, UNKNOWN_TOOL);
      case T6 -> http(400, JSON, CONTEXT_TOO_LONG);
      case T7 -> http(403, JSON, FORBIDDEN);
      case T8 -> http(400, JSON, FILTERED);
      default -> throw new IllegalArgumentException("not an injected fault class: " + fault);
    };
  }

  private static Map<String, List<String>> rateLimitHeaders(long retryAfterSeconds) {
    RateLimitHeaders h = rateLimitHeaders;
    if (h.retryAfterSeconds != retryAfterSeconds) {
      h = RateLimitHeaders.of(retryAfterSeconds);
      rateLimitHeaders = h;
    }
    return h.headers;
  }

  private record RateLimitHeaders(long retryAfterSeconds, Map<String, List<String>> headers) {
    static RateLimitHeaders of(long retryAfterSeconds) {
      return new RateLimitHeaders(retryAfterSeconds,
          Map.of("content-type", List.of("application/json"), "retry-after", List.of(String.valueOf(retryAfterSeconds))));
    }
  }

  private static String error(String type, String message, String code) {
    return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message + "\""
        + (code != null ? ",\"code\":\"" + code + "\"" : "") + "}}";
  }

  private static HttpCallException http(int status, Map<String, List<String>> headers, String body) {
    return new SimulatedHttpFailure(status, headers, body);
  }

  /**
   * An HTTP failure of a simulated tool. Its stack trace would only point into the simulator, so it is
   * not filled in: millions of them are thrown per run.
   */
  static final class SimulatedHttpFailure extends HttpCallException {
    private static final long serialVersionUID = 1L;

    SimulatedHttpFailure(int status, Map<String, List<String>> headers, String body) {
      super(status, headers, body);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  /** A request timeout of a simulated tool: the JDK client's exception, without a stack trace. */
  static final class SimulatedTimeout extends HttpTimeoutException {
    private static final long serialVersionUID = 1L;

    SimulatedTimeout() {
      super("request timed out");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
