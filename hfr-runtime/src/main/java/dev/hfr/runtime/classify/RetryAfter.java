package dev.hfr.runtime.classify;

import java.time.DateTimeException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * Reads a server's "retry no sooner than" hint: the {@code Retry-After} header of RFC 9110 §10.2.3
 * (delta-seconds or an HTTP-date) and the {@code retry-after-ms} header OpenAI and Azure OpenAI send.
 * Every method answers milliseconds from now, or -1 when there is no usable hint; none throws.
 */
public final class RetryAfter {

  /** A hint longer than this (one day) is clamped: a longer wait is a quota, not a retry. */
  public static final long MAX_MILLIS = 86_400_000L;

  // RFC 850 dates ("Sunday, 06-Nov-94 08:49:37 GMT"): obsolete but still to be accepted (RFC 9110 §5.6.7)
  private static final DateTimeFormatter RFC_850 = new DateTimeFormatterBuilder()
      .parseCaseInsensitive()
      .appendPattern("EEEE, dd-MMM-")
      .appendValueReduced(ChronoField.YEAR, 2, 2, 1970)
      .appendPattern(" HH:mm:ss zzz")
      .toFormatter(Locale.US);
  // asctime dates ("Sun Nov  6 08:49:37 1994"), always GMT
  private static final DateTimeFormatter ASCTIME = new DateTimeFormatterBuilder()
      .parseCaseInsensitive()
      .appendPattern("EEE MMM")
      .appendLiteral(' ')
      .optionalStart().appendLiteral(' ').optionalEnd()
      .appendPattern("d HH:mm:ss yyyy")
      .toFormatter(Locale.US)
      .withZone(java.time.ZoneOffset.UTC);

  private RetryAfter() {}

  /**
   * Parses a {@code Retry-After} value.
   *
   * @param value delta-seconds ({@code "120"}, fractions tolerated) or an HTTP-date
   *     ({@code "Wed, 21 Oct 2015 07:28:00 GMT"}, also the obsolete RFC 850 and asctime forms)
   * @param nowEpochMillis the current wall-clock time, for dates
   * @return milliseconds to wait (0 for a date in the past, at most {@link #MAX_MILLIS}), or -1 when
   *     {@code value} is missing or unreadable
   */
  public static long parse(String value, long nowEpochMillis) {
    if (value == null) {
      return -1;
    }
    String v = value.trim();
    if (v.isEmpty()) {
      return -1;
    }
    char first = v.charAt(0);
    if (first >= '0' && first <= '9' || first == '.') {
      return secondsToMillis(v);
    }
    return dateToMillis(v, nowEpochMillis);
  }

  /**
   * Parses a {@code retry-after-ms} value (a non-negative number of milliseconds, fractions allowed).
   *
   * @return the milliseconds (at most {@link #MAX_MILLIS}), or -1 when missing or unreadable
   */
  public static long parseMillis(String value) {
    if (value == null) {
      return -1;
    }
    double ms = parseNonNegativeDecimal(value.trim());
    if (ms < 0) {
      return -1;
    }
    return (long) Math.min(Math.ceil(ms), MAX_MILLIS);
  }

  /**
   * The hint in an observation's headers: {@code retry-after-ms} when present and readable (it is the
   * more precise one), else {@code retry-after}, else OpenAI's rate-limit reset headers
   * ({@link #fromRateLimitReset}).
   *
   * @return milliseconds to wait, or -1 when there is no usable hint
   */
  public static long fromHeaders(Observation observation, long nowEpochMillis) {
    if (observation == null) {
      return -1;
    }
    long ms = parseMillis(observation.headers().get("retry-after-ms"));
    if (ms >= 0) {
      return ms;
    }
    long ra = parse(observation.headers().get("retry-after"), nowEpochMillis);
    return ra >= 0 ? ra : fromRateLimitReset(observation.headers());
  }

  /**
   * OpenAI's rate-limit reset headers, for a 429 without Retry-After: {@code x-ratelimit-reset-requests}
   * when {@code x-ratelimit-remaining-requests} is 0, {@code x-ratelimit-reset-tokens} when
   * {@code x-ratelimit-remaining-tokens} is 0 (durations such as {@code 1s}, {@code 6m0s}, {@code 20ms});
   * the longer when both are exhausted.
   *
   * @param headers response headers with lower-case names
   * @return milliseconds to wait, or -1 when the headers say nothing usable
   */
  public static long fromRateLimitReset(java.util.Map<String, String> headers) {
    if (headers == null || headers.isEmpty()) {
      return -1;
    }
    long wait = -1;
    if ("0".equals(headers.get("x-ratelimit-remaining-requests"))) {
      wait = Math.max(wait, parseDuration(headers.get("x-ratelimit-reset-requests")));
    }
    if ("0".equals(headers.get("x-ratelimit-remaining-tokens"))) {
      wait = Math.max(wait, parseDuration(headers.get("x-ratelimit-reset-tokens")));
    }
    return wait;
  }

  /**
   * A Go-style duration ({@code 1h2m3.5s}, {@code 6m0s}, {@code 20ms}, {@code 500us}) in milliseconds,
   * rounded up; -1 when unreadable.
   */
  public static long parseDuration(String value) {
    if (value == null) {
      return -1;
    }
    String v = value.trim();
    int n = v.length();
    if (n == 0 || n > 40) {
      return -1;
    }
    double totalMillis = 0;
    int i = 0;
    while (i < n) {
      int start = i;
      while (i < n && (Character.isDigit(v.charAt(i)) || v.charAt(i) == '.')) {
        i++;
      }
      if (i == start) {
        return -1;
      }
      double number = parseNonNegativeDecimal(v.substring(start, i));
      if (number < 0) {
        return -1;
      }
      double unit;
      if (v.startsWith("ms", i)) {
        unit = 1;
        i += 2;
      } else if (v.startsWith("us", i) || v.startsWith("\u00b5s", i)) {
        unit = 0.001;
        i += 2;
      } else if (v.startsWith("ns", i)) {
        unit = 0.000001;
        i += 2;
      } else if (i < n && v.charAt(i) == 'h') {
        unit = 3_600_000;
        i++;
      } else if (i < n && v.charAt(i) == 'm') {
        unit = 60_000;
        i++;
      } else if (i < n && v.charAt(i) == 's') {
        unit = 1000;
        i++;
      } else {
        return -1;
      }
      totalMillis += number * unit;
    }
    return (long) Math.min(Math.ceil(totalMillis), MAX_MILLIS);
  }

  private static long secondsToMillis(String v) {
    double seconds = parseNonNegativeDecimal(v);
    if (seconds < 0) {
      return -1;
    }
    return (long) Math.min(Math.ceil(seconds * 1000.0), MAX_MILLIS);
  }

  /** A non-negative decimal without sign or exponent, or -1; hand-rolled to stay allocation-free. */
  private static double parseNonNegativeDecimal(String v) {
    int n = v.length();
    if (n == 0 || n > 24) {
      return -1;
    }
    double result = 0;
    double scale = 0;
    boolean digits = false;
    for (int i = 0; i < n; i++) {
      char c = v.charAt(i);
      if (c >= '0' && c <= '9') {
        digits = true;
        if (scale == 0) {
          result = result * 10 + (c - '0');
        } else {
          result += (c - '0') * scale;
          scale /= 10;
        }
      } else if (c == '.' && scale == 0) {
        scale = 0.1;
      } else {
        return -1;
      }
    }
    return digits ? result : -1;
  }

  private static long dateToMillis(String v, long nowEpochMillis) {
    long at = parseHttpDate(v);
    if (at == Long.MIN_VALUE) {
      return -1;
    }
    return Math.min(Math.max(0, at - nowEpochMillis), MAX_MILLIS);
  }

  private static long parseHttpDate(String v) {
    DateTimeFormatter[] formats = {DateTimeFormatter.RFC_1123_DATE_TIME, RFC_850, ASCTIME};
    for (DateTimeFormatter f : formats) {
      try {
        return ZonedDateTime.parse(v, f).toInstant().toEpochMilli();
      } catch (DateTimeException e) {
        // not this form; try the next one
      }
    }
    return Long.MIN_VALUE;
  }
}
