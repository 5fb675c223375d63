package dev.hfr.agent.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The events file's lines are what Jackson's databind writes for the record, which they were before. */
class HttpDecisionEventJsonTest {

  private static final ObjectWriter JACKSON = JsonMapper.builder()
      .serializationInclusion(JsonInclude.Include.NON_NULL)
      .build()
      .writerFor(HttpDecisionEvent.class);

  @Test
  @DisplayName("a failure with every field set is written as Jackson writes it")
  void failureWithEveryField() throws Exception {
    assertSameAsJackson(new HttpDecisionEvent(1_764_600_000_123L, "enforce", "okhttp", "api.example.com", "POST", "R2", 2, 503,
        "T1", 0.9, "http.5xx", "java.net.SocketTimeoutException", "RETRY", true, 187, 2000, 12.345678));
  }

  @Test
  @DisplayName("a success leaves out fault, rule, exception and action, as NON_NULL inclusion does")
  void successLeavesOutNulls() throws Exception {
    assertSameAsJackson(new HttpDecisionEvent(1L, "shadow", "jdk-httpclient", "localhost", "GET", "R0", 1, 200,
        null, 1.0, null, null, null, false, 0, -1, 0.5));
  }

  @Test
  @DisplayName("strings are escaped as Jackson escapes them: quotes, backslashes, control characters; other characters stay")
  void escapesLikeJackson() throws Exception {
    assertSameAsJackson(new HttpDecisionEvent(0, "sh\"adow", "c\\lient", "h\b\t\n\f\r", "M\u0001\u001f\u007f", "é€😀", 0, 0,
        "\u0000", 0, "rule \"quoted\"", "a\\b", "", false, Long.MIN_VALUE, Long.MAX_VALUE, 0));
  }

  @Test
  @DisplayName("doubles are written as Jackson writes them: small, large, whole, negative, not finite")
  void doublesLikeJackson() throws Exception {
    for (double d : List.of(0.0, -0.0, 1e-7, 0.001, 0.1 + 0.2, 123456789.0, 1e7, 1e21, -3.5, Double.MIN_VALUE, Double.MAX_VALUE,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)) {
      assertSameAsJackson(new HttpDecisionEvent(5, "shadow", "okhttp", "h", "GET", "R1", 1, 429, "T2", d, "http.429", null, "RETRY",
          false, 0, 1000, d));
    }
  }

  private static void assertSameAsJackson(HttpDecisionEvent event) throws Exception {
    assertThat(HttpDecisionEventJson.write(event)).isEqualTo(JACKSON.writeValueAsString(event));
  }
}
