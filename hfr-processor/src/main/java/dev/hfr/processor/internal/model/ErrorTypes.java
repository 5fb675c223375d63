package dev.hfr.processor.internal.model;

import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * Finds types that do not resolve (yet) in what the processor reads of a class: its supertypes, the
 * signatures of its methods and constructors, and the values of its HFR annotations. Such a class is
 * deferred to the next round (another processor may generate the type), and reported in the last.
 */
public final class ErrorTypes {

  private ErrorTypes() {}

  /** Whether anything the processor reads of {@code type} refers to a type that does not resolve. */
  public static boolean anyIn(TypeElement type) {
    if (erroneous(type.getSuperclass()) || type.getInterfaces().stream().anyMatch(ErrorTypes::erroneous)) {
      return true;
    }
    for (Element member : type.getEnclosedElements()) {
      if (member.getKind() != ElementKind.METHOD && member.getKind() != ElementKind.CONSTRUCTOR) {
        continue;
      }
      ExecutableElement executable = (ExecutableElement) member;
      if (erroneous(executable.getReturnType())
          || executable.getThrownTypes().stream().anyMatch(ErrorTypes::erroneous)
          || erroneousAnnotations(executable)) {
        return true;
      }
      for (VariableElement parameter : executable.getParameters()) {
        if (erroneous(parameter.asType()) || erroneousAnnotations(parameter)) {
          return true;
        }
      }
    }
    return erroneousAnnotations(type);
  }

  private static boolean erroneousAnnotations(Element element) {
    for (AnnotationMirror annotation : element.getAnnotationMirrors()) {
      if (annotation.getAnnotationType().getKind() == TypeKind.ERROR) {
        continue; // javac reports an unknown annotation itself; it is none of ours
      }
      String name = ((TypeElement) annotation.getAnnotationType().asElement()).getQualifiedName().toString();
      if (HfrAnnotations.ALL.contains(name) && erroneous(annotation)) {
        return true;
      }
    }
    return false;
  }

  private static boolean erroneous(AnnotationMirror annotation) {
    for (var entry : annotation.getElementValues().entrySet()) {
      if (erroneous(entry.getKey().getReturnType(), entry.getValue())) {
        return true;
      }
    }
    return false;
  }

  /** Whether a value does not have the shape its attribute's type requires (javac's stand-in for an error). */
  private static boolean erroneous(TypeMirror expected, AnnotationValue value) {
    Object v = value.getValue();
    if (expected.getKind() == TypeKind.ARRAY) {
      if (!(v instanceof List<?> list)) {
        return erroneous(((ArrayType) expected).getComponentType(), value);
      }
      TypeMirror component = ((ArrayType) expected).getComponentType();
      return list.stream().anyMatch(item -> !(item instanceof AnnotationValue av) || erroneous(component, av));
    }
    if (expected.getKind() == TypeKind.DECLARED) {
      Element element = ((DeclaredType) expected).asElement();
      if (element.getKind() == ElementKind.ENUM) {
        return !(v instanceof VariableElement);
      }
      if (element.getKind() == ElementKind.ANNOTATION_TYPE) {
        return !(v instanceof AnnotationMirror nested) || erroneous(nested);
      }
      if (((TypeElement) element).getQualifiedName().contentEquals("java.lang.Class")) {
        return !(v instanceof TypeMirror t) || erroneous(t);
      }
    }
    return false;
  }

  /** Whether {@code type} or one of its type arguments, bounds or components is an error type. */
  public static boolean erroneous(TypeMirror type) {
    if (type == null) {
      return false;
    }
    switch (type.getKind()) {
      case ERROR:
        return true;
      case ARRAY:
        return erroneous(((ArrayType) type).getComponentType());
      case WILDCARD:
        WildcardType wildcard = (WildcardType) type;
        return erroneous(wildcard.getExtendsBound()) || erroneous(wildcard.getSuperBound());
      case DECLARED:
        return ((DeclaredType) type).getTypeArguments().stream().anyMatch(ErrorTypes::erroneous);
      default:
        return false;
    }
  }
}
