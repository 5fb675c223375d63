package dev.hfr.langchain4j.http;

import dev.hfr.runtime.classify.ObservableFailure;
import dev.hfr.runtime.classify.Observation;
import dev.langchain4j.exception.HttpException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * LangChain4j's {@link HttpException} plus the response headers it normally drops — above all
 * {@code Retry-After} / {@code retry-after-ms} of a 429 and the provider's request id. Thrown by the
 * client of {@link ObservingHttpClientBuilder}; LangChain4j's exception mapper keeps it as the cause of
 * the {@code RateLimitException}, {@code InvalidRequestException}, ... it throws, so the runtime's
 * classifier finds it on the cause chain as an {@link ObservableFailure}.
 */
public class ProviderHttpException extends HttpException implements ObservableFailure {

  private static final long serialVersionUID = 1L;

  private final transient Map<String, String> headers;

  /**
   * @param statusCode the HTTP status
   * @param body the response body, as LangChain4j reports it in the message
   * @param headers the response headers (first value of each; names are folded to lower case)
   */
  public ProviderHttpException(int statusCode, String body, Map<String, String> headers) {
    super(statusCode, body);
    Map<String, String> lower = new TreeMap<>();
    headers.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    this.headers = Map.copyOf(lower);
  }

  @Override
  public Observation observation() {
    Observation.Builder b = Observation.builder().httpStatus(statusCode()).body(getMessage());
    headers.forEach(b::header);
    return b.build();
  }

  /** Response headers with lower-case names. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The value of a header (case-insensitive), or {@code null}. */
  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }
}
