package dev.hfr.runtime.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The decision log's streaming serialiser against the encodings that wrote the events before it — Jackson
 * databind, then a hand-written serialiser — the same bytes in the file, the same text in a log message,
 * for every kind of event the engine writes and for text that needs escaping. A lone surrogate, which the
 * log once wrote as '?', is now its JSON escape, as databind writes it in UTF-8.
 */
@DisplayName("A decision event's JSON")
class DecisionEventJsonTest {

  /** Databind writing UTF-8 itself, a surrogate pair as its four bytes, a lone surrogate as its escape. */
  private static final ObjectWriter DATABIND = JsonMapper.builder(
      JsonFactory.builder().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build()).build()
      .writerFor(DecisionEvent.class);
  /** Databind's text, encoded as the log encoded it before (a lone surrogate as '?'). */
  private static final ObjectWriter DATABIND_TEXT = JsonMapper.builder().build().writerFor(DecisionEvent.class);
  private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

  private static DecisionEvent event(String tenant, String taskId, String rule, String verifierReason) {
    return new DecisionEvent(1_700_000_000_000L, "enforce", tenant, taskId, 3, "QuoteTools.flakyQuote", Risk.R1, 2,
        DegradeLevel.L1, Fault.T1, 0.95, rule, Action.RETRY, Reason.RETRYABLE, 250, 17, 2, 9, verifierReason, HASH,
        HASH, "key-" + HASH, "COMMITTED");
  }

  /** Databind's bytes for the event. */
  private static byte[] databindBytes(DecisionEvent e) throws IOException {
    return DATABIND.writeValueAsBytes(e);
  }

  /** What the decision log wrote before: databind's string, encoded as the file destination encoded it. */
  private static byte[] databindTextBytes(DecisionEvent e) throws IOException {
    return DATABIND_TEXT.writeValueAsString(e).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] newBytes(DecisionEventJson json, DecisionEvent e) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    json.write(e).writeTo(out);
    assertThat(json.length()).isEqualTo(out.size());
    return out.toByteArray();
  }

  private static void assertSameAsDatabind(DecisionEventJson json, DecisionEvent e) throws IOException {
    byte[] expected = databindBytes(e);
    assertThat(new String(newBytes(json, e), StandardCharsets.UTF_8))
        .as("the file's line").isEqualTo(new String(expected, StandardCharsets.UTF_8));
    assertThat(newBytes(json, e)).isEqualTo(expected);
    assertThat(json.write(e).toString()).as("the log message").isEqualTo(new String(expected, StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("is databind's, byte for byte, for a retry the engine records and for one with every field set")
  void engineEvents() throws IOException {
    DecisionEventJson json = new DecisionEventJson();
    DecisionEvent retry = new DecisionEvent(1_700_000_000_000L, "enforce", "default", "hfr-1-1", 1,
        "QuoteTools.flakyQuote", Risk.R0, 1, DegradeLevel.L0, Fault.T1, 0.95, "exception.connect", Action.RETRY,
        Reason.RETRYABLE, 0, 0, 2, -1, null, HASH, null, null, null);
    assertSameAsDatabind(json, retry);
    assertThat(json.write(retry).toString()).isEqualTo("{\"epochMillis\":1700000000000,\"mode\":\"enforce\","
        + "\"tenant\":\"default\",\"taskId\":\"hfr-1-1\",\"step\":1,\"tool\":\"QuoteTools.flakyQuote\",\"risk\":\"R0\","
        + "\"attempt\":1,\"rung\":\"L0\",\"fault\":\"T1\",\"confidence\":0.95,\"rule\":\"exception.connect\","
        + "\"action\":\"RETRY\",\"reason\":\"retryable\",\"delayMillis\":0,\"latencyMillis\":0,\"stepRetriesLeft\":2,"
        + "\"taskRetriesLeft\":-1,\"argsHash\":\"" + HASH + "\"}");
    assertSameAsDatabind(json, event("acme", "order-42", "verifier.v2", "schema mismatch"));
  }

  @Test
  @DisplayName("is the same when a value repeats from the previous event, changes, or goes missing (the writer keeps the last ones)")
  void repeatedValues() throws IOException {
    DecisionEventJson json = new DecisionEventJson();
    DecisionEvent a = event("acme", "order-1", "exception.connect", null);
    DecisionEvent b = event(new String("acme"), "order-2", "exception.\"connect\"", "stale \u00e9");
    DecisionEvent c = new DecisionEvent(2L, null, null, null, 1, null, null, 1, null, null, 0.5, null, null, null, 0, 0, 0,
        0, null, null, null, null, null);
    for (DecisionEvent e : List.of(a, a, b, a, c, b, b, c, a, event("acme", "order-1", "exception.connect", "x"))) {
      assertSameAsDatabind(json, e);
    }
  }

  @Test
  @DisplayName("is the previous hand-written serialiser's, byte for byte, for every action, reason and fault an event can carry")
  void everyEventType() throws IOException {
    DecisionEventJson streaming = new DecisionEventJson();
    HandWrittenDecisionEventJson previous = new HandWrittenDecisionEventJson();
    List<Fault> faults = new ArrayList<>(Arrays.asList(Fault.values()));
    faults.add(null); // a decision on a success
    int events = 0;
    for (Action action : Action.values()) {
      for (Reason reason : Reason.values()) {
        for (Fault fault : faults) {
          boolean write = events % 2 == 0;
          DecisionEvent e = new DecisionEvent(1_700_000_000_000L + events, events % 3 == 0 ? "shadow" : "enforce", "acme",
              "hfr-3f2a9c1e-8d7b-4e6f-a1b2-c3d4e5f60718-" + events, events % 5, "Orders.create", Risk.values()[events % Risk.values().length],
              1 + events % 3, DegradeLevel.values()[events % DegradeLevel.values().length], fault, fault == null ? 0.0 : 0.9,
              fault == null ? null : "rule-" + fault, action, reason, events % 7, events % 11, 2 - events % 3, 9 - events % 10,
              events % 13 == 0 ? "schema \"mismatch\"" : null, HASH, write ? HASH : null, write ? "key-" + HASH : null,
              write ? "COMMITTED" : null);
          ByteArrayOutputStream before = new ByteArrayOutputStream();
          previous.write(e).writeTo(before);
          byte[] expected = before.toByteArray();
          assertThat(newBytes(streaming, e)).as("%s %s %s", action, reason, fault).isEqualTo(expected);
          assertThat(expected).isEqualTo(databindBytes(e));
          events++;
        }
      }
    }
    assertThat(events).isEqualTo(Action.values().length * Reason.values().length * (Fault.values().length + 1));
  }

  @Test
  @DisplayName("leaves out every null field, as databind's NON_NULL does")
  void nullFields() throws IOException {
    DecisionEvent bare = new DecisionEvent(0, null, null, null, 0, null, null, 0, null, null, 0.0, null, null, null, 0, 0,
        0, 0, null, null, null, null, null);
    assertSameAsDatabind(new DecisionEventJson(), bare);
    assertThat(DecisionEventJson.toJson(bare)).doesNotContain("null");
  }

  @Test
  @DisplayName("writes every value of every enum as databind does (reason by its code)")
  void enums() throws IOException {
    DecisionEventJson json = new DecisionEventJson();
    int n = Math.max(Math.max(Risk.values().length, DegradeLevel.values().length),
        Math.max(Math.max(Fault.values().length, Action.values().length), Reason.values().length));
    for (int i = 0; i < n; i++) {
      assertSameAsDatabind(json, new DecisionEvent(i, "shadow", "t", "id", i, "A.b", Risk.values()[i % Risk.values().length], i,
          DegradeLevel.values()[i % DegradeLevel.values().length], Fault.values()[i % Fault.values().length], 0.5, "r",
          Action.values()[i % Action.values().length], Reason.values()[i % Reason.values().length], 0, 0, 0, 0, null,
          null, null, null, null));
    }
  }

  @Test
  @DisplayName("writes numbers as databind does: negative, extreme, and doubles as Double.toString")
  void numbers() throws IOException {
    DecisionEventJson json = new DecisionEventJson();
    long[] longs = {0, 1, 9, 10, -1, -10, 123_456_789_012L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
    int[] ints = {0, -1, 7, Integer.MAX_VALUE, Integer.MIN_VALUE};
    double[] doubles = {0.0, -0.0, 1.0, 0.95, 0.1 + 0.2, 1e-7, 1e21, 123456.789, Double.MIN_VALUE, Double.MAX_VALUE,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    for (int i = 0; i < longs.length; i++) {
      int k = ints[i % ints.length];
      assertSameAsDatabind(json, new DecisionEvent(longs[i], "enforce", "t", "id", longs[i], "A.b", Risk.R0, k,
          DegradeLevel.L0, null, doubles[i % doubles.length], null, Action.RETRY, Reason.RETRYABLE, longs[i], -longs[i],
          k, -k, null, null, null, null, null));
    }
    for (double d : doubles) {
      assertSameAsDatabind(json, new DecisionEvent(1, "enforce", "t", "id", 1, "A.b", Risk.R0, 1, DegradeLevel.L0, null,
          d, null, Action.RETRY, Reason.RETRYABLE, 0, 0, 0, 0, null, null, null, null, null));
    }
  }

  @Test
  @DisplayName("escapes quotes, backslashes and every control character, and writes other text as UTF-8")
  void escaping() throws IOException {
    StringBuilder controls = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      controls.append(c);
    }
    DecisionEventJson json = new DecisionEventJson();
    for (String text : new String[] {"say \"hi\"", "C:\\tools\\x", controls.toString(), "\u007f del", "tab\tnew\nline\r",
        "caf\u00e9 \u00fc\u00df", "\u4e2d\u6587 \u0928\u092e\u0938\u094d\u0924\u0947", "emoji \ud83d\ude00 ok",
        "</script> & 'quote' \u2028\u2029", "\ufeffbom \uffff", ""}) {
      assertSameAsDatabind(json, event(text, text, text, text));
    }
  }

  @Test
  @DisplayName("writes a lone surrogate, which has no UTF-8 form, as its JSON escape: a parser reads back the same text")
  void loneSurrogates() throws IOException {
    DecisionEventJson json = new DecisionEventJson();
    ObjectMapper parser = new ObjectMapper();
    for (String text : new String[] {"end \ud83d", "\ude00 start", "mid \ud83dx", "two \ud83d\ud83d", "reversed \ude00\ud83d"}) {
      DecisionEvent e = event("acme", text, "r", null);
      byte[] written = newBytes(json, e);
      assertThat(new String(written, StandardCharsets.UTF_8)).as(text).contains("\\uD", "\"tenant\":\"acme\"")
          .doesNotContain("?");
      assertThat(parser.readValue(written, DecisionEvent.class)).as("read back from the file's bytes").isEqualTo(e);
      assertThat(parser.readValue(json.write(e).toString(), DecisionEvent.class)).as("and from the log message").isEqualTo(e);
    }
  }

  @Test
  @DisplayName("is databind's for thousands of random texts, with the buffer reused from event to event")
  void randomTexts() throws IOException {
    SplittableRandom random = new SplittableRandom(16);
    DecisionEventJson json = new DecisionEventJson();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(i % 100 == 0 ? 2_000 : 40);
      for (int j = 0; j < length; j++) {
        switch (random.nextInt(5)) {
          case 0 -> text.append((char) random.nextInt(0x20));
          case 1 -> text.append((char) random.nextInt(0x80));
          case 2 -> text.append((char) random.nextInt(0x800));
          case 3 -> text.append((char) random.nextInt(0xD800));
          default -> text.appendCodePoint(random.nextInt(0x10000, 0x110000));
        }
      }
      texts.add(text.toString());
    }
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      DecisionEvent e = event(text, texts.get((i + 1) % texts.size()), text, i % 2 == 0 ? null : text);
      assertSameAsDatabind(json, e);
      assertThat(databindBytes(e)).as("every text without a lone surrogate: the bytes the log wrote before")
          .isEqualTo(databindTextBytes(e));
    }
  }

  @Test
  @DisplayName("is the same for task ids that share their beginning with the last one, or stop sharing it")
  void taskIdsSharingABeginning() throws IOException {
    DecisionEventJson json = new DecisionEventJson();
    String engine = "hfr-3f2a9c1e-8d7b-4e6f-a1b2-c3d4e5f60718-";
    String other = "hfr-00000000-8d7b-4e6f-a1b2-c3d4e5f60718-";
    String[] ids = {engine + 1, engine + 2, engine + 123_456_789, engine, engine + "x-y", other + 1, engine + 3,
        engine.substring(0, engine.length() - 1) + "_4", engine + 5,
        "hfr-", "hfr-3f2a9c1e", "order-1", "order-2", "order-", "caf\u00e9 \"q\" \\ long prefix-1", "caf\u00e9 \"q\" \\ long prefix-2",
        "caf\u00e9 \"q\" \\ long prefix-\n", "emoji \ud83d\ude00 long prefix-1", "emoji \ud83d\ude00 long prefix-\ud83d",
        "lone \ud83d-long prefix-1", "lone \ud83d-long prefix-2", "", "-", "--------", "---------1", "---------2",
        engine.toUpperCase() + 1, engine + 4};
    for (String id : ids) {
      DecisionEvent e = event("acme", id, "r", null);
      assertThat(newBytes(json, e)).as(id).isEqualTo(databindBytes(e));
      assertSameAsDatabind(json, event("acme", null, "r", null));
    }
    for (String id : ids) {
      assertSameAsDatabind(json, event("acme", id, "r", null));
    }
  }

  @Test
  @DisplayName("is the same when any one field changes from the previous event (the writer copies what did not)")
  void oneFieldAtATime() throws Exception {
    DecisionEvent base = event("acme", "order-42", "exception.connect", "stale");
    RecordComponent[] fields = DecisionEvent.class.getRecordComponents();
    Constructor<DecisionEvent> make = DecisionEvent.class.getDeclaredConstructor(
        Arrays.stream(fields).map(RecordComponent::getType).toArray(Class<?>[]::new));
    DecisionEventJson json = new DecisionEventJson();
    for (int i = 0; i < fields.length; i++) {
      for (Object other : otherValues(fields[i].getAccessor().invoke(base), fields[i].getType())) {
        Object[] values = new Object[fields.length];
        for (int j = 0; j < fields.length; j++) {
          values[j] = fields[j].getAccessor().invoke(base);
        }
        values[i] = other;
        DecisionEvent changed = make.newInstance(values);
        assertSameAsDatabind(json, base);
        assertSameAsDatabind(json, changed);
        assertSameAsDatabind(json, changed);
        assertSameAsDatabind(json, base);
      }
    }
  }

  /** Values of a field's type other than {@code value}: a different one, and {@code null} where the type allows it. */
  private static List<Object> otherValues(Object value, Class<?> type) {
    if (type == long.class) {
      return List.of((Long) value + 1, -(Long) value);
    }
    if (type == int.class) {
      return List.of((Integer) value + 1, -1);
    }
    if (type == double.class) {
      return List.of(0.5, -0.0);
    }
    if (type == String.class) {
      return Arrays.asList(value + "x", new String((String) value), null);
    }
    Object[] constants = type.getEnumConstants();
    return Arrays.asList(constants[(((Enum<?>) value).ordinal() + 1) % constants.length], null);
  }
}
