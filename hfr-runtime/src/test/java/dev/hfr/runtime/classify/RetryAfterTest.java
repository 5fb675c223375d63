package dev.hfr.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Retry-After is read in every form a server sends it, relative to the injected now")
class RetryAfterTest {

  private static final long NOW = Instant.parse("2015-10-21T07:27:00Z").toEpochMilli();

  @Test
  void deltaSecondsAreMilliseconds() {
    assertThat(RetryAfter.parse("120", NOW)).isEqualTo(120_000);
    assertThat(RetryAfter.parse(" 0 ", NOW)).isZero();
    assertThat(RetryAfter.parse("1.5", NOW)).isEqualTo(1_500);
  }

  @Test
  void imfFixdateIsRelativeToNow() {
    assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", NOW)).isEqualTo(60_000);
  }

  @Test
  void obsoleteDateFormsAreAccepted() {
    assertThat(RetryAfter.parse("Wednesday, 21-Oct-15 07:28:00 GMT", NOW)).isEqualTo(60_000);
    assertThat(RetryAfter.parse("Wed Oct 21 07:28:00 2015", NOW)).isEqualTo(60_000);
  }

  @Test
  void aDateInThePastMeansNoWait() {
    assertThat(RetryAfter.parse("Wed, 21 Oct 2015 07:00:00 GMT", NOW)).isZero();
  }

  @Test
  void garbageNegativeAndMissingValuesGiveMinusOne() {
    assertThat(RetryAfter.parse(null, NOW)).isEqualTo(-1);
    assertThat(RetryAfter.parse("", NOW)).isEqualTo(-1);
    assertThat(RetryAfter.parse("-5", NOW)).isEqualTo(-1);
    assertThat(RetryAfter.parse("soon", NOW)).isEqualTo(-1);
    assertThat(RetryAfter.parse("12abc", NOW)).isEqualTo(-1);
    assertThat(RetryAfter.parse("1e9", NOW)).isEqualTo(-1);
    assertThat(RetryAfter.parseMillis("x")).isEqualTo(-1);
  }

  @Test
  void hugeValuesAreClampedToOneDay() {
    assertThat(RetryAfter.parse("99999999999999999999", NOW)).isEqualTo(RetryAfter.MAX_MILLIS);
    assertThat(RetryAfter.parse("Fri, 01 Jan 2100 00:00:00 GMT", NOW)).isEqualTo(RetryAfter.MAX_MILLIS);
  }

  @Test
  void retryAfterMsIsPreferredOverRetryAfter() {
    Observation o = Observation.builder().header("Retry-After", "6").header("retry-after-ms", "5500.5").build();
    assertThat(RetryAfter.fromHeaders(o, NOW)).isEqualTo(5501);
  }

  @Test
  void anUnreadableRetryAfterMsFallsBackToRetryAfter() {
    Observation o = Observation.builder().header("Retry-After", "6").header("retry-after-ms", "n/a").build();
    assertThat(RetryAfter.fromHeaders(o, NOW)).isEqualTo(6000);
  }

  @Test
  @DisplayName("a 429 carries the hint of a date header measured on the classifier's clock")
  void classifierUsesItsClockForDates() {
    VirtualTime time = new VirtualTime();
    long now = time.epochMillis();
    String in90s = java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.format(
        Instant.ofEpochMilli(now + 90_000).atZone(java.time.ZoneOffset.UTC));
    Classification c = new DefaultFailureClassifier(time)
        .classify(Observation.builder().httpStatus(429).header("Retry-After", in90s).build());
    assertThat(c.fault()).isEqualTo(Fault.T2);
    assertThat(c.retryAfterMillis()).isBetween(89_000L, 90_000L);

    time.advance(TimeUnit.SECONDS.toNanos(60));
    Classification later = new DefaultFailureClassifier(time)
        .classify(Observation.builder().httpStatus(429).header("Retry-After", in90s).build());
    assertThat(later.retryAfterMillis()).isBetween(29_000L, 30_000L);
  }

  @Test
  void goDurationsOfTheRateLimitResetHeaders() {
    assertThat(RetryAfter.parseDuration("1s")).isEqualTo(1000);
    assertThat(RetryAfter.parseDuration("6m0s")).isEqualTo(360_000);
    assertThat(RetryAfter.parseDuration("20ms")).isEqualTo(20);
    assertThat(RetryAfter.parseDuration("1h2m3.5s")).isEqualTo(3_723_500);
    assertThat(RetryAfter.parseDuration("500us")).isEqualTo(1);
    assertThat(RetryAfter.parseDuration("soon")).isEqualTo(-1);
    assertThat(RetryAfter.parseDuration("5")).isEqualTo(-1);
    assertThat(RetryAfter.parseDuration("")).isEqualTo(-1);
  }

  @Test
  @DisplayName("an OpenAI 429 without Retry-After waits for the exhausted limit's reset")
  void openAiResetHeadersWhenNoRetryAfter() {
    Observation tokensExhausted = Observation.builder().httpStatus(429)
        .header("x-ratelimit-remaining-requests", "12").header("x-ratelimit-reset-requests", "120ms")
        .header("x-ratelimit-remaining-tokens", "0").header("x-ratelimit-reset-tokens", "6m0s").build();
    assertThat(RetryAfter.fromHeaders(tokensExhausted, NOW)).isEqualTo(360_000);
    Classification c = new DefaultFailureClassifier(new VirtualTime()).classify(tokensExhausted);
    assertThat(c.fault()).isEqualTo(Fault.T2);
    assertThat(c.retryAfterMillis()).isEqualTo(360_000);
    Observation nothingExhausted = Observation.builder().httpStatus(429)
        .header("x-ratelimit-remaining-requests", "3").header("x-ratelimit-reset-requests", "1s").build();
    assertThat(RetryAfter.fromHeaders(nothingExhausted, NOW)).isEqualTo(-1);
  }

  @Test
  void a429WithoutHintHasNoRetryAfter() {
    Classification c = new DefaultFailureClassifier(new VirtualTime()).classify(Observation.builder().httpStatus(429).build());
    assertThat(c.retryAfterMillis()).isEqualTo(-1);
    assertThat(c.rule()).isEqualTo("http.429");
  }

  @Test
  void an529AndA503KeepTheirRetryAfter() {
    DefaultFailureClassifier classifier = new DefaultFailureClassifier(new VirtualTime());
    assertThat(classifier.classify(Observation.builder().httpStatus(529).header("retry-after", "4").build())
        .retryAfterMillis()).isEqualTo(4000);
    assertThat(classifier.classify(Observation.builder().httpStatus(503).header("retry-after-ms", "250").build())
        .retryAfterMillis()).isEqualTo(250);
  }
}
