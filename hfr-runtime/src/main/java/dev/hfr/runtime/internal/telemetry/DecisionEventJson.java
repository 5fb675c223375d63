package dev.hfr.runtime.internal.telemetry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Writes a {@link DecisionEvent} as one JSON object, UTF-8, into a buffer it reuses: the decision log's
 * writer thread serialises every event with one long-lived Jackson {@link JsonGenerator} (the streaming
 * API: no object mapper, no tree, no reflection over the record). The output is what Jackson's databind
 * writes for the record — fields in declaration order, {@code null} fields left out, enums by name,
 * {@code reason} by its code — because it is the same generator: databind's {@code writeValueAsString}
 * writes through this character generator too, and the characters are then encoded as {@link
 * String#getBytes} encodes them (a lone surrogate, which has no UTF-8 form, as {@code ?}).
 * {@code DecisionEventJsonTest} holds the output beside databind's and the previous hand-written
 * serialiser's. Field names and enum constants are {@link SerializedString}s, escaped once.
 *
 * <p>One instance per thread.
 */
public final class DecisionEventJson {

  /** One factory for every writer: generators share its settings (and nothing mutable). */
  private static final JsonFactory FACTORY = new JsonFactory();

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

  private final Chars chars = new Chars();
  private final JsonGenerator generator;
  /** {@link String#getBytes}'s encoding: a character with no UTF-8 form becomes {@code ?}. */
  private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
      .onMalformedInput(CodingErrorAction.REPLACE)
      .onUnmappableCharacter(CodingErrorAction.REPLACE);
  private CharBuffer charView = CharBuffer.wrap(chars.buf);
  private byte[] buf = new byte[1024];
  private ByteBuffer byteView = ByteBuffer.wrap(buf);
  private int len;

  /** A writer with its own generator and buffers. */
  public DecisionEventJson() {
    try {
      generator = FACTORY.createGenerator(chars);
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
    chars.len = 0;
    try {
      JsonGenerator g = generator;
      g.writeStartObject();
      g.writeFieldName(EPOCH_MILLIS);
      g.writeNumber(e.epochMillis());
      text(MODE, e.mode());
      text(TENANT, e.tenant());
      text(TASK_ID, e.taskId());
      g.writeFieldName(STEP);
      g.writeNumber(e.step());
      text(TOOL, e.tool());
      constant(RISK, RISKS, e.risk());
      g.writeFieldName(ATTEMPT);
      g.writeNumber(e.attempt());
      constant(RUNG, RUNGS, e.rung());
      constant(FAULT, FAULTS, e.fault());
      g.writeFieldName(CONFIDENCE);
      g.writeNumber(e.confidence());
      text(RULE, e.rule());
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
      text(VERIFIER_REASON, e.verifierReason());
      text(ARGS_HASH, e.argsHash());
      text(RESULT_HASH, e.resultHash());
      text(LEDGER_KEY, e.ledgerKey());
      text(LEDGER_STATE, e.ledgerState());
      g.writeEndObject();
      g.flush();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex); // the writer is in memory: it never fails
    }
    encode();
    return this;
  }

  /** {@code "name":"value"}, or nothing when the value is {@code null} (databind's NON_NULL). */
  private void text(SerializedString name, String value) throws IOException {
    if (value != null) {
      generator.writeFieldName(name);
      generator.writeString(value);
    }
  }

  /** {@code "name":"CONSTANT"}, or nothing when the value is {@code null}. */
  private void constant(SerializedString name, SerializedString[] constants, Enum<?> value) throws IOException {
    if (value != null) {
      generator.writeFieldName(name);
      generator.writeString(constants[value.ordinal()]);
    }
  }

  /** The generator's characters as UTF-8 into {@link #buf}, which is first made large enough for any of them. */
  private void encode() {
    int n = chars.len;
    if (3 * n > buf.length) { // a char takes at most 3 bytes (a surrogate pair 4 for its 2 chars)
      buf = new byte[Math.max(3 * n, 2 * buf.length)];
      byteView = ByteBuffer.wrap(buf);
    }
    if (charView.array() != chars.buf) {
      charView = CharBuffer.wrap(chars.buf);
    }
    charView.clear().limit(n);
    byteView.clear();
    utf8.reset();
    utf8.encode(charView, byteView, true);
    utf8.flush(byteView);
    len = byteView.position();
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

  /** The generator's output: characters in an array that is reused from event to event. */
  private static final class Chars extends Writer {
    char[] buf = new char[1024];
    int len;

    @Override
    public void write(char[] from, int off, int n) {
      ensure(n);
      System.arraycopy(from, off, buf, len, n);
      len += n;
    }

    @Override
    public void write(String from, int off, int n) {
      ensure(n);
      from.getChars(off, off + n, buf, len);
      len += n;
    }

    @Override
    public void write(int c) {
      ensure(1);
      buf[len++] = (char) c;
    }

    private void ensure(int more) {
      if (len + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(2 * buf.length, len + more));
      }
    }

    @Override
    public void flush() {
      // in memory: nothing to flush
    }

    @Override
    public void close() {
      // in memory: nothing to close
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
