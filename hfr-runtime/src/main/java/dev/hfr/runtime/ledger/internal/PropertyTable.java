package dev.hfr.runtime.ledger.internal;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The readable content of one class, for the canonical form of its instances: a record's components, or
 * a bean's getters ({@code getX()} / {@code isX()}: public, no arguments, not static), or, for a class
 * without getters, its public instance fields. Resolved once per class (a {@link ClassValue}, so a
 * class's table goes away with its class loader) instead of by reflection on every argument hashed.
 *
 * <p>The table keeps the reflective order of the members, which is the order they are read in, and the
 * order the properties are written in: sorted by their quoted names, and, where two members give the
 * same name (a {@code getX()} and an {@code isX()}, a field hiding another), the one read last. Reading
 * the members (accessibility, invoking) is left to the caller.
 */
public final class PropertyTable {

  /** What a class offers the canonical form. */
  public enum Kind {
    /** Records, and beans with getters or public fields. */
    PROPERTIES,
    /** JDK types and synthetic or hidden classes (lambdas): their content is not the caller's data. */
    NO_CANONICAL_FORM,
    /** A class with no record components, getters or public fields. */
    NO_CONTENT
  }

  /** One member that yields a property: exactly one of {@code getter} and {@code field} is set. */
  public static final class Member {
    private final String name;
    private final String quotedName;
    private final Method getter;
    private final Field field;
    private volatile boolean accessChecked;

    Member(String name, Method getter, Field field) {
      this.name = name;
      this.quotedName = CanonicalText.quote(name);
      this.getter = getter;
      this.field = field;
    }

    /** The property's name. */
    public String name() {
      return name;
    }

    /** The name as a JSON string, the key the canonical form writes. */
    public String quotedName() {
      return quotedName;
    }

    /** The accessor or getter, or {@code null} for a field. */
    public Method getter() {
      return getter;
    }

    /** The public field, or {@code null} for a getter. */
    public Field field() {
      return field;
    }

    /**
     * Whether the caller already found the getter callable. The answer depends only on the getter, the
     * class read and the caller, all fixed for this table, so it is worked out once.
     */
    public boolean accessChecked() {
      return accessChecked;
    }

    /** Notes that the getter is callable (volatile: a reader that sees it also sees any {@code setAccessible}). */
    public void markAccessChecked() {
      accessChecked = true;
    }
  }

  private static final ClassValue<PropertyTable> TABLES = new ClassValue<>() {
    @Override
    protected PropertyTable computeValue(Class<?> type) {
      return Record.class.isAssignableFrom(type) ? forRecord(type) : forBean(type);
    }
  };

  private static final Member[] NONE = new Member[0];
  private static final int[] NO_INDICES = new int[0];

  private final Kind kind;
  private final Member[] readOrder;
  private final int[] writeOrder;

  private PropertyTable(Kind kind, List<Member> members) {
    this.kind = kind;
    this.readOrder = members.toArray(NONE);
    TreeMap<String, Integer> sorted = new TreeMap<>();
    for (int i = 0; i < readOrder.length; i++) {
      sorted.put(readOrder[i].quotedName, i); // a later member of the same name replaces an earlier one
    }
    this.writeOrder = sorted.isEmpty() ? NO_INDICES : new int[sorted.size()];
    int j = 0;
    for (Map.Entry<String, Integer> e : sorted.entrySet()) {
      writeOrder[j++] = e.getValue();
    }
  }

  /** The table of {@code type}, resolved on first use. */
  public static PropertyTable of(Class<?> type) {
    return TABLES.get(type);
  }

  public Kind kind() {
    return kind;
  }

  /** Every member, in the order they are read. Shared: do not modify. */
  public Member[] readOrder() {
    return readOrder;
  }

  /** Indices into {@link #readOrder()} of the members written, in the order they are written. Shared: do not modify. */
  public int[] writeOrder() {
    return writeOrder;
  }

  private static PropertyTable forRecord(Class<?> type) {
    List<Member> members = new ArrayList<>();
    for (RecordComponent c : type.getRecordComponents()) {
      members.add(new Member(c.getName(), c.getAccessor(), null));
    }
    return new PropertyTable(Kind.PROPERTIES, members);
  }

  private static PropertyTable forBean(Class<?> type) {
    String pkg = type.getPackageName();
    if (pkg.startsWith("java.") || pkg.startsWith("javax.") || pkg.startsWith("jdk.") || pkg.startsWith("sun.")
        || pkg.startsWith("com.sun.") || type.isSynthetic() || type.isHidden()) {
      return new PropertyTable(Kind.NO_CANONICAL_FORM, List.of());
    }
    List<Member> members = new ArrayList<>();
    for (Method m : type.getMethods()) {
      String name = propertyName(m);
      if (name != null) {
        members.add(new Member(name, m, null));
      }
    }
    if (members.isEmpty()) {
      for (Field f : type.getFields()) {
        if (!Modifier.isStatic(f.getModifiers())) {
          members.add(new Member(f.getName(), null, f));
        }
      }
    }
    return new PropertyTable(members.isEmpty() ? Kind.NO_CONTENT : Kind.PROPERTIES, members);
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
}
