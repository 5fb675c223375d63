package dev.hfr.bench.live.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The live verifiers err at the paper's rates")
class VerifierNoiseTest {

  private static final VerifierNoise PAPER = new VerifierNoise(7, 0.90, 0.98, 0.02);

  private static double rejected(boolean wrong, boolean semantic) {
    int n = 20_000;
    int rejected = 0;
    for (int i = 0; i < n; i++) {
      rejected += PAPER.rejects("msg_p" + i, wrong, semantic) ? 1 : 0;
    }
    return (double) rejected / n;
  }

  @Test
  void catchesWrongAnswersAtTheDetectionRatesAndRejectsRightOnesAtTheFalseAlarmRate() {
    assertThat(rejected(true, true)).isCloseTo(0.90, offset(0.01));
    assertThat(rejected(true, false)).isCloseTo(0.98, offset(0.005));
    assertThat(rejected(false, true)).isCloseTo(0.02, offset(0.005));
  }

  @Test
  void theSameAnswerGetsTheSameVerdictAndThePerfectVerifierNeverErrs() {
    assertThat(PAPER.rejects("msg_p42", true, true)).isEqualTo(PAPER.rejects("msg_p42", true, true));
    for (int i = 0; i < 1000; i++) {
      assertThat(VerifierNoise.PERFECT.rejects("id" + i, true, true)).isTrue();
      assertThat(VerifierNoise.PERFECT.rejects("id" + i, false, false)).isFalse();
    }
  }

  @Test
  void theCompletionVerifierUsesTheNoiseInUse() {
    Completion wrong = new Completion("msg_p1", "m", "text", "other", "digest");
    try {
      VerifierNoise.use(new VerifierNoise(1, 0, 0, 0));
      assertThat(new CompletionVerifier().verify(wrong).accepted()).as("a verifier that never detects").isTrue();
      VerifierNoise.use(VerifierNoise.PERFECT);
      assertThat(new CompletionVerifier().verify(wrong).accepted()).isFalse();
    } finally {
      VerifierNoise.use(VerifierNoise.PERFECT);
    }
  }
}
