package dev.hfr.runtime.classify.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One pass over a body or message that finds every known provider phrase at once, case-insensitively,
 * without lower-casing or copying the text: an Aho-Corasick automaton compiled to a table, with ASCII
 * letters folded in the table itself. Cost is one table lookup per char, whatever the number of phrases.
 *
 * <p>The answer is a bit set of {@linkplain #CONTENT categories}; a second bit set marks the categories
 * seen as a JSON {@code "type"}, {@code "code"}, {@code "status"} or {@code "*_reason"} value (a provider's
 * machine-readable code, more reliable than prose in a message). Both are packed into one {@code long}
 * so that scanning allocates nothing.
 */
public final class TextSignals {

  /** Safety or policy refusal: content_filter, content policy, refusal... (T8). */
  public static final int CONTENT = 1;
  /** Permanent quota or billing limit: insufficient_quota, spend limit... (T7, not T2). */
  public static final int QUOTA = 1 << 1;
  /** Authentication or permission: invalid_api_key, permission_error... (T7). */
  public static final int AUTH = 1 << 2;
  /** Context overflow: context_length_exceeded, "prompt is too long"... (T6). */
  public static final int CONTEXT = 1 << 3;
  /** Tool or contract mismatch: unknown tool, schema mismatch, missing field... (T5). */
  public static final int TOOL = 1 << 4;
  /** Timeout: timed out, deadline exceeded (T3). */
  public static final int TIMEOUT = 1 << 5;
  /** Connection lost after the request may have been sent: reset, broken pipe, EOF, closed (T3). */
  public static final int RESET = 1 << 6;
  /** Model overloaded: overloaded_error, "at capacity" (T4). */
  public static final int OVERLOADED = 1 << 7;
  /** Rate limited: rate_limit, too many requests, throttled (T2). */
  public static final int RATE = 1 << 8;
  /** Connection refused before the request left: connection refused, REFUSED_STREAM (T1). */
  public static final int REFUSED = 1 << 9;
  /** Generic server failure: internal server error, bad gateway, api_error (T1). */
  public static final int SERVER = 1 << 10;
  /** Invalid request: invalid_request_error, bad request (T7). */
  public static final int INVALID = 1 << 11;

  /** How much of a text is read: provider error objects fit in far less. */
  public static final int SCAN_LIMIT = 4096;

  private static final String[][] PHRASES = {
      // CONTENT
      {"content_filter", "content_policy", "content policy", "content management",
          "responsibleaipolicy", "safety system", "usage policy", "usage policies", "usage_policy",
          "policy_violation", "prohibited_content", "refusal"},
      // QUOTA
      {"insufficient_quota", "your current quota", "spend_limit", "spend limit", "billing_hard_limit",
          "billing_not_active", "credit balance"},
      // AUTH
      {"invalid_api_key", "invalid api key", "incorrect api key", "authentication",
          "permission_error", "permission denied", "unauthorized", "forbidden", "access denied", "access_denied"},
      // CONTEXT
      {"context_length", "prompt is too long", "maximum context", "context window", "request too large", "maximum number of tokens",
          "context_window", "input is too long", "request_too_large"},
      // TOOL
      {"unknown tool", "unknown_tool", "tool not found", "tool_not_found", "no such tool", "tool_use_failed",
          "schema mismatch", "schema_mismatch", "not match schema", "missing field", "missing_field",
          "unknown field", "unknown_field", "invalid field", "function not found", "unknown function",
          "model_not_found", "not_found_error"},
      // TIMEOUT
      {"timed out", "timeout", "deadline exceeded", "deadline_exceeded"},
      // RESET
      {"connection reset", "broken pipe", "connection abort", "stream was reset", "goaway",
          "received no bytes", "end of stream", "premature eof", "unexpected eof", "closed"},
      // OVERLOADED
      {"overloaded", "at capacity", "server is busy"},
      // RATE
      {"rate_limit", "rate limit", "ratelimit", "too many requests", "throttl", "resource_exhausted", "slow down"},
      // REFUSED
      {"connection refused", "refused_stream", "no route to host", "network unreachable", "is unreachable"},
      // SERVER
      {"internal server", "internal_server", "bad gateway", "service unavailable",
          "service_unavailable", "server_error", "api_error"},
      // INVALID
      {"invalid_request", "invalid request", "bad request", "bad_request", "invalid_argument", "invalid argument"},
  };

  private static final int ALPHABET_BITS = 5;
  private static final byte[] CHAR_CLASS = new byte[128];

  static {
    for (char c = 'a'; c <= 'z'; c++) {
      CHAR_CLASS[c] = (byte) (c - 'a' + 1);
      CHAR_CLASS[Character.toUpperCase(c)] = (byte) (c - 'a' + 1);
    }
    CHAR_CLASS['_'] = 27;
    CHAR_CLASS[' '] = 28;
    CHAR_CLASS['-'] = 29;
  }

  private static final TextSignals INSTANCE = new TextSignals();

  // the same table, but each entry is the next state's row offset (state << ALPHABET_BITS), negated when
  // that state ends a phrase: one load per char on the critical path, and no output lookup unless a hit
  private final int[] rows;
  private final int[] output; // categories ending at a state (own and by suffix)
  private final int[] ownCategory; // category of the phrase that is exactly this state's path, or 0
  private final int[] ownLength; // that phrase's length
  private final boolean[] refusalKey; // the state that ends "refusal"

  private TextSignals() {
    List<int[]> trie = new ArrayList<>();
    List<Integer> own = new ArrayList<>();
    List<Integer> lengths = new ArrayList<>();
    trie.add(new int[1 << ALPHABET_BITS]);
    own.add(0);
    lengths.add(0);
    int refusal = -1;
    for (int category = 0; category < PHRASES.length; category++) {
      for (String phrase : PHRASES[category]) {
        int state = 0;
        for (int i = 0; i < phrase.length(); i++) {
          int cls = classOf(phrase.charAt(i));
          if (cls == 0) {
            throw new IllegalStateException("phrase " + phrase + " uses a char outside the alphabet");
          }
          if (trie.get(state)[cls] == 0) {
            trie.add(new int[1 << ALPHABET_BITS]);
            own.add(0);
            lengths.add(0);
            trie.get(state)[cls] = trie.size() - 1;
          }
          state = trie.get(state)[cls];
        }
        own.set(state, own.get(state) | 1 << category);
        lengths.set(state, phrase.length());
        if (phrase.equals("refusal")) {
          refusal = state;
        }
      }
    }
    int n = trie.size();
    if (n >= Character.MAX_VALUE) {
      throw new IllegalStateException("too many states for a char table: " + n);
    }
    char[] delta = new char[n << ALPHABET_BITS]; // state << ALPHABET_BITS | class -> next state
    output = new int[n];
    ownCategory = new int[n];
    ownLength = new int[n];
    refusalKey = new boolean[n];
    int[] fail = new int[n];
    for (int s = 0; s < n; s++) {
      ownCategory[s] = own.get(s);
      ownLength[s] = lengths.get(s);
      output[s] = own.get(s);
    }
    if (refusal > 0) {
      refusalKey[refusal] = true;
    }
    // breadth-first: each state's failure link is computed before its children's
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    for (int cls = 0; cls < 1 << ALPHABET_BITS; cls++) {
      int child = trie.get(0)[cls];
      delta[cls] = (char) child;
      if (child != 0) {
        fail[child] = 0;
        queue.add(child);
      }
    }
    while (!queue.isEmpty()) {
      int s = queue.poll();
      output[s] |= output[fail[s]];
      for (int cls = 0; cls < 1 << ALPHABET_BITS; cls++) {
        int child = trie.get(s)[cls];
        if (child != 0) {
          fail[child] = delta[fail[s] << ALPHABET_BITS | cls];
          delta[s << ALPHABET_BITS | cls] = (char) child;
          queue.add(child);
        } else {
          delta[s << ALPHABET_BITS | cls] = delta[fail[s] << ALPHABET_BITS | cls];
        }
      }
    }
    // the "other chars" class leads back to the root from every state
    for (int s = 0; s < n; s++) {
      delta[s << ALPHABET_BITS] = 0;
    }
    rows = new int[delta.length];
    for (int i = 0; i < delta.length; i++) {
      int next = delta[i];
      rows[i] = output[next] != 0 ? ~(next << ALPHABET_BITS) : next << ALPHABET_BITS;
    }
  }

  private static int classOf(char c) {
    return c < 128 ? CHAR_CLASS[c] : 0;
  }

  /** Categories found in {@code text}; see {@link #scanPacked}. */
  public static int categories(String text) {
    return (int) scanPacked(text);
  }

  /** The categories found in the text (low 32 bits) and those seen as a JSON code value (high 32 bits). */
  public static long scanPacked(String text) {
    if (text == null) {
      return 0;
    }
    return INSTANCE.scan(text, Math.min(text.length(), SCAN_LIMIT));
  }

  /** The longest phrase; streams overlap by this much so no phrase is cut at a stream boundary. */
  private static final int MAX_PHRASE = maxPhraseLength();
  private static final int STREAMS = 4;
  private static final ThreadLocal<char[]> BUFFER =
      ThreadLocal.withInitial(() -> new char[SCAN_LIMIT + STREAMS * MAX_PHRASE]);

  private static int maxPhraseLength() {
    int max = 0;
    for (String[] category : PHRASES) {
      for (String phrase : category) {
        max = Math.max(max, phrase.length());
      }
    }
    return max;
  }

  private long scan(String text, int end) {
    // Copying to a char[] (vectorized) lets the loops run without String's per-char checks. Each step of
    // the automaton waits for the previous one's table load, so a long text is cut into four overlapping
    // streams scanned side by side: four independent chains of loads keep the CPU busy instead of waiting.
    final char[] chars = BUFFER.get();
    text.getChars(0, end, chars, 0);
    if (end < 2 * MAX_PHRASE) {
      return scanStream(text, chars, 0, end, end);
    }
    int quarter = (end + STREAMS - 1) / STREAMS;
    int steps = quarter + MAX_PHRASE - 1;
    java.util.Arrays.fill(chars, end, Math.min(chars.length, 3 * quarter + steps), '\0'); // padding: resets to the root
    final int[] r = rows;
    final byte[] classes = CHAR_CLASS;
    int row0 = 0;
    int row1 = 0;
    int row2 = 0;
    int row3 = 0;
    long packed = 0;
    for (int i = 0; i < steps; i++) {
      char c0 = chars[i];
      char c1 = chars[quarter + i];
      char c2 = chars[2 * quarter + i];
      char c3 = chars[3 * quarter + i];
      row0 = r[row0 | (c0 < 128 ? classes[c0] : 0)];
      row1 = r[row1 | (c1 < 128 ? classes[c1] : 0)];
      row2 = r[row2 | (c2 < 128 ? classes[c2] : 0)];
      row3 = r[row3 | (c3 < 128 ? classes[c3] : 0)];
      if ((row0 | row1 | row2 | row3) < 0) {
        if (row0 < 0) {
          row0 = ~row0;
          packed |= hit(text, row0, i + 1, end);
        }
        if (row1 < 0) {
          row1 = ~row1;
          packed |= hit(text, row1, quarter + i + 1, end);
        }
        if (row2 < 0) {
          row2 = ~row2;
          packed |= hit(text, row2, 2 * quarter + i + 1, end);
        }
        if (row3 < 0) {
          row3 = ~row3;
          packed |= hit(text, row3, 3 * quarter + i + 1, end);
        }
      }
    }
    return packed;
  }

  private long scanStream(String text, char[] chars, int from, int to, int end) {
    final int[] r = rows;
    final byte[] classes = CHAR_CLASS;
    int row = 0;
    long packed = 0;
    for (int i = from; i < to; i++) {
      char c = chars[i];
      row = r[row | (c < 128 ? classes[c] : 0)];
      if (row < 0) {
        row = ~row;
        packed |= hit(text, row, i + 1, end);
      }
    }
    return packed;
  }

  /** What a phrase ending just before {@code after} adds: its categories, and whether it was a JSON code. */
  private long hit(String text, int row, int after, int end) {
    if (after > end) {
      return 0; // a match running into the padding of the last stream cannot be real
    }
    int state = row >>> ALPHABET_BITS;
    int found = output[state];
    int coded = 0;
    if (refusalKey[state]) {
      int key = refusalKeyValue(text, after, end);
      if (key == KEY_WITH_NULL) {
        return 0; // OpenAI sends "refusal": null in every message that was not refused
      }
      if (key == KEY_WITH_VALUE) {
        coded |= CONTENT; // "refusal": "I can't help with that" is the model's machine-readable refusal
      }
    }
    int own = ownCategory[state];
    if (own != 0 && isJsonCodeValue(text, after - ownLength[state])) {
      coded |= own;
    }
    return (long) coded << 32 | (found & 0xFFFFFFFFL);
  }

  /** Whether the text at {@code start} begins a string value of a key naming a code ({@code "type": "}). */
  private static boolean isJsonCodeValue(String text, int start) {
    int j = start - 1;
    if (j < 0 || text.charAt(j) != '"') {
      return false;
    }
    j = skipSpacesBackwards(text, j - 1);
    if (j < 0 || text.charAt(j) != ':') {
      return false;
    }
    j = skipSpacesBackwards(text, j - 1);
    if (j < 0 || text.charAt(j) != '"') {
      return false;
    }
    return endsWith(text, j, "type") || endsWith(text, j, "code") || endsWith(text, j, "reason")
        || endsWith(text, j, "status") || endsWith(text, j, "Reason");
  }

  private static int skipSpacesBackwards(String text, int j) {
    while (j >= 0 && text.charAt(j) == ' ') {
      j--;
    }
    return j;
  }

  private static boolean endsWith(String text, int endExclusive, String suffix) {
    int from = endExclusive - suffix.length();
    return from >= 0 && text.regionMatches(from, suffix, 0, suffix.length());
  }

  private static final int NOT_A_KEY = 0;
  private static final int KEY_WITH_NULL = 1;
  private static final int KEY_WITH_VALUE = 2;

  /** Whether a JSON key just ended at {@code i} ({@code "refusal": ...}) and whether its value is null. */
  private static int refusalKeyValue(String text, int i, int end) {
    if (i >= end || text.charAt(i) != '"' || i < 8 || text.charAt(i - 8) != '"') {
      return NOT_A_KEY;
    }
    int j = i + 1;
    while (j < end && text.charAt(j) == ' ') {
      j++;
    }
    if (j >= end || text.charAt(j) != ':') {
      return NOT_A_KEY;
    }
    j++;
    while (j < end && text.charAt(j) == ' ') {
      j++;
    }
    if (j >= end) {
      return KEY_WITH_NULL; // cut off: no evidence of a refusal
    }
    return text.regionMatches(true, j, "null", 0, 4) ? KEY_WITH_NULL : KEY_WITH_VALUE;
  }

  /** For tests and diagnostics: the number of automaton states. */
  static int stateCount() {
    return INSTANCE.output.length;
  }

  /** For tests: every phrase of a category. */
  static List<String> phrases(int category) {
    return Arrays.asList(PHRASES[Integer.numberOfTrailingZeros(category)]);
  }
}
