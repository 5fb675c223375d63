package dev.hfr.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Answers that arrived are checked for finish reasons, verifier rejections and empty bodies")
class ResultSignalsTest {

  private final DefaultFailureClassifier classifier = new DefaultFailureClassifier();

  @Test
  void contentFilterAndRefusalFinishReasonsAreT8() {
    assertThat(classifier.classify(Observation.builder().httpStatus(200).finishReason("content_filter").build()).fault())
        .isEqualTo(Fault.T8);
    assertThat(classifier.classify(Observation.builder().finishReason("REFUSAL").build()).fault()).isEqualTo(Fault.T8);
    assertThat(classifier.classify(Observation.builder().finishReason("SAFETY").build()).fault()).isEqualTo(Fault.T8);
  }

  @Test
  void lengthFinishIsALowConfidenceContextSignal() {
    Classification c = classifier.classify(Observation.builder().httpStatus(200).finishReason("length").build());
    assertThat(c.fault()).isEqualTo(Fault.T6);
    assertThat(c.confidence()).isLessThanOrEqualTo(0.5);
  }

  @Test
  void normalFinishReasonsAreSuccess() {
    assertThat(classifier.classify(Observation.builder().httpStatus(200).finishReason("stop").body("{}").build())
        .isSuccess()).isTrue();
  }

  @Test
  void verifierRejectionIsV1() {
    Classification c = classifier.classify(Observation.builder().httpStatus(200).body("{\"total\":3}")
        .verifierRejection("total does not match line items").build());
    assertThat(c.fault()).isEqualTo(Fault.V1);
    assertThat(c.rule()).isEqualTo("verifier.rejected");
  }

  @Test
  @DisplayName("a 200 with an empty body where one was expected is a suspected swallowed timeout, low confidence")
  void emptyBodyWhereOneWasExpected() {
    Classification fast = classifier.classify(Observation.builder().httpStatus(200).body("").bodyExpected(true).build());
    assertThat(fast.fault()).isEqualTo(Fault.T3);
    assertThat(fast.confidence()).isLessThan(0.5);
    Classification slow = classifier.classify(Observation.builder().httpStatus(200).body("  ").bodyExpected(true)
        .latency(Duration.ofSeconds(30)).build());
    assertThat(slow.rule()).isEqualTo("http.2xx.empty-body.slow");
    assertThat(slow.confidence()).isGreaterThan(fast.confidence());
    assertThat(classifier.classify(Observation.builder().httpStatus(204).build()).isSuccess()).isTrue();
  }

  @Test
  @DisplayName("prose about content policy inside a good answer is not a refusal; \"refusal\": null is not either")
  void successBodiesAreNotMisreadAsRefusals() {
    String openAiSuccess = "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
        + "\"content\":\"Our content policy says refusal is rare.\",\"refusal\": null},\"finish_reason\":\"stop\"}]}";
    assertThat(classifier.classify(Observation.builder().httpStatus(200).body(openAiSuccess).build()).isSuccess()).isTrue();
    String refused = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
        + "\"refusal\":\"I can't help with that.\"},\"finish_reason\":\"stop\"}]}";
    assertThat(classifier.classify(Observation.builder().httpStatus(200).body(refused).build()).fault()).isEqualTo(Fault.T8);
  }

  @Test
  @DisplayName("a tool that threw for a 200 carrying an error object is classified by that object")
  void exceptionOverA200ErrorBody() {
    HttpCallException e = new HttpCallException(200, java.util.Map.of(),
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}");
    assertThat(classifier.classify(Observation.of(e)).fault()).isEqualTo(Fault.T4);
  }

  @Test
  void classifierErrorsAreAMeter() {
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    classifier.bindTo(registry);
    classifier.classify(Observation.of(new RuntimeException() {
      private static final long serialVersionUID = 1L;

      @Override
      public String getMessage() {
        throw new IllegalStateException("hostile");
      }
    }));
    assertThat(registry.get(DefaultFailureClassifier.ERRORS_METER).functionCounter().count()).isEqualTo(1.0);
  }

  @Test
  void anObservationWithoutAnySignalIsUnclassifiedNotSuccess() {
    Classification c = classifier.classify(Observation.builder().build());
    assertThat(c.fault()).isEqualTo(Fault.UNCLASSIFIED);
    assertThat(c.rule()).isEqualTo("observation.no-signal");
  }

  @Test
  void invalidStatusesAreUnclassified() {
    assertThat(classifier.classify(Observation.builder().httpStatus(-3).build()).rule()).isEqualTo("http.invalid-status");
    assertThat(classifier.classify(Observation.builder().httpStatus(999).build()).rule()).isEqualTo("http.invalid-status");
    assertThat(classifier.classify(Observation.builder().httpStatus(302).build()).rule()).isEqualTo("http.unexpected-status");
  }
}
