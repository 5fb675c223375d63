package dev.hfr.runtime.ledger;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
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
import java.util.Calendar;
import java.util.Collection;
import java.util.Currency;
import java.util.Date;
import java.util.IdentityHashMap;
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
 * The canonical form exactly as {@link Canonical} computed it before it cached its per-class readers: the
 * straightforward reflective walk (components and getters looked up on every call). Kept only as the
 * oracle that the cached form is byte-for-byte the same, on success and on refusal.
 */
final class CanonicalReference {

  private CanonicalReference() {}

  /** The canonical form of {@code value}, computed the straightforward way. */
  public static String of(Object value) {
    StringBuilder out = new StringBuilder(64);
    new Writer().write(value, "$", out);
    return out.toString();
  }

  /** Walks one value; remembers the containers on the current path to detect cycles. */
  private static final class Writer {
    private static final int MAX_DEPTH = 64;
    private final IdentityHashMap<Object, String> onPath = new IdentityHashMap<>();

    void write(Object v, String path, StringBuilder out) {
      if (v == null) {
        out.append("null");
      } else if (v instanceof Boolean b) {
        out.append(b.booleanValue());
      } else if (v instanceof Number n) {
        writeNumber(n, path, out);
      } else if (v instanceof CharSequence s) {
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

    private void writeContainer(Object v, String path, StringBuilder out) {
      if (onPath.size() >= MAX_DEPTH) {
        throw new CanonicalFormException(path, "the arguments nest deeper than " + MAX_DEPTH + " levels at " + path);
      }
      String earlier = onPath.put(v, path);
      if (earlier != null) {
        throw new CanonicalFormException(
            path, "cycle: the value at " + path + " is the same object as its container at " + earlier + "; arguments must be trees");
      }
      try {
        if (v instanceof Map<?, ?> m) {
          writeMap(m, path, out);
        } else if (v instanceof Set<?> s) {
          writeSet(s, path, out);
        } else if (v instanceof Iterable<?> it) {
          writeSequence(it.iterator(), path, out);
        } else if (v.getClass().isArray()) {
          writeArray(v, path, out);
        } else if (v instanceof Record r) {
          writeRecord(r, path, out);
        } else {
          writeBean(v, path, out);
        }
      } finally {
        onPath.remove(v);
      }
    }

    private void writeMap(Map<?, ?> m, String path, StringBuilder out) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String key = keyForm(e.getKey(), path);
        if (sorted.containsKey(key)) {
          throw new CanonicalFormException(path, "two keys of the map at " + path + " have the same canonical form " + key);
        }
        sorted.put(key, e.getValue());
      }
      writeSortedMap(sorted, path, out);
    }

    private void writeSortedMap(TreeMap<String, Object> sorted, String path, StringBuilder out) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(e.getKey()).append(':');
        write(e.getValue(), path + "[" + e.getKey() + "]", out);
      }
      out.append('}');
    }

    private String keyForm(Object key, String path) {
      StringBuilder k = new StringBuilder();
      write(key, path + "{key}", k);
      return k.toString();
    }

    private void writeSet(Set<?> s, String path, StringBuilder out) {
      List<String> forms = new ArrayList<>(s.size());
      int i = 0;
      for (Object e : s) {
        StringBuilder one = new StringBuilder();
        write(e, path + "[" + i++ + "]", one);
        forms.add(one.toString());
      }
      forms.sort(null);
      out.append('[').append(String.join(",", forms)).append(']');
    }

    private void writeSequence(Iterator<?> it, String path, StringBuilder out) {
      out.append('[');
      int i = 0;
      while (it.hasNext()) {
        if (i > 0) {
          out.append(',');
        }
        write(it.next(), path + "[" + i + "]", out);
        i++;
      }
      out.append(']');
    }

    private void writeArray(Object array, String path, StringBuilder out) {
      int n = Array.getLength(array);
      out.append('[');
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          out.append(',');
        }
        write(Array.get(array, i), path + "[" + i + "]", out);
      }
      out.append(']');
    }

    private void writeRecord(Record r, String path, StringBuilder out) {
      TreeMap<String, Object> props = new TreeMap<>();
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        props.put(quoted(c.getName()), invoke(c.getAccessor(), r, path + "." + c.getName()));
      }
      writeSortedMap(props, path, out);
    }

    private void writeBean(Object bean, String path, StringBuilder out) {
      Class<?> type = bean.getClass();
      String pkg = type.getPackageName();
      if (pkg.startsWith("java.") || pkg.startsWith("javax.") || pkg.startsWith("jdk.") || pkg.startsWith("sun.")
          || pkg.startsWith("com.sun.") || type.isSynthetic() || type.isHidden()) {
        throw new CanonicalFormException(
            path, "the value at " + path + " has type " + type.getName() + ", which has no canonical form; pass its content instead");
      }
      TreeMap<String, Object> props = new TreeMap<>();
      for (Method m : type.getMethods()) {
        String name = propertyName(m);
        if (name != null) {
          props.put(quoted(name), invoke(m, bean, path + "." + name));
        }
      }
      if (props.isEmpty()) {
        for (Field f : type.getFields()) {
          if (!Modifier.isStatic(f.getModifiers())) {
            props.put(quoted(f.getName()), read(f, bean, path + "." + f.getName()));
          }
        }
      }
      if (props.isEmpty()) {
        throw new CanonicalFormException(
            path,
            "the value at " + path + " of type " + type.getName()
                + " has no readable content (no record components, getters or public fields); pass its content instead");
      }
      writeSortedMap(props, path, out);
    }

    private static String propertyName(Method m) {
      if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || m.getDeclaringClass() == Object.class) {
        return null;
      }
      String n = m.getName();
      if (n.startsWith("get") && n.length() > 3 && m.getReturnType() != void.class) {
        return decapitalize(n.substring(3));
      }
      if (n.startsWith("is") && n.length() > 2 && (m.getReturnType() == boolean.class || m.getReturnType() == Boolean.class)) {
        return decapitalize(n.substring(2));
      }
      return null;
    }

    private static String decapitalize(String s) {
      if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && Character.isUpperCase(s.charAt(1))) {
        return s; // JavaBeans rule: getURL -> URL
      }
      return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    private static Object invoke(Method m, Object target, String path) {
      try {
        if (!m.canAccess(target)) {
          m.setAccessible(true);
        }
        return m.invoke(target);
      } catch (InvocationTargetException e) {
        throw new CanonicalFormException(path, "reading " + path + " through " + m.getName() + "() threw " + e.getCause(), e.getCause());
      } catch (IllegalAccessException | RuntimeException e) {
        throw new CanonicalFormException(path, "cannot read " + path + " through " + m.getName() + "(): " + e, e);
      }
    }

    private static Object read(Field f, Object target, String path) {
      try {
        return f.get(target);
      } catch (IllegalAccessException | RuntimeException e) {
        throw new CanonicalFormException(path, "cannot read field " + path + ": " + e, e);
      }
    }

    private static void writeNumber(Number n, String path, StringBuilder out) {
      BigDecimal d;
      if (n instanceof BigDecimal b) {
        d = b;
      } else if (n instanceof BigInteger b) {
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
            path, "the number at " + path + " has an unsupported type " + n.getClass().getName() + "; pass a BigDecimal or a primitive");
      }
      if (d.signum() == 0) {
        out.append('0');
        return;
      }
      out.append(d.stripTrailingZeros().toPlainString());
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

    private static String quoted(String s) {
      StringBuilder b = new StringBuilder(s.length() + 2);
      writeString(s, b);
      return b.toString();
    }

    private static void writeString(String s, StringBuilder out) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          default -> {
            if (c < 0x20) {
              out.append(String.format("\\u%04x", (int) c));
            } else {
              out.append(c);
            }
          }
        }
      }
      out.append('"');
    }
  }
}
