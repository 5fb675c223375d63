package dev.hfr.agent.internal.record;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.runtime.classify.Observation;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The rate-limit headers of a failed response, as the advice read them ({@link HfrBridge#rateLimitHeaders()}, in that
 * order): {@code Retry-After}, {@code retry-after-ms} and OpenAI's {@code x-ratelimit-reset-*} (with their
 * {@code x-ratelimit-remaining-*}) go to the runtime's classifier, which turns them into the classification's wait;
 * Anthropic's {@code anthropic-ratelimit-*-reset}, an RFC 3339 instant the classifier does not read, is read here.
 */
public final class RateLimitHeaders {

  /** The header names, in the order of the values. */
  static final String[] NAMES = HfrBridge.rateLimitHeaders();
  /** Where Anthropic's reset instants start among them. */
  private static final int ANTHROPIC = 6;

  private RateLimitHeaders() {}

  /** Adds the headers that have a value to an observation of the response. */
  static void addTo(Observation.Builder observation, String[] values) {
    if (values == null) {
      return;
    }
    for (int i = 0; i < ANTHROPIC && i < values.length; i++) {
      if (values[i] != null) {
        observation.header(NAMES[i], values[i]);
      }
    }
  }

  /**
   * How long until the latest of Anthropic's rate-limit resets ({@code anthropic-ratelimit-requests-reset},
   * {@code -tokens-reset}, {@code -input-tokens-reset}, {@code -output-tokens-reset}) that lies in the future, in
   * milliseconds; -1 when none does or none is readable.
   */
  public static long anthropicResetMillis(String[] values, long nowEpochMillis) {
    long wait = -1;
    if (values == null) {
      return wait;
    }
    for (int i = ANTHROPIC; i < values.length && i < NAMES.length; i++) {
      if (values[i] != null) {
        try {
          long reset = OffsetDateTime.parse(values[i].trim()).toInstant().toEpochMilli();
          wait = Math.max(wait, reset - nowEpochMillis);
        } catch (DateTimeParseException unreadable) {
          // a value this reader does not understand is no hint
        }
      }
    }
    return wait > 0 ? wait : -1;
  }
}
