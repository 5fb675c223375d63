package dev.hfr.runtime.ledger.internal;

/** Text in the canonical form: a JSON string with JSON escapes, other control characters as six-character unicode escapes. */
public final class CanonicalText {

  private CanonicalText() {}

  /** {@code s} as a canonical string, quotes included. */
  public static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2);
    append(s, b);
    return b.toString();
  }

  /** Appends {@code s} as a canonical string, quotes included. */
  public static void append(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
