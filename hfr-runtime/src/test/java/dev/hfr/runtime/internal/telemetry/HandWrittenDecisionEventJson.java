package dev.hfr.runtime.internal.telemetry;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The decision log's serialiser before it wrote with Jackson's {@code JsonGenerator}: hand-written, into a
 * reused UTF-8 buffer, copying the runs of the JSON that repeat from the last event. Kept beside the tests
 * as the previous encoding the streaming one is held to, byte for byte ({@code DecisionEventJsonTest}).
 */
final class HandWrittenDecisionEventJson {

  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  private static final byte[] EPOCH_MILLIS = ascii("{\"epochMillis\":");
  private static final byte[] STEP = ascii(",\"step\":");
  private static final byte[] ATTEMPT = ascii(",\"attempt\":");
  private static final byte[] CONFIDENCE = ascii(",\"confidence\":");
  private static final byte[] DELAY_MILLIS = ascii(",\"delayMillis\":");
  private static final byte[] LATENCY_MILLIS = ascii(",\"latencyMillis\":");
  private static final byte[] STEP_RETRIES_LEFT = ascii(",\"stepRetriesLeft\":");
  private static final byte[] TASK_RETRIES_LEFT = ascii(",\"taskRetriesLeft\":");

  /** {@code ,"risk":"R0"} and so on, ready for each constant of each enum field. */
  private static final byte[][] RISKS = constants("risk", Risk.values(), Risk::name);
  private static final byte[][] RUNGS = constants("rung", DegradeLevel.values(), DegradeLevel::name);
  private static final byte[][] FAULTS = constants("fault", Fault.values(), Fault::name);
  private static final byte[][] ACTIONS = constants("action", Action.values(), Action::name);
  private static final byte[][] REASONS = constants("reason", Reason.values(), Reason::code);

  // Most of an event's text repeats from event to event (mode, tenant, tool, rule, the same arguments'
  // hash): each field keeps its last value's bytes, so a repeated value is one copy instead of a
  // character-by-character encoding. The task id is new in nearly every event; its beginning is kept.
  private final TextField mode = new TextField("mode", true);
  private final TextField tenant = new TextField("tenant", true);
  private final PrefixField taskId = new PrefixField("taskId");
  private final TextField tool = new TextField("tool", true);
  private final TextField rule = new TextField("rule", true);
  private final TextField verifierReason = new TextField("verifierReason", true);
  private final TextField argsHash = new TextField("argsHash", true);
  private final TextField resultHash = new TextField("resultHash", true);
  private final TextField ledgerKey = new TextField("ledgerKey", false);
  private final TextField ledgerState = new TextField("ledgerState", true);
  private long lastConfidenceBits = Double.doubleToRawLongBits(0.0);
  private byte[] lastConfidence = ascii("0.0");

  private final Run opening = new Run();
  private final Run classification = new Run();
  private final Run budgets = new Run();

  private final byte[] digits = new byte[19];
  private byte[] buf = new byte[1024];
  private int len;

  /** The JSON of {@code event} as a string (a new writer each time: for tests and one-off uses). */
  static String toJson(DecisionEvent event) {
    return new HandWrittenDecisionEventJson().write(event).toString();
  }

  /** Replaces the buffer's content with the JSON of {@code event}; returns this writer. */
  HandWrittenDecisionEventJson write(DecisionEvent e) {
    len = 0;
    if (sameOpening(e, opening.of)) {
      raw(opening);
    } else {
      opening(e);
    }
    textSharingPrefix(taskId, e.taskId());
    if (sameClassification(e, classification.of)) {
      raw(classification);
    } else {
      classification(e);
    }
    if (sameBudgets(e, budgets.of)) {
      raw(budgets);
    } else {
      budgets(e);
    }
    text(argsHash, e.argsHash());
    text(resultHash, e.resultHash());
    text(ledgerKey, e.ledgerKey());
    text(ledgerState, e.ledgerState());
    ensure(1);
    buf[len++] = '}';
    return this;
  }

  private void opening(DecisionEvent e) {
    int start = len;
    raw(EPOCH_MILLIS);
    number(e.epochMillis());
    text(mode, e.mode());
    text(tenant, e.tenant());
    opening.keep(e, buf, start, len);
  }

  private void classification(DecisionEvent e) {
    int start = len;
    raw(STEP);
    number(e.step());
    text(tool, e.tool());
    constant(RISKS, e.risk());
    raw(ATTEMPT);
    number(e.attempt());
    constant(RUNGS, e.rung());
    constant(FAULTS, e.fault());
    raw(CONFIDENCE);
    number(e.confidence());
    text(rule, e.rule());
    constant(ACTIONS, e.action());
    constant(REASONS, e.reason());
    classification.keep(e, buf, start, len);
  }

  private void budgets(DecisionEvent e) {
    int start = len;
    raw(DELAY_MILLIS);
    number(e.delayMillis());
    raw(LATENCY_MILLIS);
    number(e.latencyMillis());
    raw(STEP_RETRIES_LEFT);
    number(e.stepRetriesLeft());
    raw(TASK_RETRIES_LEFT);
    number(e.taskRetriesLeft());
    text(verifierReason, e.verifierReason());
    budgets.keep(e, buf, start, len);
  }

  // Three runs of the JSON each depend on a few fields only, and the events of one kind of call repeat
  // them: the same time stamp (hundreds of events come per millisecond), tool, classification, decision
  // and budgets. Each run is kept with the event it was written for, and an event whose fields agree
  // copies it in one piece.

  /** {@code {"epochMillis":…,"mode":…,"tenant":…}: the same time stamp, mode and tenant. */
  private static boolean sameOpening(DecisionEvent e, DecisionEvent last) {
    return last != null && e.epochMillis() == last.epochMillis() && same(e.mode(), last.mode())
        && same(e.tenant(), last.tenant());
  }

  /** {@code ,"step":…} to {@code ,"reason":…}: the same step, tool, attempt, classification and decision. */
  private static boolean sameClassification(DecisionEvent e, DecisionEvent last) {
    return last != null && e.step() == last.step() && e.attempt() == last.attempt() && e.risk() == last.risk()
        && e.rung() == last.rung() && e.fault() == last.fault() && e.action() == last.action()
        && e.reason() == last.reason()
        && Double.doubleToRawLongBits(e.confidence()) == Double.doubleToRawLongBits(last.confidence())
        && same(e.tool(), last.tool()) && same(e.rule(), last.rule());
  }

  /** {@code ,"delayMillis":…} to {@code ,"verifierReason":…}: the same delay, latency, budgets and verifier reason. */
  private static boolean sameBudgets(DecisionEvent e, DecisionEvent last) {
    return last != null && e.delayMillis() == last.delayMillis() && e.latencyMillis() == last.latencyMillis()
        && e.stepRetriesLeft() == last.stepRetriesLeft() && e.taskRetriesLeft() == last.taskRetriesLeft()
        && same(e.verifierReason(), last.verifierReason());
  }

  private static boolean same(String a, String b) {
    return a == b || (a != null && a.equals(b));
  }

  /** A run of the JSON and the event it was written for. */
  private static final class Run {
    DecisionEvent of;
    byte[] bytes = new byte[256];
    int length;

    void keep(DecisionEvent event, byte[] from, int start, int end) {
      length = end - start;
      if (bytes.length < length) {
        bytes = new byte[Math.max(length, 2 * bytes.length)];
      }
      System.arraycopy(from, start, bytes, 0, length);
      of = event;
    }
  }

  private void raw(Run run) {
    ensure(run.length);
    System.arraycopy(run.bytes, 0, buf, len, run.length);
    len += run.length;
  }

  /** How many bytes the last event's JSON takes. */
  public int length() {
    return len;
  }

  /** Writes the last event's JSON to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(buf, 0, len);
  }

  /** Puts the last event's JSON into {@code out}, which must have room for {@link #length()} bytes. */
  public void writeTo(ByteBuffer out) {
    out.put(buf, 0, len);
  }

  /** The last event's JSON, as a buffer over this writer's own bytes (valid until the next event). */
  public ByteBuffer asByteBuffer() {
    return ByteBuffer.wrap(buf, 0, len);
  }

  /** The last event's JSON. */
  @Override
  public String toString() {
    return new String(buf, 0, len, StandardCharsets.UTF_8);
  }

  private void raw(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, len, bytes.length);
    len += bytes.length;
  }

  /** A text field's name and, if it keeps it, its last value and that value's bytes. */
  private static final class TextField {
    final byte[] name;
    final boolean keep;
    String last;
    byte[] lastBytes;

    TextField(String name, boolean keep) {
      this.name = ascii(",\"" + name + "\":");
      this.keep = keep;
    }
  }

  /** {@code ,"name":"value"}, or nothing when the value is {@code null} (databind's NON_NULL). */
  private void text(TextField field, String value) {
    if (value == null) {
      return;
    }
    if (value.equals(field.last)) {
      raw(field.lastBytes);
      return;
    }
    int start = len;
    raw(field.name);
    string(value);
    if (field.keep) {
      field.last = value;
      field.lastBytes = Arrays.copyOfRange(buf, start, len);
    }
  }

  /** {@code ,"name":"CONSTANT"}, or nothing when the value is {@code null}. */
  private void constant(byte[][] constants, Enum<?> value) {
    if (value != null) {
      raw(constants[value.ordinal()]);
    }
  }

  /** A JSON string: quoted, escaped, UTF-8. */
  private void string(String value) {
    int n = value.length();
    // Room for the worst case: each char escaped in six bytes (no char takes more as UTF-8), and quotes.
    ensure(6 * n + 2);
    buf[len++] = '"';
    chars(value, 0, n);
    buf[len++] = '"';
  }

  /**
   * {@code ,"taskId":"value"} for a field whose values usually share a beginning: the task ids of one
   * engine ({@code hfr-<uuid>-<n>}) or of one application ({@code order-<n>}). The field keeps the bytes
   * of the last value up to its last {@code -}; a value that begins with the same characters is compared,
   * not encoded, up to there.
   */
  private void textSharingPrefix(PrefixField field, String value) {
    if (value == null) {
      return;
    }
    int n = value.length();
    int shared = field.prefixChars;
    if (shared > 0 && n >= shared && value.regionMatches(0, field.prefixOf, 0, shared)) {
      ensure(field.prefixLength + 6 * (n - shared) + 1);
      System.arraycopy(field.prefixBytes, 0, buf, len, field.prefixLength);
      len += field.prefixLength;
      chars(value, shared, n);
      buf[len++] = '"';
      return;
    }
    int cut = value.lastIndexOf('-') + 1;
    int start = len;
    raw(field.name);
    ensure(6 * n + 2);
    buf[len++] = '"';
    chars(value, 0, cut);
    int prefixEnd = len;
    chars(value, cut, n);
    buf[len++] = '"';
    field.remember(value, cut, buf, start, prefixEnd);
  }

  /** A text field that keeps the beginning its values share, for {@link #textSharingPrefix}. */
  private static final class PrefixField {
    /** Shorter beginnings are not worth comparing first. */
    private static final int MIN_PREFIX_CHARS = 8;

    final byte[] name;
    String prefixOf;
    int prefixChars;
    byte[] prefixBytes = new byte[64];
    int prefixLength;

    PrefixField(String name) {
      this.name = ascii(",\"" + name + "\":");
    }

    void remember(String value, int chars, byte[] from, int start, int end) {
      if (chars < MIN_PREFIX_CHARS) {
        prefixOf = null;
        prefixChars = 0;
        return;
      }
      prefixOf = value;
      prefixChars = chars;
      prefixLength = end - start;
      if (prefixBytes.length < prefixLength) {
        prefixBytes = new byte[prefixLength];
      }
      System.arraycopy(from, start, prefixBytes, 0, prefixLength);
    }
  }

  /** The characters {@code from} to {@code to} of {@code value}, escaped, as UTF-8; the room is ensured. */
  private void chars(String value, int from, int to) {
    byte[] b = buf;
    int at = len;
    int n = to;
    for (int i = from; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          b[at++] = (byte) c;
        } else {
          at = escape(b, at, c);
        }
      } else if (c < 0x800) {
        b[at++] = (byte) (0xC0 | (c >> 6));
        b[at++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        b[at++] = (byte) (0xE0 | (c >> 12));
        b[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[at++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, value.charAt(++i));
        b[at++] = (byte) (0xF0 | (cp >> 18));
        b[at++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        b[at++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        b[at++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        b[at++] = '?'; // a lone surrogate has no UTF-8 form
      }
    }
    len = at;
  }

  private static int escape(byte[] b, int at, char c) {
    b[at++] = '\\';
    switch (c) {
      case '"' -> b[at++] = '"';
      case '\\' -> b[at++] = '\\';
      case '\b' -> b[at++] = 'b';
      case '\t' -> b[at++] = 't';
      case '\n' -> b[at++] = 'n';
      case '\f' -> b[at++] = 'f';
      case '\r' -> b[at++] = 'r';
      default -> {
        b[at++] = 'u';
        b[at++] = '0';
        b[at++] = '0';
        b[at++] = HEX[c >> 4];
        b[at++] = HEX[c & 0xF];
      }
    }
    return at;
  }

  private void number(long v) {
    ensure(20);
    if (v >= 0 && v < 10) {
      buf[len++] = (byte) ('0' + v);
      return;
    }
    if (v == Long.MIN_VALUE) {
      text(Long.toString(v));
      return;
    }
    if (v < 0) {
      buf[len++] = '-';
      v = -v;
    }
    // The digits backwards into the scratch space, then in order into the buffer.
    int at = digits.length;
    do {
      long rest = v / 10;
      digits[--at] = (byte) ('0' + (int) (v - rest * 10));
      v = rest;
    } while (v != 0);
    int n = digits.length - at;
    System.arraycopy(digits, at, buf, len, n);
    len += n;
  }

  /** As Jackson writes a double: {@link Double#toString}, and the non-finite ones as strings. */
  private void number(double v) {
    long bits = Double.doubleToRawLongBits(v);
    if (bits != lastConfidenceBits) {
      lastConfidenceBits = bits;
      lastConfidence = ascii(Double.isFinite(v) ? Double.toString(v) : '"' + Double.toString(v) + '"');
    }
    raw(lastConfidence);
  }

  /** ASCII text as it is. */
  private void text(String ascii) {
    int n = ascii.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) ascii.charAt(i);
    }
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }

  private static <E extends Enum<E>> byte[][] constants(String name, E[] values, Function<E, String> text) {
    byte[][] out = new byte[values.length][];
    for (E value : values) {
      out[value.ordinal()] = ascii(",\"" + name + "\":\"" + text.apply(value) + "\"");
    }
    return out;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
