package dev.hfr.junit.internal;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.classify.HttpCallException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;

/** What an injected fault looks like to the classifier: the failure a real service would produce. */
public final class WireFaults {

  private WireFaults() {}

  /** A fresh exception for {@code fault} on {@code tool}. */
  public static Exception exceptionFor(Fault fault, String tool, int retryAfterSeconds) {
    String target = "injected:" + tool;
    return switch (fault) {
      case T1 -> http(target, 503, Map.of(), "{\"error\":{\"code\":\"service_unavailable\",\"message\":\"injected\"}}");
      case T2 -> http(target, 429, Map.of("retry-after", List.of(Integer.toString(retryAfterSeconds))),
          "{\"error\":{\"code\":\"rate_limit_exceeded\",\"message\":\"injected\"}}");
      case T3 -> new SocketTimeoutException("Read timed out (injected by HFR fault injection on " + tool + ")");
      case T4 -> http(target, 529, Map.of(), "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
      case T5 -> http(target, 404, Map.of(), "{\"error\":{\"code\":\"unknown_tool\",\"message\":\"injected\"}}");
      case T6 -> http(target, 400, Map.of(), "{\"error\":{\"code\":\"context_length_exceeded\",\"message\":\"injected\"}}");
      case T7 -> http(target, 403, Map.of(), "{\"error\":{\"code\":\"permission_denied\",\"message\":\"injected\"}}");
      case T8 -> http(target, 400, Map.of(), "{\"error\":{\"code\":\"content_policy_violation\",\"message\":\"injected\"}}");
      case UNCLASSIFIED -> new IllegalStateException("injected failure without any signal on " + tool);
      case V1 -> throw new IllegalArgumentException("V1 cannot be injected as a transport failure");
    };
  }

  private static HttpCallException http(String target, int status, Map<String, List<String>> headers, String body) {
    return new HttpCallException(target, status, headers, body, null);
  }
}
