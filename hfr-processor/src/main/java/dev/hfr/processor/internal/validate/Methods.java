package dev.hfr.processor.internal.validate;

import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/** Finds the methods a tool names (reconcile, compensate, degradation targets) and compares signatures. */
public final class Methods {

  private final Elements elements;
  private final Types types;

  public Methods(Elements elements, Types types) {
    this.elements = elements;
    this.types = types;
  }

  public Types types() {
    return types;
  }

  /** The methods called {@code name} that {@code type} declares or inherits, {@link Object}'s excluded. */
  public List<ExecutableElement> named(TypeElement type, String name) {
    return ElementFilter.methodsIn(elements.getAllMembers(type)).stream()
        .filter(m -> m.getSimpleName().contentEquals(name))
        .filter(m -> !((TypeElement) m.getEnclosingElement()).getQualifiedName().contentEquals("java.lang.Object"))
        .collect(Collectors.toList());
  }

  /**
   * The method of {@code type} a misspelt {@code name} most likely meant (declared or inherited, {@link Object}'s
   * excluded), or {@code null} when no name is close.
   */
  public String closestName(TypeElement type, String name) {
    return NameSuggestions.closest(name, ElementFilter.methodsIn(elements.getAllMembers(type)).stream()
        .filter(m -> !((TypeElement) m.getEnclosingElement()).getQualifiedName().contentEquals("java.lang.Object"))
        .map(m -> m.getSimpleName().toString())
        .collect(Collectors.toCollection(java.util.TreeSet::new)));
  }

  /** Whether {@code target} can be called with the arguments {@code source} received, in the same order. */
  public boolean acceptsArgumentsOf(ExecutableElement target, ExecutableElement source) {
    if (target.getParameters().size() != source.getParameters().size()) {
      return false;
    }
    for (int i = 0; i < source.getParameters().size(); i++) {
      TypeMirror from = source.getParameters().get(i).asType();
      TypeMirror to = target.getParameters().get(i).asType();
      if (!types.isAssignable(from, to)) {
        return false;
      }
    }
    return true;
  }

  /** The boxed form of a primitive type; other types unchanged. */
  public TypeMirror boxed(TypeMirror type) {
    return type.getKind().isPrimitive() ? types.boxedClass(types.getPrimitiveType(type.getKind())).asType() : type;
  }

  /** Whether a value returned by {@code target} can be returned by {@code source} (void only to void). */
  public boolean returnsCompatible(ExecutableElement target, ExecutableElement source) {
    TypeMirror expected = source.getReturnType();
    TypeMirror actual = target.getReturnType();
    if (expected.getKind() == TypeKind.VOID || actual.getKind() == TypeKind.VOID) {
      return expected.getKind() == actual.getKind();
    }
    return types.isAssignable(boxed(actual), boxed(expected));
  }

  /** The parameter list as written, e.g. {@code String sku, int quantity}. */
  public static String parameterList(ExecutableElement method) {
    return method.getParameters().stream()
        .map(p -> p.asType() + " " + p.getSimpleName())
        .collect(Collectors.joining(", "));
  }

  /** Why the proxy could not call {@code method} directly ({@code "private"}, {@code "static"}), or {@code null}. */
  public static String notCallableBecause(ExecutableElement method) {
    if (method.getModifiers().contains(Modifier.PRIVATE)) {
      return "private";
    }
    if (method.getModifiers().contains(Modifier.STATIC)) {
      return "static";
    }
    if (method.getModifiers().contains(Modifier.ABSTRACT)) {
      return "abstract";
    }
    return null;
  }

  /** Whether {@code method} overrides one of {@link Object}'s public methods (equals, hashCode, toString). */
  public boolean overridesObjectMethod(ExecutableElement method, TypeElement owner) {
    TypeElement object = elements.getTypeElement("java.lang.Object");
    for (ExecutableElement m : ElementFilter.methodsIn(object.getEnclosedElements())) {
      if (m.getKind() == ElementKind.METHOD && elements.overrides(method, m, owner)) {
        return true;
      }
    }
    return false;
  }
}
