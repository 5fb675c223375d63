package dev.hfr.agent.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Risk;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestRiskTest {

  @ParameterizedTest(name = "{0} with key={1} is {2}, retryable by the agent: {3}")
  @CsvSource({
      "GET, false, R0, true",
      "head, false, R0, true",
      "OPTIONS, false, R0, true",
      "PUT, false, R1, true",
      "PUT, true, R1, true",
      "POST, false, R2, false",
      "POST, true, R1, true",
      "PATCH, false, R2, false",
      "DELETE, false, R1, true",
      "PROPFIND, false, R2, false",
  })
  @DisplayName("the method and an Idempotency-Key decide the risk; reads, PUT, DELETE and keyed writes may be retried, a POST without a key never")
  void riskOfARequest(String method, boolean key, Risk risk, boolean retryable) {
    assertThat(RequestRisk.of(method, key)).isEqualTo(risk);
    assertThat(RequestRisk.retryable(method, key)).isEqualTo(retryable);
  }

  @Test
  @DisplayName("method tags are the standard methods or OTHER")
  void methodTagsAreBounded() {
    assertThat(RequestRisk.methodTag("get")).isEqualTo("GET");
    assertThat(RequestRisk.methodTag("X-CUSTOM")).isEqualTo("OTHER");
    assertThat(RequestRisk.methodTag(null)).isEqualTo("OTHER");
  }
}
