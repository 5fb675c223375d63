package dev.hfr.inbox.web.internal;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The little HTTP both handlers need: forms and queries, answers with the page's security headers, HTML escaping. */
final class Http {

  /** The most a form or API body may hold: an answer is a few hundred characters. */
  private static final int MAX_BODY = 64 * 1024;

  private Http() {}

  static Map<String, String> query(HttpExchange ex) {
    return decode(ex.getRequestURI().getRawQuery());
  }

  static String body(HttpExchange ex) throws IOException {
    byte[] bytes = ex.getRequestBody().readNBytes(MAX_BODY + 1);
    if (bytes.length > MAX_BODY) {
      throw new IOException("request body over " + MAX_BODY + " bytes");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static Map<String, String> decode(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    var h = ex.getResponseHeaders();
    h.set("Content-Type", contentType);
    h.set("Cache-Control", "no-store");
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Referrer-Policy", "same-origin");
    h.set("X-Frame-Options", "DENY");
    // no script at all; forms post only here; no framing (clickjacking)
    h.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  static void redirect(HttpExchange ex, String location) throws IOException {
    ex.getResponseHeaders().set("Location", location);
    send(ex, 303, "text/plain; charset=utf-8", "");
  }

  static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  static String encode(String s) {
    return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
