package dev.hfr.runtime.config;

import java.util.Collection;
import java.util.Locale;

/**
 * "Did you mean" for unknown keys and values: the closest known word by edit distance. Public for the
 * integrations (the Spring starter's property errors use the same rule as {@code hfr.yaml}'s).
 */
public final class Suggestions {

  private Suggestions() {}

  /** The known word closest to {@code word}, or {@code null} when none is close enough to be a typo. */
  public static String closest(String word, Collection<String> known) {
    if (word == null || word.length() > 64) {
      return null; // no key or choice is that long; the edit distance would only cost time
    }
    String w = word.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(w, k.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    int allowed = Math.max(2, w.length() / 3);
    return bestDistance <= allowed && bestDistance > 0 ? best : null;
  }

  /** For a key valid in another section: where it belongs. */
  static String whereElse(String key) {
    if (ConfigReader.RETRY_KEYS.contains(key)) {
      return "hfr.retry (or a tenant's retry)";
    }
    if (ConfigReader.LIMITS_KEYS.contains(key)) {
      return "hfr.limits (or a tenant's limits)";
    }
    if (ConfigReader.BREAKER_KEYS.contains(key)) {
      return "a circuit_breaker section";
    }
    if (ConfigReader.DEGRADATION_KEYS.contains(key)) {
      return "hfr.degradation";
    }
    if (ConfigReader.VERIFICATION_KEYS.contains(key)) {
      return "hfr.verification";
    }
    if (ConfigReader.HFR_KEYS.contains(key)) {
      return "the top of the hfr section";
    }
    return null;
  }

  /** Levenshtein distance, with the usual two-row table. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
