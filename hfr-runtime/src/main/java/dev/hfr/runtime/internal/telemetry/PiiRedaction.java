package dev.hfr.runtime.internal.telemetry;

import dev.hfr.runtime.telemetry.DecisionEvent;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The redaction {@code telemetry.redact_pii} applies to the free-text fields of every decision event —
 * {@code tenant}, {@code taskId}, {@code rule} and {@code verifierReason}, the fields whose text comes
 * from the application rather than from the engine's closed sets (arguments and results are never in an
 * event: only their SHA-256 hashes are). Within those fields it replaces:
 *
 * <ul>
 *   <li>e-mail addresses ({@code jane.doe@example.com}) by {@code <email>};
 *   <li>payment card numbers — 13 to 19 digits, spaces or dashes between them, passing the Luhn check —
 *       by {@code <card>};
 *   <li>phone numbers written internationally — {@code +}, then 8 to 15 digits with spaces, dots, dashes
 *       or brackets — by {@code <phone>};
 *   <li>IPv4 addresses by {@code <ip>}.
 * </ul>
 *
 * Everything else is kept, so ids such as {@code order-42} or a time stamp in a task id stay readable;
 * the task id the engine makes for a call outside any task ({@code hfr-<uuid>-<n>}) is kept as it is.
 * One pass over the text decides which patterns could match at all; the others do not run, which keeps
 * redaction cheap for the usual ids.
 */
public final class PiiRedaction {

  private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}");
  private static final Pattern CARD = Pattern.compile("(?<![\\d])\\d(?:[ -]?\\d){12,18}(?![\\d])");
  private static final Pattern PHONE = Pattern.compile("\\+\\d(?:[ .()-]{0,2}\\d){7,14}(?![\\d])");
  private static final Pattern IPV4 = Pattern.compile("(?<![\\d.])(?:(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)(?![\\d])");

  private PiiRedaction() {}

  /** {@code event} with its free-text fields redacted; the same instance when there was nothing to redact. */
  public static DecisionEvent apply(DecisionEvent event) {
    return with(event, redact(event.tenant()), redactTaskId(event.taskId()), redact(event.rule()),
        redact(event.verifierReason()));
  }

  /**
   * A task id redacted, except the id the engine gives a call made outside any task ({@code hfr-}, the
   * engine's UUID, {@code -} and a sequence number): that one holds no application text, and its random hex
   * digits, with the sequence number, can read as a card number that passes the Luhn check — redacting it
   * would garble the id that ties a call's decisions together (and run the card pattern on every event).
   */
  static String redactTaskId(String taskId) {
    return taskId == null || engineTaskId(taskId) ? taskId : redact(taskId);
  }

  private static final int UUID_LENGTH = 36;
  private static final int ENGINE_ID_PREFIX = "hfr-".length() + UUID_LENGTH + 1;

  /** Whether {@code id} reads {@code hfr-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx-n} (lower-case hex, 1 to 12 digits n). */
  static boolean engineTaskId(String id) {
    int n = id.length();
    if (n <= ENGINE_ID_PREFIX || n > ENGINE_ID_PREFIX + 12 || !id.startsWith("hfr-") || id.charAt(ENGINE_ID_PREFIX - 1) != '-') {
      return false;
    }
    for (int i = 0; i < UUID_LENGTH; i++) {
      char ch = id.charAt(4 + i);
      boolean ok = i == 8 || i == 13 || i == 18 || i == 23 ? ch == '-' : (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
      if (!ok) {
        return false;
      }
    }
    return digitsFrom(id, ENGINE_ID_PREFIX);
  }

  /** Whether {@code text} has only decimal digits from {@code start} on. */
  private static boolean digitsFrom(String text, int start) {
    for (int i = start; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch < '0' || ch > '9') {
        return false;
      }
    }
    return true;
  }

  private static DecisionEvent with(DecisionEvent event, String tenant, String taskId, String rule, String verifierReason) {
    if (tenant == event.tenant() && taskId == event.taskId() && rule == event.rule()
        && verifierReason == event.verifierReason()) {
      return event;
    }
    return new DecisionEvent(event.epochMillis(), event.mode(), tenant, taskId, event.step(), event.tool(), event.risk(),
        event.attempt(), event.rung(), event.fault(), event.confidence(), rule, event.action(), event.reason(),
        event.delayMillis(), event.latencyMillis(), event.stepRetriesLeft(), event.taskRetriesLeft(), verifierReason,
        event.argsHash(), event.resultHash(), event.ledgerKey(), event.ledgerState());
  }

  /**
   * The same redaction for one thread that sees event after event (the decision log's writer): each field
   * remembers its last text and what became of it, so a tenant, a rule or a task id that repeats from one
   * event to the next is compared, not scanned again. Not thread-safe.
   */
  public static final class Remembering {
    private final Last tenant = new Last();
    private final Last taskId = new Last();
    private final Last rule = new Last();
    private final Last verifierReason = new Last();

    /** The last engine task id seen, whose first {@link #ENGINE_ID_PREFIX} characters the next one likely shares. */
    private String lastEngineId;

    /** As {@link PiiRedaction#apply(DecisionEvent)}. */
    public DecisionEvent apply(DecisionEvent event) {
      String id = event.taskId();
      return with(event, tenant.redact(event.tenant()), id == null || engineTaskId(id) ? id : taskId.redact(id),
          rule.redact(event.rule()), verifierReason.redact(event.verifierReason()));
    }

    /**
     * As {@link PiiRedaction#engineTaskId}, but an id with the same engine prefix as the last one needs only
     * that prefix compared and its sequence number checked: one engine makes all of its ids from one UUID.
     */
    private boolean engineTaskId(String id) {
      String last = lastEngineId;
      if (last != null && id.length() > ENGINE_ID_PREFIX && id.length() <= ENGINE_ID_PREFIX + 12
          && id.regionMatches(0, last, 0, ENGINE_ID_PREFIX) && digitsFrom(id, ENGINE_ID_PREFIX)) {
        return true;
      }
      if (PiiRedaction.engineTaskId(id)) {
        lastEngineId = id;
        return true;
      }
      return false;
    }
  }

  /** One field's last text and its redaction ({@code null} when the text had nothing to redact). */
  private static final class Last {
    private String text;
    private String redacted;

    String redact(String value) {
      if (value == null) {
        return null;
      }
      if (!value.equals(text)) {
        String out = PiiRedaction.redact(value);
        text = value;
        redacted = out == value ? null : out;
      }
      return redacted == null ? value : redacted;
    }
  }

  /** {@code text} with the patterns above replaced; the same instance when none occurs ({@code null} stays {@code null}). */
  public static String redact(String text) {
    if (text == null) {
      return null;
    }
    int candidates = candidates(text);
    if (candidates == 0) {
      return text;
    }
    return replace(text, candidates);
  }

  /** What {@link #redact} gives when every pattern runs, whatever the pre-check says (for tests of that check). */
  static String redactRunningEveryPattern(String text) {
    return replace(text, EMAIL_SIGN | LONG_DIGITS | PLUS_DIGITS | DOTS);
  }

  private static String replace(String text, int candidates) {
    String out = text;
    if ((candidates & EMAIL_SIGN) != 0) {
      out = EMAIL.matcher(out).replaceAll("<email>");
    }
    if ((candidates & LONG_DIGITS) != 0) {
      out = replaceCards(out);
    }
    if ((candidates & PLUS_DIGITS) != 0) {
      out = PHONE.matcher(out).replaceAll("<phone>");
    }
    if ((candidates & DOTS) != 0) {
      out = IPV4.matcher(out).replaceAll("<ip>");
    }
    return out.equals(text) ? text : out;
  }

  private static final int EMAIL_SIGN = 1;
  private static final int LONG_DIGITS = 2;
  private static final int PLUS_DIGITS = 4;
  private static final int DOTS = 8;

  /**
   * Which patterns could match, from one pass over the text: an {@code @} for an e-mail address, 13
   * digits (separators allowed) for a card, a {@code +} and 8 digits for a phone number, three dots for an
   * IPv4 address. Ids (an implicit task's UUID, an order number) usually qualify for none, so the regular
   * expressions — the e-mail one is quadratic in the length of a text without {@code @} — rarely run.
   *
   * <p>The decision log's writer runs this on every event's free text, so the loop has no branch that
   * depends on the text (a UUID's digits and letters alternate at random, and a mispredicted branch per
   * character would cost more than the rest): each character's {@link #KIND} says whether it counts as a
   * digit, keeps a digit run going (separators, {@code @ + .}) or ends it, and which sign it is.
   */
  private static int candidates(String text) {
    int kinds = 0;
    int run = 0;
    int longestRun = 0;
    int dots = 0;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      int kind = ch < 128 ? KIND[ch] : 0;
      run = (run + (kind & DIGIT)) & -((kind & KEEPS_RUN) >> 1);
      longestRun = Math.max(longestRun, run);
      dots += (kind & DOT) >> 4;
      kinds |= kind;
    }
    int found = 0;
    if ((kinds & AT) != 0) {
      found |= EMAIL_SIGN;
    }
    if (longestRun >= 13) {
      found |= LONG_DIGITS;
    }
    if ((kinds & PLUS) != 0 && longestRun >= 8) {
      found |= PLUS_DIGITS;
    }
    if (dots >= 3) {
      found |= DOTS;
    }
    return found;
  }

  private static final int DIGIT = 1;
  private static final int KEEPS_RUN = 2;
  private static final int AT = 4;
  private static final int PLUS = 8;
  private static final int DOT = 16;
  /** For each ASCII character, the bits above; 0 (ends a digit run) for the others. */
  private static final byte[] KIND = new byte[128];

  static {
    for (char ch = '0'; ch <= '9'; ch++) {
      KIND[ch] = DIGIT | KEEPS_RUN;
    }
    for (char ch : new char[] {' ', '-', '(', ')'}) {
      KIND[ch] = KEEPS_RUN;
    }
    KIND['@'] = KEEPS_RUN | AT;
    KIND['+'] = KEEPS_RUN | PLUS;
    KIND['.'] = KEEPS_RUN | DOT;
  }

  private static String replaceCards(String text) {
    Matcher m = CARD.matcher(text);
    StringBuilder out = null;
    int last = 0;
    while (m.find()) {
      if (luhn(m.group())) {
        if (out == null) {
          out = new StringBuilder(text.length());
        }
        out.append(text, last, m.start()).append("<card>");
        last = m.end();
      }
    }
    if (out == null) {
      return text;
    }
    return out.append(text, last, text.length()).toString();
  }

  private static boolean luhn(String number) {
    int sum = 0;
    boolean twice = false;
    for (int i = number.length() - 1; i >= 0; i--) {
      char ch = number.charAt(i);
      if (ch < '0' || ch > '9') {
        continue;
      }
      int d = ch - '0';
      if (twice) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      sum += d;
      twice = !twice;
    }
    return sum % 10 == 0;
  }
}
