package dev.hfr.spring.ai;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.classify.Observation;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.util.ClassUtils;

/**
 * Turns what a Spring AI chat model throws or returns into an F2D-9 class. The provider's status, headers and body are
 * read off the cause chain — the OpenAI Java SDK's {@code OpenAIServiceException} (Spring AI's OpenAI model) when that
 * SDK is present — into an {@link Observation} for the runtime's {@link FailureClassifier}, which also reads the JDK's
 * and Spring's exception types. Around it, what only the response can say: a {@code content_filter} finish is T8, and a
 * 429 whose body says {@code insufficient_quota} is an exhausted quota (waiting will not help; another provider may).
 */
final class ModelFailureClassifier {

  private static final boolean OPENAI_SDK =
      ClassUtils.isPresent("com.openai.errors.OpenAIServiceException", ModelFailureClassifier.class.getClassLoader());

  /** A classified failure, and whether it is this provider account's exhausted quota. */
  record Failure(Classification classification, boolean quotaExhausted) {
    Fault fault() {
      return classification.fault();
    }
  }

  private final FailureClassifier runtime;

  ModelFailureClassifier(FailureClassifier runtime) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  Failure classify(Throwable failure, Duration latency) {
    Observation.Builder b = Observation.builder().exception(failure).latency(latency);
    if (OPENAI_SDK) {
      OpenAiSdkFailures.describe(failure, b);
    }
    Observation observation = b.build();
    Classification c = runtime.classify(observation);
    String body = observation.body();
    boolean quota = observation.httpStatus() == 429 && body != null && body.toLowerCase(Locale.ROOT).contains("insufficient_quota");
    return new Failure(c, quota || c.rule().contains("quota"));
  }

  /** A response that must not be accepted (the provider's content filter stopped it), or {@code null}. */
  Failure classify(ChatResponse response) {
    for (Generation g : response.getResults()) {
      String finish = g.getMetadata().getFinishReason();
      if (finish != null && finish.toLowerCase(Locale.ROOT).replace('-', '_').equals("content_filter")) {
        Classification c = runtime.classify(Observation.builder().httpStatus(200).finishReason("content_filter").build());
        return new Failure(c.fault() == Fault.T8 ? c : new Classification(Fault.T8, 1.0, null, -1, "spring-ai.finish-reason.content-filter"), false);
      }
    }
    return null;
  }
}
