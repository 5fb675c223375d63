package dev.hfr.runtime.ledger.internal;

/**
 * Where a value sits inside the arguments being made canonical, from the root {@code $}: {@code
 * $[0]["lines"][2]}. Built as a chain of small nodes and turned into text only when an error has to name
 * it, so walking a healthy argument list builds no path strings at all.
 */
public final class ValuePath {

  /** The arguments themselves. */
  public static final ValuePath ROOT = new ValuePath(null, "$", null, -1);

  private final ValuePath parent;
  private final String prefix;
  private final String text;
  private final int index;

  private ValuePath(ValuePath parent, String prefix, String text, int index) {
    this.parent = parent;
    this.prefix = prefix;
    this.text = text;
    this.index = index;
  }

  /** The {@code i}-th element of a list, array or set: {@code [i]}. */
  public ValuePath element(int i) {
    return new ValuePath(this, "[", null, i);
  }

  /** The entry of a map (or the property of a record or bean) under the canonical key {@code key}: {@code [key]}. */
  public ValuePath entry(String key) {
    return new ValuePath(this, "[", key, -1);
  }

  /** A key of this map, while the key itself is made canonical: {@code {key}}. */
  public ValuePath mapKey() {
    return new ValuePath(this, "{key}", null, -1);
  }

  /** A property of this record or bean while it is read: {@code .name}. */
  public ValuePath property(String name) {
    return new ValuePath(this, ".", name, -1);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    appendTo(b);
    return b.toString();
  }

  private void appendTo(StringBuilder b) {
    if (parent == null) {
      b.append(prefix);
      return;
    }
    parent.appendTo(b);
    b.append(prefix);
    if (text != null) {
      b.append(text);
    } else if (index >= 0) {
      b.append(index);
    }
    if (prefix.equals("[")) {
      b.append(']');
    }
  }
}
