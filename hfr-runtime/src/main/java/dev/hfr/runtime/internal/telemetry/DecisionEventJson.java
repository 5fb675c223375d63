package dev.hfr.runtime.internal.telemetry;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Writes a {@link DecisionEvent} as one JSON object, UTF-8, into a buffer it reuses: the decision log's
 * writer thread serialises every event with one long-lived Jackson {@link JsonGenerator} (the streaming
 * API: no object mapper, no tree, no reflection over the record), which writes UTF-8 bytes directly. The output
 * is what Jackson's databind writes for the record — fields in declaration order, {@code null} fields left out,
 * enums by name, {@code reason} by its code — encoded as UTF-8, a character outside the Basic Multilingual Plane
 * as its four bytes. A lone surrogate, which has no UTF-8 form, is written as its JSON escape (a backslash, a
 * {@code u} and four hex digits), so a parser reads back the very string the event held. {@code DecisionEventJsonTest} holds the output beside
 * databind's and the previous hand-written serialiser's. Field names and enum constants are {@link
 * SerializedString}s, escaped once; the few confidences a classifier gives are formatted once each.
 *
 * <p>One instance per thread.
 */
public final class DecisionEventJson {

  /**
   * One factory for every writer: generators share its settings (and nothing mutable). A surrogate pair is one
   * character of four UTF-8 bytes, not two JSON escapes.
   */
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  private static final SerializedString EPOCH_MILLIS = name("epochMillis");
  private static final SerializedString MODE = name("mode");
  private static final SerializedString TENANT = name("tenant");
  private static final SerializedString TASK_ID = name("taskId");
  private static final SerializedString STEP = name("step");
  private static final SerializedString TOOL = name("tool");
  private static final SerializedString RISK = name("risk");
  private static final SerializedString ATTEMPT = name("attempt");
  private static final SerializedString RUNG = name("rung");
  private static final SerializedString FAULT = name("fault");
  private static final SerializedString CONFIDENCE = name("confidence");
  private static final SerializedString RULE = name("rule");
  private static final SerializedString ACTION = name("action");
  private static final SerializedString REASON = name("reason");
  private static final SerializedString DELAY_MILLIS = name("delayMillis");
  private static final SerializedString LATENCY_MILLIS = name("latencyMillis");
  private static final SerializedString STEP_RETRIES_LEFT = name("stepRetriesLeft");
  private static final SerializedString TASK_RETRIES_LEFT = name("taskRetriesLeft");
  private static final SerializedString VERIFIER_REASON = name("verifierReason");
  private static final SerializedString ARGS_HASH = name("argsHash");
  private static final SerializedString RESULT_HASH = name("resultHash");
  private static final SerializedString LEDGER_KEY = name("ledgerKey");
  private static final SerializedString LEDGER_STATE = name("ledgerState");

  private static final SerializedString[] RISKS = constants(Risk.values(), Risk::name);
  private static final SerializedString[] RUNGS = constants(DegradeLevel.values(), DegradeLevel::name);
  private static final SerializedString[] FAULTS = constants(Fault.values(), Fault::name);
  private static final SerializedString[] ACTIONS = constants(Action.values(), Action::name);
  private static final SerializedString[] REASONS = constants(Reason.values(), Reason::code);

  private static final int CONFIDENCES = 16;

  private final Bytes bytes = new Bytes();
  private final JsonGenerator generator;
  // The last value of each text field that most events repeat, escaped once.
  private final LastText mode = new LastText();
  private final LastText tenant = new LastText();
  private final LastText tool = new LastText();
  private final LastText rule = new LastText();
  private final LastText verifierReason = new LastText();
  private final LastText ledgerState = new LastText();
  /**
   * Confidences already formatted, by their bits (a direct-mapped cache): a classifier gives a handful of them,
   * and {@link Double#toString} would otherwise be a tenth of an event's cost.
   */
  private final long[] confidenceBits = new long[CONFIDENCES];
  private final String[] confidenceTexts = new String[CONFIDENCES];

  /** A writer with its own generator and buffers. */
  public DecisionEventJson() {
    try {
      generator = FACTORY.createGenerator(bytes, JsonEncoding.UTF8);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a generator on a writer in memory opens nothing
    }
    // One event after the other on one generator: nothing between two root objects (the default is a space).
    generator.setRootValueSeparator(null);
  }

  /** The JSON of {@code event} as a string (a new writer each time: for tests and one-off uses). */
  public static String toJson(DecisionEvent event) {
    return new DecisionEventJson().write(event).toString();
  }

  /** Replaces the buffer's content with the JSON of {@code event}; returns this writer. */
  public DecisionEventJson write(DecisionEvent e) {
    bytes.len = 0;
    try {
      JsonGenerator g = generator;
      g.writeStartObject();
      g.writeFieldName(EPOCH_MILLIS);
      g.writeNumber(e.epochMillis());
      repeated(MODE, mode, e.mode());
      repeated(TENANT, tenant, e.tenant());
      text(TASK_ID, e.taskId());
      g.writeFieldName(STEP);
      g.writeNumber(e.step());
      repeated(TOOL, tool, e.tool());
      constant(RISK, RISKS, e.risk());
      g.writeFieldName(ATTEMPT);
      g.writeNumber(e.attempt());
      constant(RUNG, RUNGS, e.rung());
      constant(FAULT, FAULTS, e.fault());
      g.writeFieldName(CONFIDENCE);
      confidence(e.confidence());
      repeated(RULE, rule, e.rule());
      constant(ACTION, ACTIONS, e.action());
      constant(REASON, REASONS, e.reason());
      g.writeFieldName(DELAY_MILLIS);
      g.writeNumber(e.delayMillis());
      g.writeFieldName(LATENCY_MILLIS);
      g.writeNumber(e.latencyMillis());
      g.writeFieldName(STEP_RETRIES_LEFT);
      g.writeNumber(e.stepRetriesLeft());
      g.writeFieldName(TASK_RETRIES_LEFT);
      g.writeNumber(e.taskRetriesLeft());
      repeated(VERIFIER_REASON, verifierReason, e.verifierReason());
      text(ARGS_HASH, e.argsHash());
      text(RESULT_HASH, e.resultHash());
      text(LEDGER_KEY, e.ledgerKey());
      repeated(LEDGER_STATE, ledgerState, e.ledgerState());
      g.writeEndObject();
      g.flush();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex); // the output is in memory: it never fails
    }
    return this;
  }

  /** A finite confidence as {@link Double#toString} writes it, formatted once; NaN and infinities as databind does. */
  private void confidence(double value) throws IOException {
    if (!Double.isFinite(value)) {
      generator.writeNumber(value);
      return;
    }
    long bits = Double.doubleToRawLongBits(value);
    int slot = (int) (bits ^ (bits >>> 29) ^ (bits >>> 47)) & (CONFIDENCES - 1);
    String text = confidenceTexts[slot];
    if (text == null || confidenceBits[slot] != bits) {
      text = Double.toString(value);
      confidenceBits[slot] = bits;
      confidenceTexts[slot] = text;
    }
    generator.writeNumber(text);
  }

  /** {@code "name":"value"}, or nothing when the value is {@code null} (databind's NON_NULL). */
  private void text(SerializedString name, String value) throws IOException {
    if (value != null) {
      generator.writeFieldName(name);
      generator.writeString(value);
    }
  }

  /** As {@link #text}, for a field whose value is usually the last event's: escaped once per new value. */
  private void repeated(SerializedString name, LastText last, String value) throws IOException {
    if (value != null) {
      generator.writeFieldName(name);
      SerializedString escaped = last.of(value);
      if (escaped != null) {
        generator.writeString(escaped);
      } else {
        generator.writeString(value);
      }
    }
  }

  /** {@code "name":"CONSTANT"}, or nothing when the value is {@code null}. */
  private void constant(SerializedString name, SerializedString[] constants, Enum<?> value) throws IOException {
    if (value != null) {
      generator.writeFieldName(name);
      generator.writeString(constants[value.ordinal()]);
    }
  }

  /** How many bytes the last event's JSON takes. */
  public int length() {
    return bytes.len;
  }

  /** Writes the last event's JSON to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes.buf, 0, bytes.len);
  }

  /** Puts the last event's JSON into {@code out}, which must have room for {@link #length()} bytes. */
  public void writeTo(ByteBuffer out) {
    out.put(bytes.buf, 0, bytes.len);
  }

  /** The last event's JSON, as a buffer over this writer's own bytes (valid until the next event). */
  public ByteBuffer asByteBuffer() {
    return ByteBuffer.wrap(bytes.buf, 0, bytes.len);
  }

  /** The last event's JSON. */
  @Override
  public String toString() {
    return new String(bytes.buf, 0, bytes.len, StandardCharsets.UTF_8);
  }

  /**
   * A field's last value and its escaped form. A text with a surrogate is not kept: {@link SerializedString}
   * refuses a lone one, which the generator writes as its escape.
   */
  private static final class LastText {
    private String value;
    private SerializedString escaped;

    /** {@code text} escaped, or {@code null} when it has a surrogate. */
    SerializedString of(String text) {
      if (text != value) {
        if (!text.equals(value)) {
          escaped = hasSurrogate(text) ? null : new SerializedString(text);
        }
        value = text;
      }
      return escaped;
    }

    private static boolean hasSurrogate(String text) {
      for (int i = 0; i < text.length(); i++) {
        if (Character.isSurrogate(text.charAt(i))) {
          return true;
        }
      }
      return false;
    }
  }

  /** The generator's output: bytes in an array that is reused from event to event. */
  private static final class Bytes extends OutputStream {
    byte[] buf = new byte[1024];
    int len;

    @Override
    public void write(byte[] from, int off, int n) {
      ensure(n);
      System.arraycopy(from, off, buf, len, n);
      len += n;
    }

    @Override
    public void write(int b) {
      ensure(1);
      buf[len++] = (byte) b;
    }

    private void ensure(int more) {
      if (len + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(2 * buf.length, len + more));
      }
    }
  }

  private static SerializedString name(String name) {
    return new SerializedString(name);
  }

  private static <E extends Enum<E>> SerializedString[] constants(E[] values, Function<E, String> text) {
    SerializedString[] out = new SerializedString[values.length];
    for (E value : values) {
      out[value.ordinal()] = new SerializedString(text.apply(value));
    }
    return out;
  }
}
