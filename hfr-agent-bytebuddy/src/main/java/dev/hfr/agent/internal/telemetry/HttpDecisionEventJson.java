package dev.hfr.agent.internal.telemetry;

/**
 * One {@link HttpDecisionEvent} as one line of JSON: the fields in declaration order, {@code null} fields
 * left out, numbers as {@code Long.toString}/{@code Double.toString} write them — what Jackson's databind
 * writes for the record with {@code NON_NULL} inclusion, character for character
 * ({@code HttpDecisionEventJsonTest} holds the two side by side).
 *
 * <p>Written by hand rather than with Jackson so that the agent jar need not carry Jackson's 1,100 classes:
 * every JVM the agent is in indexes the whole jar before premain, and only a JVM started with
 * {@code events=} would use them (docs/BENCHMARKS.md, "Java agent overhead"). An event is 17 flat fields.
 *
 * <p>Strings are escaped as Jackson escapes them: a quote and a backslash by a backslash, backspace, tab,
 * newline, form feed and carriage return by a backslash and a letter, the other control characters by a
 * backslash, {@code u} and four hex digits; everything else is left to the file's UTF-8 writer. A number
 * that is not finite is written as a string ({@code "NaN"}), as Jackson writes it by default.
 */
final class HttpDecisionEventJson {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private HttpDecisionEventJson() {}

  /** The event as one JSON object, without a line break. */
  static String write(HttpDecisionEvent e) {
    StringBuilder json = new StringBuilder(320);
    json.append("{\"epochMillis\":").append(e.epochMillis());
    text(json, "mode", e.mode());
    text(json, "client", e.client());
    text(json, "host", e.host());
    text(json, "method", e.method());
    text(json, "risk", e.risk());
    json.append(",\"attempt\":").append(e.attempt());
    json.append(",\"status\":").append(e.status());
    text(json, "fault", e.fault());
    number(json, "confidence", e.confidence());
    text(json, "rule", e.rule());
    text(json, "exception", e.exception());
    text(json, "action", e.action());
    json.append(",\"enforced\":").append(e.enforced());
    json.append(",\"delayMillis\":").append(e.delayMillis());
    json.append(",\"retryAfterMillis\":").append(e.retryAfterMillis());
    number(json, "latencyMillis", e.latencyMillis());
    return json.append('}').toString();
  }

  private static void number(StringBuilder json, String name, double value) {
    json.append(",\"").append(name).append("\":");
    if (Double.isFinite(value)) {
      json.append(value);
    } else {
      json.append('"').append(value).append('"');
    }
  }

  /** {@code ,"name":"value"}, or nothing for a {@code null} value. */
  private static void text(StringBuilder json, String name, String value) {
    if (value == null) {
      return;
    }
    json.append(",\"").append(name).append("\":\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\b' -> json.append("\\b");
        case '\t' -> json.append("\\t");
        case '\n' -> json.append("\\n");
        case '\f' -> json.append("\\f");
        case '\r' -> json.append("\\r");
        default -> {
          if (c < 0x20) {
            json.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }
}
