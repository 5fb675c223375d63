package dev.hfr.runtime.ledger.internal;

/**
 * Text in the canonical form: a JSON string with JSON escapes, other control characters as six-character
 * unicode escapes, and so are lone surrogates (a high surrogate not followed by a low one, or a low one
 * not preceded by a high one). UTF-8 cannot encode a lone surrogate and Java's encoder replaces it by
 * {@code ?}; escaping it keeps the form lossless, so "a" + U+D800 and {@code "a?"} hash apart.
 */
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
    int plainFrom = 0; // runs of characters that need no escape are copied in bulk
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      out.append(s, plainFrom, i);
      plainFrom = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            escape(c, out);
          } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
            out.append(c).append(s.charAt(++i)); // a well-formed pair
            plainFrom = i + 1;
          } else {
            escape(c, out); // a lone surrogate
          }
        }
      }
    }
    out.append(s, plainFrom, s.length());
    out.append('"');
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private static void escape(char c, StringBuilder out) {
    out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf]).append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
  }

  /** The index of the first lone surrogate in {@code s}, or -1 when every surrogate is half of a pair. */
  public static int loneSurrogate(CharSequence s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
