package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.ClassName;
import java.util.Locale;
import java.util.Set;
import javax.lang.model.element.TypeElement;

/** The names of generated types and members. */
public final class GeneratedNames {

  private GeneratedNames() {}

  /** {@code com.acme.Shop} -> {@code com.acme.Shop_<suffix>}; nested {@code Outer.Inner} -> {@code Outer_Inner_<suffix>}. */
  public static ClassName sibling(TypeElement type, String suffix) {
    ClassName name = ClassName.get(type);
    return ClassName.get(name.packageName(), String.join("_", name.simpleNames()) + "_" + suffix);
  }

  public static ClassName proxy(TypeElement type) {
    return sibling(type, "Recovering");
  }

  public static ClassName catalog(TypeElement type) {
    return sibling(type, "HfrCatalog");
  }

  public static ClassName module(TypeElement type) {
    return sibling(type, "HfrModule");
  }

  /** {@code createOrder} -> {@code CREATE_ORDER}. */
  static String constant(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }

  /** {@code createOrder} -> {@code CreateOrder}. */
  static String capitalized(String camel) {
    return Character.toUpperCase(camel.charAt(0)) + camel.substring(1);
  }

  /** {@code base}, or {@code base2}, {@code base3}... whichever is not taken yet; the result is added to {@code taken}. */
  static String unique(String base, Set<String> taken) {
    String name = base;
    for (int i = 2; taken.contains(name); i++) {
      name = base + i;
    }
    taken.add(name);
    return name;
  }
}
