package dev.hfr.runtime.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.ToolDescriptor;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Result verification")
class ResultVerificationTest {

  private final ResultVerification none = new ResultVerification(Map.of());

  private static ToolDescriptor.Builder tool() {
    return ToolDescriptor.builder("com.acme.Orders", "total", Risk.R0).parameters("id").resultType(Integer.class);
  }

  @Test
  @DisplayName("V0 rejects null and values of the wrong type, and lets void methods return null")
  void transport() {
    assertThat(none.verify(tool().build(), VerifyLevel.V0, null).verdict().reason()).isEqualTo("null_result");
    ResultVerification.Result wrong = none.verify(tool().build(), VerifyLevel.V0, "12");
    assertThat(wrong.accepted()).isFalse();
    assertThat(wrong.verdict().evidence()).containsEntry("actual", "java.lang.String");
    ToolDescriptor primitive = ToolDescriptor.builder("com.acme.Orders", "count", Risk.R0).resultType(int.class).build();
    assertThat(none.verify(primitive, VerifyLevel.V0, 3).accepted()).isTrue();
    ToolDescriptor voidTool = ToolDescriptor.builder("com.acme.Orders", "touch", Risk.R0).resultType(void.class).build();
    assertThat(none.verify(voidTool, VerifyLevel.V0, null).accepted()).isTrue();
  }

  @Test
  @DisplayName("V1 runs the method's verifier and keeps its reason and evidence")
  void ownVerifier() {
    ToolDescriptor d = tool().verify(VerifyLevel.V1, (Integer total) -> total > 0 ? Verdict.accept(0.9)
        : Verdict.reject("total_not_positive", Map.of("total", String.valueOf(total)))).build();
    ResultVerification.Result bad = none.verify(d, VerifyLevel.V1, -3);
    assertThat(bad.rejectedAt()).isEqualTo(VerifyLevel.V1);
    assertThat(bad.verdict().reason()).isEqualTo("total_not_positive");
    assertThat(bad.verdict().evidence()).containsEntry("total", "-3");
    assertThat(none.verify(d, VerifyLevel.V1, 5).verdict().quality()).isEqualTo(0.9);
  }

  @Test
  @DisplayName("a verifier that throws rejects rather than accepts")
  void throwingVerifierRejects() {
    ToolDescriptor d = tool().verify(VerifyLevel.V1, (Integer total) -> {
      throw new IllegalStateException("bug");
    }).build();
    assertThat(none.verify(d, VerifyLevel.V1, 5).verdict().reason()).isEqualTo("verifier_error");
  }

  @Test
  @DisplayName("V2 and V3 run their hooks, and say verification is owed when no hook is registered")
  void hooks() {
    ResultVerification withJudge = new ResultVerification(Map.of(VerifyLevel.V2,
        (tool, result) -> ((Integer) result) < 100 ? Verdict.accept(0.95) : Verdict.reject("implausible_total")));
    assertThat(withJudge.verify(tool().build(), VerifyLevel.V2, 500).rejectedAt()).isEqualTo(VerifyLevel.V2);
    assertThat(withJudge.verify(tool().build(), VerifyLevel.V2, 5).verificationRequired()).isFalse();
    ResultVerification.Result v3 = withJudge.verify(tool().build(), VerifyLevel.V3, 5);
    assertThat(v3.accepted()).isTrue();
    assertThat(v3.verificationRequired()).isTrue();
    assertThat(none.verify(tool().build(), VerifyLevel.V2, 5).verificationRequired()).isTrue();
  }
}
