package dev.hfr.runtime.classify;

import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What was seen of one call: any of HTTP status, response headers, the exception, latency, response
 * body, the model's finish reason and a verifier's rejection reason. All parts are optional.
 * Header names are case-insensitive.
 */
public final class Observation {

  private final int httpStatus;
  private final Map<String, String> headers;
  private final Throwable exception;
  private final Duration latency;
  private final String body;
  private final String finishReason;
  private final String verifierRejection;
  private final boolean bodyExpected;

  private Observation(Builder b) {
    this.httpStatus = b.httpStatus;
    // Most failures are exceptions without headers: no map is made for them.
    this.headers = b.headers == null ? Map.of() : Collections.unmodifiableMap(b.headers);
    this.exception = b.exception;
    this.latency = b.latency;
    this.body = b.body;
    this.finishReason = b.finishReason;
    this.verifierRejection = b.verifierRejection;
    this.bodyExpected = b.bodyExpected;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * An observation of a response of the JDK's {@code HttpClient}: status, headers, and the body when it was
   * read as a {@code String}.
   *
   * @param latency how long the call took, or {@code null}
   */
  public static Observation fromHttpResponse(java.net.http.HttpResponse<?> response, Duration latency) {
    Object body = response.body();
    return builder().httpStatus(response.statusCode()).headers(response.headers().map())
        .body(body instanceof String ? (String) body : null).latency(latency).build();
  }

  /** An observation of just an exception. */
  public static Observation of(Throwable exception) {
    return builder().exception(exception).build();
  }

  /** The HTTP status, or 0 when there was none. */
  public int httpStatus() { return httpStatus; }

  /** The value of a response header, case-insensitively, or {@code null}. */
  public String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** Response headers with lower-case names. */
  public Map<String, String> headers() { return headers; }

  public Throwable exception() { return exception; }

  /** The call's latency, or {@code null} when unknown. */
  public Duration latency() { return latency; }

  /** The response body (possibly a prefix of it), or {@code null}. */
  public String body() { return body; }

  /** A model's finish or stop reason ({@code content_filter}, {@code length}, {@code refusal}), or {@code null}. */
  public String finishReason() { return finishReason; }

  /** The reason a verifier rejected the result, or {@code null}. */
  public String verifierRejection() { return verifierRejection; }

  /**
   * Whether the call was expected to return a body; a 2xx with an empty body is then suspicious (a
   * provider may turn a timeout into an empty 200).
   */
  public boolean bodyExpected() { return bodyExpected; }

  /**
   * A copy of this observation whose missing HTTP parts (status, headers, body) are taken from
   * {@code inner}, e.g. the observation of an {@link ObservableFailure} found in the cause chain.
   */
  public Observation withHttpPartsFrom(Observation inner) {
    Builder b = builder();
    b.httpStatus = httpStatus != 0 ? httpStatus : inner.httpStatus;
    if (!inner.headers.isEmpty() || !headers.isEmpty()) {
      b.headers = new TreeMap<>(inner.headers);
      b.headers.putAll(headers);
    }
    b.exception = exception;
    b.latency = latency != null ? latency : inner.latency;
    b.body = body != null ? body : inner.body;
    b.finishReason = finishReason != null ? finishReason : inner.finishReason;
    b.verifierRejection = verifierRejection != null ? verifierRejection : inner.verifierRejection;
    b.bodyExpected = bodyExpected || inner.bodyExpected;
    return b.build();
  }

  @Override
  public String toString() {
    return "Observation[status=" + httpStatus + ", headers=" + headers.keySet()
        + (exception != null ? ", exception=" + exception.getClass().getName() : "")
        + (latency != null ? ", latency=" + latency : "")
        + (body != null ? ", body=" + body.length() + " chars" : "")
        + (finishReason != null ? ", finishReason=" + finishReason : "")
        + (verifierRejection != null ? ", verifierRejection" : "") + "]";
  }

  /** Builds an {@link Observation}. */
  public static final class Builder {
    private int httpStatus;
    /** Created by the first header. */
    private Map<String, String> headers;
    private Throwable exception;
    private Duration latency;
    private String body;
    private String finishReason;
    private String verifierRejection;
    private boolean bodyExpected;

    private Builder() {}

    public Builder httpStatus(int status) {
      this.httpStatus = status;
      return this;
    }

    /** Adds a header; names are folded to lower case, {@code null} names or values are ignored. */
    public Builder header(String name, String value) {
      if (name != null && value != null) {
        if (headers == null) {
          headers = new TreeMap<>();
        }
        headers.put(name.toLowerCase(Locale.ROOT), value);
      }
      return this;
    }

    /**
     * Adds response headers as the JDK's {@code HttpHeaders.map()} gives them; several values of one
     * header are joined with {@code ", "}. A {@code null} map is ignored.
     */
    public Builder headers(Map<String, ? extends java.util.List<String>> multiValued) {
      if (multiValued != null) {
        multiValued.forEach((name, values) -> {
          if (name != null && values != null && !values.isEmpty()) {
            header(name, values.size() == 1 ? values.get(0) : String.join(", ", values));
          }
        });
      }
      return this;
    }

    /** Declares that a body was expected, so an empty 2xx body is classified as suspicious. */
    public Builder bodyExpected(boolean bodyExpected) {
      this.bodyExpected = bodyExpected;
      return this;
    }

    public Builder exception(Throwable exception) {
      this.exception = exception;
      return this;
    }

    public Builder latency(Duration latency) {
      this.latency = latency;
      return this;
    }

    public Builder body(String body) {
      this.body = body;
      return this;
    }

    public Builder finishReason(String finishReason) {
      this.finishReason = finishReason;
      return this;
    }

    public Builder verifierRejection(String reason) {
      this.verifierRejection = reason;
      return this;
    }

    public Observation build() {
      return new Observation(this);
    }
  }
}
