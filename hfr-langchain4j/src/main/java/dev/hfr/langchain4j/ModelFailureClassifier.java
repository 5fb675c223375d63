package dev.hfr.langchain4j;

import dev.hfr.annotations.Fault;
import dev.hfr.langchain4j.http.ProviderHttpException;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.classify.Observation;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.ContentFilteredException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns what LangChain4j throws or returns into an F2D-9 class. Provider specifics live here, not in the
 * runtime (paper §5.3): the status, headers and body of the provider's response are read off the cause
 * chain into an {@link Observation} and handed to the runtime's {@link FailureClassifier}; the rules
 * only LangChain4j can answer are applied around it:
 *
 * <ul>
 *   <li>{@code ContentFilteredException} (the provider's refusal) and finish reason
 *       {@code CONTENT_FILTER} are T8 — a policy refusal, never retried nor degraded around;
 *   <li>{@code ModelNotFoundException} is T5: this model is unavailable, an equivalent one may serve;
 *   <li>a 429 whose body says {@code insufficient_quota} is an exhausted quota, not a momentary limit:
 *       waiting will not help, another provider may;
 *   <li>when the runtime classifier cannot decide, LangChain4j's own exception type is used as a weaker
 *       signal (RateLimit → T2, Timeout → T3, InternalServer → T1, Authentication/InvalidRequest → T7).
 * </ul>
 */
public final class ModelFailureClassifier {

  private final FailureClassifier runtime;

  public ModelFailureClassifier(FailureClassifier runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  /** Classifies an exception thrown by a LangChain4j chat model. */
  public ModelFailure classify(Throwable failure, Duration latency) {
    Observation observation = observe(failure, latency);
    boolean quota = isQuotaExhausted(observation);
    if (find(failure, ContentFilteredException.class) != null) {
      return new ModelFailure(new Classification(Fault.T8, 1.0, null, -1, "langchain4j.content-filtered"), false, observation);
    }
    if (find(failure, ModelNotFoundException.class) != null) {
      return new ModelFailure(new Classification(Fault.T5, 0.9, null, -1, "langchain4j.model-not-found"), false, observation);
    }
    Classification c = runtime.classify(observation);
    if (c.fault() == Fault.UNCLASSIFIED) {
      Classification byType = byLangChain4jType(failure, c.retryAfterMillis());
      if (byType != null) {
        c = byType;
      }
    }
    // The runtime may call an exhausted quota T2 (a rate limit) or T7 (permanent for this account); either
    // way this provider will not serve, and another provider of the ladder may.
    return new ModelFailure(c, quota || c.rule().contains("quota"), observation);
  }

  /**
   * Classifies a response that arrived but must not be accepted: a content-filter finish is T8.
   *
   * @return the failure, or {@code null} when the response is acceptable
   */
  public ModelFailure classify(ChatResponse response) {
    if (response.finishReason() == FinishReason.CONTENT_FILTER) {
      Observation observation = Observation.builder().httpStatus(200).finishReason("content_filter").build();
      Classification c = runtime.classify(observation);
      if (c.fault() != Fault.T8) {
        // The provider said its filter stopped the answer: that is a refusal whatever a generic rule says.
        c = new Classification(Fault.T8, 1.0, null, -1, "langchain4j.finish-reason.content-filter");
      }
      return new ModelFailure(c, false, observation);
    }
    return null;
  }

  /** What the cause chain shows of the provider's response. */
  static Observation observe(Throwable failure, Duration latency) {
    Observation.Builder b = Observation.builder().exception(failure).latency(latency);
    HttpException http = find(failure, HttpException.class);
    if (http != null) {
      b.httpStatus(http.statusCode()).body(clip(http.getMessage()));
    }
    ProviderHttpException withHeaders = find(failure, ProviderHttpException.class);
    if (withHeaders != null) {
      withHeaders.headers().forEach(b::header);
    }
    if (http == null && find(failure, ContentFilteredException.class) != null) {
      b.finishReason("refusal").body(clip(failure.getMessage()));
    }
    return b.build();
  }

  private static boolean isQuotaExhausted(Observation o) {
    String body = o.body();
    return o.httpStatus() == 429 && body != null && body.toLowerCase(Locale.ROOT).contains("insufficient_quota");
  }

  private static Classification byLangChain4jType(Throwable failure, long retryAfterMillis) {
    if (find(failure, RateLimitException.class) != null) {
      return new Classification(Fault.T2, 0.6, null, retryAfterMillis, "langchain4j.type.rate-limit");
    }
    if (find(failure, TimeoutException.class) != null) {
      return new Classification(Fault.T3, 0.6, null, -1, "langchain4j.type.timeout");
    }
    if (find(failure, InternalServerException.class) != null) {
      return new Classification(Fault.T1, 0.6, null, -1, "langchain4j.type.internal-server");
    }
    if (find(failure, AuthenticationException.class) != null) {
      return new Classification(Fault.T7, 0.6, null, -1, "langchain4j.type.authentication");
    }
    if (find(failure, InvalidRequestException.class) != null) {
      return new Classification(Fault.T7, 0.5, null, -1, "langchain4j.type.invalid-request");
    }
    return null;
  }

  private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 16; t = t.getCause(), depth++) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String clip(String body) {
    return body == null || body.length() <= 4096 ? body : body.substring(0, 4096);
  }
}
