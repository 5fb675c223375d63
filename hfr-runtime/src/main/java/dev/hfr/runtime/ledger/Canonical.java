package dev.hfr.runtime.ledger;

import dev.hfr.runtime.ledger.internal.CanonicalText;
import dev.hfr.runtime.ledger.internal.PropertyTable;
import dev.hfr.runtime.ledger.internal.ValuePath;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Collection;
import java.util.Currency;
import java.util.Date;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The canonical form of tool arguments: one string per <em>content</em>, so that two calls with the same
 * arguments give the same idempotency key however the arguments were built (paper §4.5,
 * {@code canonical(args)}).
 *
 * <p>The form is JSON-like text, built by these rules:
 *
 * <ul>
 *   <li><b>null</b>, an empty {@link Optional} (also {@code OptionalInt}, {@code OptionalLong},
 *       {@code OptionalDouble}) → {@code null}; a present {@code Optional} → the form of its value.
 *   <li><b>Booleans</b> → {@code true} / {@code false}.
 *   <li><b>Numbers</b> ({@code byte, short, int, long, float, double}, {@link BigInteger}, {@link
 *       BigDecimal}, {@link AtomicInteger}, {@link AtomicLong}) → the exact decimal value with no exponent,
 *       no trailing zeros and no {@code -0}: {@code 1}, {@code 1L}, {@code 1.0} and {@code new
 *       BigDecimal("1.00")} all give {@code 1}; {@code 0.1f} gives {@code 0.1} (floats are read through
 *       their shortest decimal string, as Java prints them). {@code NaN} and the infinities give the bare
 *       tokens {@code NaN}, {@code Infinity}, {@code -Infinity}.
 *   <li><b>Text</b> ({@link CharSequence}, {@code char}) → a JSON string with JSON escapes. Enums → the
 *       string of their {@link Enum#name()} (an enum and its name travel the same way over JSON).
 *       {@link UUID}, {@link URI}, {@link URL}, {@link Path}, {@link Currency}, {@link Locale} (as a
 *       language tag), {@link ZoneId}, {@link Charset} → their string form.
 *   <li><b>Time</b>: {@link Instant}, {@link OffsetDateTime}, {@link ZonedDateTime}, {@link Date} and
 *       {@link Calendar} → the instant as an ISO-8601 UTC string ({@code "2026-11-29T22:50:00Z"}), so the
 *       same moment written in two zones is the same argument; local dates and times, {@link Duration},
 *       {@link Period}, {@link Year}, {@link YearMonth}, {@link MonthDay}, {@link OffsetTime} → their
 *       ISO-8601 string.
 *   <li><b>Lists, arrays</b> (of objects or primitives) and other ordered {@link Iterable}s → {@code
 *       [a,b,...]} in their order. <b>Sets</b> → {@code [...]} sorted by the elements' canonical forms, so
 *       iteration order does not matter.
 *   <li><b>Maps</b> → {@code {k:v,...}} with keys written in their canonical form and sorted by it. Two
 *       keys with the same canonical form (such as {@code 1} and {@code 1L}) are refused.
 *   <li><b>Records</b> → a map of component name to value; other objects (POJOs) → a map of their bean
 *       properties ({@code getX()} / {@code isX()}: public, no arguments, not static), or, for a class
 *       without getters, of its public instance fields. So a record, a map and a POJO with the same
 *       content give the same form: {@code {"id":7,"sku":"A-1"}}.
 * </ul>
 *
 * <p>Text is hashed losslessly: a lone surrogate (half of a UTF-16 pair without its other half, which
 * UTF-8 cannot encode and would replace by {@code ?}) is written as its six-character unicode escape
 * (backslash, {@code u}, four hex digits), so "a" + U+D800 and {@code "a?"} have different forms.
 *
 * <p>Refused with a {@link CanonicalFormException} naming the path of the bad value ({@code
 * $[0].items[2]}): a cycle (an object that contains itself), an object with no readable content (a
 * lambda, a {@code new Object()}), values whose content cannot be read, and values beyond the limits
 * below — each checked before the value is expanded, so a refusal takes microseconds, not the memory a
 * number like {@code 1e999999999} would need in plain form:
 *
 * <ul>
 *   <li>a number with more than {@value #MAX_NUMBER_DIGITS} significant digits, or whose plain form needs
 *       more than {@value #MAX_NUMBER_DIGITS} zeros before or after them (exponent beyond ±1,000);
 *   <li>a string longer than {@value #MAX_STRING_LENGTH} characters;
 *   <li>a collection, array, map or other iterable with more than {@value #MAX_ELEMENTS} elements (an
 *       endless iterable stops there);
 *   <li>nesting deeper than {@value #MAX_DEPTH} levels;
 *   <li>a canonical form longer than {@value #MAX_FORM_LENGTH} characters in all (4 Mi).
 * </ul>
 *
 * <p>The form never depends on identity hash codes, iteration order of hash-based collections, the
 * default locale or the default time zone. Thread-safe (stateless but for a per-class cache).
 *
 * <p>What a record or a bean class offers is looked up by reflection once per class and kept ({@link
 * PropertyTable}); the path of each value is built as text only when an error names it. Hashing the
 * arguments of a call therefore costs the walk over its values, not a reflective scan of their classes.
 */
public final class Canonical {

  /** The deepest nesting of containers accepted. */
  public static final int MAX_DEPTH = 64;
  /** The most elements of one collection, array, map or iterable accepted. */
  public static final int MAX_ELEMENTS = 100_000;
  /** The longest string accepted, in UTF-16 chars (1 Mi). */
  public static final int MAX_STRING_LENGTH = 1 << 20;
  /** The most significant digits of a number, and the furthest its decimal point may be from them. */
  public static final int MAX_NUMBER_DIGITS = 1_000;
  /** The longest canonical form accepted, in chars (4 Mi). */
  public static final int MAX_FORM_LENGTH = 1 << 22;

  /** Bits of an unscaled value with at most {@link #MAX_NUMBER_DIGITS} digits: ceil(1000 · log2 10). */
  private static final int MAX_NUMBER_BITS = 3322;

  private Canonical() {}

  /** The canonical form of {@code value}. */
  public static String of(Object value) {
    StringBuilder out = new StringBuilder(64);
    new Writer().write(value, ValuePath.ROOT, out);
    return out.toString();
  }

  /** Walks one value; remembers the containers on the current path to detect cycles. */
  private static final class Writer {
    // The containers on the current path and where each sits: a stack searched by identity (it is
    // short), grown on demand up to MAX_DEPTH.
    private Object[] onPath = new Object[4];
    private ValuePath[] onPathAt = new ValuePath[4];
    private int depth;
    // What is left of MAX_FORM_LENGTH: strings spend their length, every element at least one char.
    private long budget = MAX_FORM_LENGTH;

    /**
     * Writes the commonest values (null, strings within the limits, booleans, ints and longs, by exact
     * class) at once and says whether it did: those never fail, so no path needs to be made for them.
     */
    private boolean writeSimple(Object v, StringBuilder out) {
      if (v == null) {
        out.append("null");
        return true;
      }
      Class<?> type = v.getClass();
      if (type == String.class) {
        String s = (String) v;
        if (s.length() > MAX_STRING_LENGTH || s.length() >= budget) {
          return false; // write() refuses it, naming the path
        }
        budget -= s.length();
        CanonicalText.append(s, out);
      } else if (type == Integer.class || type == Long.class) {
        out.append(((Number) v).longValue());
      } else if (type == Boolean.class) {
        out.append(((Boolean) v).booleanValue());
      } else {
        return false;
      }
      return true;
    }

    void write(Object v, ValuePath path, StringBuilder out) {
      if (writeSimple(v, out)) {
        return;
      }
      if (v instanceof Number n) {
        writeNumber(n, path, out);
      } else if (v instanceof CharSequence s) {
        checkLength(s.length(), path);
        writeString(s.toString(), out);
      } else if (v instanceof Character c) {
        writeString(String.valueOf(c.charValue()), out);
      } else if (v instanceof Enum<?> e) {
        writeString(e.name(), out);
      } else if (v instanceof Optional<?> o) {
        write(o.orElse(null), path, out);
      } else if (v instanceof OptionalInt o) {
        write(o.isPresent() ? o.getAsInt() : null, path, out);
      } else if (v instanceof OptionalLong o) {
        write(o.isPresent() ? o.getAsLong() : null, path, out);
      } else if (v instanceof OptionalDouble o) {
        write(o.isPresent() ? o.getAsDouble() : null, path, out);
      } else if (isPlainText(v)) {
        writeString(v instanceof Locale l ? l.toLanguageTag() : v.toString(), out);
      } else if (v instanceof Instant i) {
        writeString(i.toString(), out);
      } else if (v instanceof OffsetDateTime t) {
        writeString(t.toInstant().toString(), out);
      } else if (v instanceof ZonedDateTime t) {
        writeString(t.toInstant().toString(), out);
      } else if (v instanceof Date d) {
        writeString(d.toInstant().toString(), out);
      } else if (v instanceof Calendar c) {
        writeString(c.toInstant().toString(), out);
      } else if (isIsoText(v)) {
        writeString(v.toString(), out);
      } else {
        writeContainer(v, path, out);
      }
    }

    private void writeContainer(Object v, ValuePath path, StringBuilder out) {
      if (depth >= MAX_DEPTH) {
        throw new CanonicalFormException(path.toString(), "the arguments nest deeper than " + MAX_DEPTH + " levels at " + path);
      }
      for (int i = 0; i < depth; i++) {
        if (onPath[i] == v) {
          String at = path.toString();
          throw new CanonicalFormException(
              at, "cycle: the value at " + at + " is the same object as its container at " + onPathAt[i] + "; arguments must be trees");
        }
      }
      if (depth == onPath.length) {
        onPath = Arrays.copyOf(onPath, Math.min(MAX_DEPTH, depth * 2));
        onPathAt = Arrays.copyOf(onPathAt, onPath.length);
      }
      onPath[depth] = v;
      onPathAt[depth] = path;
      depth++;
      try {
        if (v instanceof Map<?, ?> m) {
          writeMap(m, path, out);
        } else if (v instanceof Set<?> s) {
          writeSet(s, path, out);
        } else if (v instanceof Iterable<?> it) {
          writeSequence(it, path, out);
        } else if (v.getClass().isArray()) {
          writeArray(v, path, out);
        } else {
          writeProperties(v, path, out);
        }
      } finally {
        depth--;
        onPath[depth] = null;
        onPathAt[depth] = null;
      }
    }

    private void writeMap(Map<?, ?> m, ValuePath path, StringBuilder out) {
      checkSize(m.size(), path);
      TreeMap<String, Object> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        spend(1, path);
        String key = keyForm(e.getKey(), path);
        if (sorted.containsKey(key)) {
          throw new CanonicalFormException(path.toString(), "two keys of the map at " + path + " have the same canonical form " + key);
        }
        sorted.put(key, e.getValue());
      }
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(e.getKey()).append(':');
        if (!writeSimple(e.getValue(), out)) {
          write(e.getValue(), path.entry(e.getKey()), out);
        }
      }
      out.append('}');
    }

    private String keyForm(Object key, ValuePath path) {
      StringBuilder k = new StringBuilder();
      write(key, path.mapKey(), k);
      return k.toString();
    }

    private void writeSet(Set<?> s, ValuePath path, StringBuilder out) {
      checkSize(s.size(), path);
      List<String> forms = new ArrayList<>(s.size());
      int i = 0;
      for (Object e : s) {
        checkSize(i + 1, path);
        spend(1, path);
        StringBuilder one = new StringBuilder();
        if (!writeSimple(e, one)) {
          write(e, path.element(i), one);
        }
        i++;
        forms.add(one.toString());
      }
      forms.sort(null);
      out.append('[').append(String.join(",", forms)).append(']');
    }

    private void writeSequence(Iterable<?> iterable, ValuePath path, StringBuilder out) {
      if (iterable instanceof Collection<?> c) {
        checkSize(c.size(), path);
      }
      Iterator<?> it = iterable.iterator();
      out.append('[');
      int i = 0;
      while (it.hasNext()) {
        checkSize(i + 1, path); // an endless iterable stops here
        spend(1, path);
        if (i > 0) {
          out.append(',');
        }
        Object e = it.next();
        if (!writeSimple(e, out)) {
          write(e, path.element(i), out);
        }
        i++;
      }
      out.append(']');
    }

    private void writeArray(Object array, ValuePath path, StringBuilder out) {
      int n = Array.getLength(array);
      checkSize(n, path);
      spend(n, path);
      out.append('[');
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          out.append(',');
        }
        Object e = Array.get(array, i);
        if (!writeSimple(e, out)) {
          write(e, path.element(i), out);
        }
      }
      out.append(']');
    }

    /**
     * A record (its components) or another object (its getters, else its public fields) as a map from
     * property name to value: every member is read, in reflective order, then written sorted by name.
     */
    private void writeProperties(Object v, ValuePath path, StringBuilder out) {
      Class<?> type = v.getClass();
      PropertyTable table = PropertyTable.of(type);
      if (table.kind() == PropertyTable.Kind.NO_CANONICAL_FORM) {
        String at = path.toString();
        throw new CanonicalFormException(
            at, "the value at " + at + " has type " + type.getName() + ", which has no canonical form; pass its content instead");
      }
      if (table.kind() == PropertyTable.Kind.NO_CONTENT) {
        String at = path.toString();
        throw new CanonicalFormException(
            at,
            "the value at " + at + " of type " + type.getName()
                + " has no readable content (no record components, getters or public fields); pass its content instead");
      }
      PropertyTable.Member[] members = table.readOrder();
      Object[] values = new Object[members.length];
      for (int i = 0; i < members.length; i++) {
        PropertyTable.Member m = members[i];
        values[i] = m.getter() != null ? invoke(m, v, path) : read(m.field(), v, path.property(m.name()));
      }
      out.append('{');
      boolean first = true;
      for (int i : table.writeOrder()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        String key = members[i].quotedName();
        out.append(key).append(':');
        if (!writeSimple(values[i], out)) {
          write(values[i], path.entry(key), out);
        }
      }
      out.append('}');
    }

    private static Object invoke(PropertyTable.Member member, Object target, ValuePath owner) {
      Method m = member.getter();
      try {
        if (!member.accessChecked()) {
          if (!m.canAccess(target)) {
            m.setAccessible(true);
          }
          member.markAccessChecked();
        }
        return m.invoke(target);
      } catch (InvocationTargetException e) {
        String path = owner.property(member.name()).toString();
        throw new CanonicalFormException(path, "reading " + path + " through " + m.getName() + "() threw " + e.getCause(), e.getCause());
      } catch (IllegalAccessException | RuntimeException e) {
        String path = owner.property(member.name()).toString();
        throw new CanonicalFormException(path, "cannot read " + path + " through " + m.getName() + "(): " + e, e);
      }
    }

    private static Object read(Field f, Object target, ValuePath path) {
      try {
        return f.get(target);
      } catch (IllegalAccessException | RuntimeException e) {
        throw new CanonicalFormException(path.toString(), "cannot read field " + path + ": " + e, e);
      }
    }

    private void writeNumber(Number n, ValuePath path, StringBuilder out) {
      BigDecimal d;
      if (n instanceof BigDecimal b) {
        checkDigits(b.unscaledValue().bitLength(), path);
        d = b;
      } else if (n instanceof BigInteger b) {
        checkDigits(b.bitLength(), path);
        d = new BigDecimal(b);
      } else if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte
          || n instanceof AtomicInteger || n instanceof AtomicLong) {
        out.append(n.longValue());
        return;
      } else if (n instanceof Double || n instanceof Float) {
        double x = n.doubleValue();
        if (Double.isNaN(x)) {
          out.append("NaN");
          return;
        }
        if (Double.isInfinite(x)) {
          out.append(x > 0 ? "Infinity" : "-Infinity");
          return;
        }
        // Float via its own shortest decimal string: 0.1f is 0.1, not 0.100000001490116...
        d = new BigDecimal(n instanceof Float f ? Float.toString(f) : Double.toString(x));
      } else {
        throw new CanonicalFormException(
            path.toString(), "the number at " + path + " has an unsupported type " + n.getClass().getName() + "; pass a BigDecimal or a primitive");
      }
      if (d.signum() == 0) {
        out.append('0');
        return;
      }
      BigDecimal stripped = d.stripTrailingZeros();
      if (stripped.scale() > MAX_NUMBER_DIGITS || stripped.scale() < -MAX_NUMBER_DIGITS) {
        String at = path.toString();
        throw new CanonicalFormException(at, "the number at " + at + " has an exponent beyond ±" + MAX_NUMBER_DIGITS
            + " (scale " + stripped.scale() + "): its exact decimal form would have more than " + MAX_NUMBER_DIGITS
            + " digits; pass it as a string, or round it");
      }
      String plain = stripped.toPlainString();
      spend(plain.length(), path);
      out.append(plain);
    }

    private static void checkDigits(int bits, ValuePath path) {
      if (bits > MAX_NUMBER_BITS) {
        String at = path.toString();
        throw new CanonicalFormException(at, "the number at " + at + " has more than " + MAX_NUMBER_DIGITS
            + " significant digits (" + bits + " bits); pass it as a string, or round it");
      }
    }

    private static void checkSize(int size, ValuePath path) {
      if (size > MAX_ELEMENTS) {
        String at = path.toString();
        throw new CanonicalFormException(at, "the collection at " + at + " has more than " + MAX_ELEMENTS
            + " elements (or never ends); pass a bounded one");
      }
    }

    private void checkLength(int length, ValuePath path) {
      if (length > MAX_STRING_LENGTH) {
        String at = path.toString();
        throw new CanonicalFormException(at, "the string at " + at + " has " + length + " characters, more than the "
            + MAX_STRING_LENGTH + " accepted; pass a reference to the content (a hash, an id) instead");
      }
      spend(length, path);
    }

    private void spend(long chars, ValuePath path) {
      budget -= chars;
      if (budget < 0) {
        String at = path.toString();
        throw new CanonicalFormException(at, "the arguments' canonical form grows past " + MAX_FORM_LENGTH
            + " characters at " + at + "; pass references to large content instead");
      }
    }

    private static boolean isPlainText(Object v) {
      return v instanceof UUID || v instanceof URI || v instanceof URL || v instanceof Path || v instanceof Currency
          || v instanceof Locale || v instanceof ZoneId || v instanceof Charset;
    }

    private static boolean isIsoText(Object v) {
      return v instanceof LocalDate || v instanceof LocalDateTime || v instanceof LocalTime || v instanceof Duration
          || v instanceof Period || v instanceof Year || v instanceof YearMonth || v instanceof MonthDay
          || v instanceof OffsetTime;
    }

    private static void writeString(String s, StringBuilder out) {
      CanonicalText.append(s, out);
    }
  }
}
