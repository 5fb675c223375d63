package dev.hfr.processor.internal.validate;

import java.util.Collection;

/**
 * The name a misspelt one most likely meant: the closest by edit distance, if it is close enough to be a typo
 * (at most a third of the name's letters differ). Used for "did you mean" in messages, and so that the method
 * a misspelt {@code reconcile} name meant is not reported a second time as a tool without a risk.
 */
final class NameSuggestions {

  private NameSuggestions() {}

  /** The candidate closest to {@code name}, or {@code null} when none is close. */
  static String closest(String name, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(name.toLowerCase(java.util.Locale.ROOT), candidate.toLowerCase(java.util.Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return best != null && bestDistance > 0 && bestDistance <= Math.max(1, name.length() / 3) ? best : null;
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
