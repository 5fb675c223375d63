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
 * Everything else is kept, so ids such as {@code order-42} or a time stamp in a task id stay readable.
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
    String tenant = redact(event.tenant());
    String taskId = redact(event.taskId());
    String rule = redact(event.rule());
    String verifierReason = redact(event.verifierReason());
    if (tenant == event.tenant() && taskId == event.taskId() && rule == event.rule()
        && verifierReason == event.verifierReason()) {
      return event;
    }
    return new DecisionEvent(event.epochMillis(), event.mode(), tenant, taskId, event.step(), event.tool(), event.risk(),
        event.attempt(), event.rung(), event.fault(), event.confidence(), rule, event.action(), event.reason(),
        event.delayMillis(), event.latencyMillis(), event.stepRetriesLeft(), event.taskRetriesLeft(), verifierReason,
        event.argsHash(), event.resultHash(), event.ledgerKey(), event.ledgerState());
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
   */
  private static int candidates(String text) {
    int found = 0;
    int run = 0;
    int longestRun = 0;
    int dots = 0;
    boolean plus = false;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch >= '0' && ch <= '9') {
        longestRun = Math.max(longestRun, ++run);
      } else if (ch == '@') {
        found |= EMAIL_SIGN;
      } else if (ch == '+') {
        plus = true;
      } else if (ch == '.') {
        dots++;
      } else if (ch != ' ' && ch != '-' && ch != '(' && ch != ')') {
        run = 0;
      }
    }
    if (longestRun >= 13) {
      found |= LONG_DIGITS;
    }
    if (plus && longestRun >= 8) {
      found |= PLUS_DIGITS;
    }
    if (dots >= 3) {
      found |= DOTS;
    }
    return found;
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
