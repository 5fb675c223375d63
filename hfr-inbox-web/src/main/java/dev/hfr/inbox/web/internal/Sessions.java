package dev.hfr.inbox.web.internal;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Signed-in people of the page: a random session id in a same-site, HTTP-only cookie, and a random CSRF token per
 * session that every form carries back — a page on another site can neither read it nor send the cookie.
 */
public final class Sessions {

  public static final String COOKIE = "hfr_inbox_session";

  /** A signed-in person. */
  public record Session(String id, String operator, String csrf, long expiresAtMillis) {}

  private final SecureRandom random = new SecureRandom();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final Duration ttl;

  public Sessions(Duration ttl) {
    this.ttl = ttl;
  }

  public Session open(String operator) {
    Session s = new Session(secret(), operator, secret(), System.currentTimeMillis() + ttl.toMillis());
    sessions.put(s.id(), s);
    return s;
  }

  /** The live session of a request's {@code Cookie} header, or {@code null}. */
  public Session of(String cookieHeader) {
    if (cookieHeader == null) {
      return null;
    }
    for (String part : cookieHeader.split(";")) {
      String p = part.trim();
      if (p.startsWith(COOKIE + "=")) {
        Session s = sessions.get(p.substring(COOKIE.length() + 1));
        if (s != null && s.expiresAtMillis() > System.currentTimeMillis()) {
          return s;
        }
        if (s != null) {
          sessions.remove(s.id());
        }
      }
    }
    return null;
  }

  public void close(Session s) {
    sessions.remove(s.id());
  }

  public long ttlSeconds() {
    return ttl.toSeconds();
  }

  private String secret() {
    byte[] b = new byte[24];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }
}
