package dev.hfr.runtime.classify.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The one-pass phrase scanner finds every phrase, in any case, at any position")
class TextSignalsTest {

  private static final int[] CATEGORIES = {TextSignals.CONTENT, TextSignals.QUOTA, TextSignals.AUTH, TextSignals.CONTEXT,
      TextSignals.TOOL, TextSignals.TIMEOUT, TextSignals.RESET, TextSignals.OVERLOADED, TextSignals.RATE,
      TextSignals.REFUSED, TextSignals.SERVER, TextSignals.INVALID};

  @Test
  @DisplayName("every phrase is found at every offset, across the boundaries of the parallel streams")
  void everyPhraseAtEveryOffset() {
    for (int length : new int[] {40, 97, 300}) {
      for (int category : CATEGORIES) {
        for (String phrase : TextSignals.phrases(category)) {
          for (int offset = 0; offset + phrase.length() <= length; offset++) {
            String text = "x".repeat(offset) + phrase + "x".repeat(length - offset - phrase.length());
            assertThat(TextSignals.categories(text) & category).as("%s at %d of %d", phrase, offset, length)
                .isEqualTo(category);
          }
        }
      }
    }
  }

  @Test
  void caseIsIgnoredAndNonAsciiDoesNotConfuse() {
    assertThat(TextSignals.categories("The Engine Is Currently OVERLOADED")).isEqualTo(TextSignals.OVERLOADED);
    assertThat(TextSignals.categories("organization\u2019s Rate Limit \uD83D\uDE00")).isEqualTo(TextSignals.RATE);
    assertThat(TextSignals.categories("PROMPT IS TOO LONG: 215000 tokens")).isEqualTo(TextSignals.CONTEXT);
    assertThat(TextSignals.categories("overl\u00f6aded")).isZero();
  }

  @Test
  void onlyTheFirstFourKilobytesAreRead() {
    String text = "x".repeat(TextSignals.SCAN_LIMIT) + "overloaded";
    assertThat(TextSignals.categories(text)).isZero();
    assertThat(TextSignals.categories(null)).isZero();
    assertThat(TextSignals.categories("")).isZero();
  }

  @Test
  @DisplayName("a phrase that is a JSON type/code value is marked as the provider's own code")
  void jsonCodeValuesAreMarked() {
    long coded = TextSignals.scanPacked("{\"error\":{\"code\": \"insufficient_quota\"}}");
    assertThat((int) (coded >>> 32) & TextSignals.QUOTA).isEqualTo(TextSignals.QUOTA);
    long prose = TextSignals.scanPacked("{\"message\":\"insufficient_quota happened\"}");
    assertThat((int) prose & TextSignals.QUOTA).isEqualTo(TextSignals.QUOTA);
    assertThat((int) (prose >>> 32)).isZero();
  }

  @Test
  void aNullRefusalIsNotARefusal() {
    assertThat(TextSignals.categories("{\"refusal\": null}")).isZero();
    assertThat(TextSignals.categories("{\"refusal\":null}")).isZero();
    assertThat((int) (TextSignals.scanPacked("{\"refusal\": \"I can't\"}") >>> 32)).isEqualTo(TextSignals.CONTENT);
    assertThat(TextSignals.categories("{\"stop_reason\":\"refusal\"}")).isEqualTo(TextSignals.CONTENT);
  }

  @Test
  void theAutomatonStaysSmall() {
    assertThat(TextSignals.stateCount()).isLessThan(2048);
  }
}
