package dev.hfr.inbox.web.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;

/** Who may answer: operator names and their tokens, compared in constant time. */
public final class Operators {

  private final Map<String, String> tokens;

  public Operators(Map<String, String> tokens) {
    this.tokens = Map.copyOf(tokens);
  }

  /** The operator whose token {@code token} is, if any. */
  public Optional<String> who(String token) {
    if (token == null) {
      return Optional.empty();
    }
    byte[] given = token.getBytes(StandardCharsets.UTF_8);
    String found = null;
    for (Map.Entry<String, String> e : tokens.entrySet()) {
      if (MessageDigest.isEqual(given, e.getValue().getBytes(StandardCharsets.UTF_8))) {
        found = e.getKey();
      }
    }
    return Optional.ofNullable(found);
  }

  /** The operator a request's {@code Authorization: Bearer} header names, if any. */
  public Optional<String> fromBearer(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    return who(authorization.substring(7).trim());
  }
}
