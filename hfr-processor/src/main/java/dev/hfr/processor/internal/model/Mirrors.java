package dev.hfr.processor.internal.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/** Reads annotation mirrors without loading annotation classes, so values can be reported on. */
public final class Mirrors {

  private final Elements elements;

  public Mirrors(Elements elements) {
    this.elements = elements;
  }

  /** The annotation of that qualified name on {@code element}, if present. */
  public Optional<AnnotationMirror> find(Element element, String qualifiedName) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) mirror.getAnnotationType().asElement();
      if (type.getQualifiedName().contentEquals(qualifiedName)) {
        return Optional.of(mirror);
      }
    }
    return Optional.empty();
  }

  /** The value the user wrote for {@code name}, or {@code null} when the default applies. */
  public AnnotationValue explicit(AnnotationMirror mirror, String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : mirror.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** The effective value of {@code name}: the user's, else the annotation's default. */
  public AnnotationValue value(AnnotationMirror mirror, String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e
        : elements.getElementValuesWithDefaults(mirror).entrySet()) {
      if (e.getKey().getSimpleName().contentEquals(name)) {
        return e.getValue();
      }
    }
    throw new IllegalArgumentException("no attribute " + name + " on " + mirror);
  }

  public String string(AnnotationMirror mirror, String name) {
    return String.valueOf(value(mirror, name).getValue());
  }

  public boolean bool(AnnotationMirror mirror, String name) {
    return Boolean.TRUE.equals(value(mirror, name).getValue());
  }

  public long number(AnnotationMirror mirror, String name) {
    Object v = value(mirror, name).getValue();
    return v instanceof Number n ? n.longValue() : 0L;
  }

  /** The simple name of an enum constant value, or {@code null} when the value does not resolve. */
  public String enumConstant(AnnotationValue value) {
    return value.getValue() instanceof VariableElement constant ? constant.getSimpleName().toString() : null;
  }

  /** The elements of an array value (a single value counts as an array of one). */
  @SuppressWarnings("unchecked")
  public List<? extends AnnotationValue> array(AnnotationValue value) {
    Object v = value.getValue();
    if (v instanceof List<?>) {
      return (List<? extends AnnotationValue>) v;
    }
    return List.of(value);
  }

  /** The class of a {@code Class<?>} value, or {@code null} when it does not resolve. */
  public TypeMirror type(AnnotationValue value) {
    return value.getValue() instanceof TypeMirror t ? t : null;
  }
}
