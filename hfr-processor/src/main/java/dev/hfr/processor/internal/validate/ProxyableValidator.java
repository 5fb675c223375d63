package dev.hfr.processor.internal.validate;

import dev.hfr.processor.internal.messages.ProxyMessages;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * Rule 9: the proxy {@code Foo_Recovering extends Foo} can be generated: the class is a concrete,
 * non-final, non-private top-level or static nested class with a non-private constructor, and no
 * annotated method is private, static or final.
 */
public final class ProxyableValidator implements Validator {

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    TypeElement type = tools.element();
    String name = tools.simpleName();
    if (type.getKind() != ElementKind.CLASS) {
      report.error(ProxyMessages.notAClass(name, kindName(type.getKind())), type);
      return;
    }
    if (type.getModifiers().contains(Modifier.FINAL)) {
      report.error(ProxyMessages.finalClass(name), type);
    }
    if (type.getModifiers().contains(Modifier.ABSTRACT)) {
      report.error(ProxyMessages.abstractClass(name), type);
    }
    if (type.getNestingKind().isNested() && !type.getModifiers().contains(Modifier.STATIC)) {
      report.error(ProxyMessages.innerClass(name), type);
    }
    for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
      if (e.getModifiers().contains(Modifier.PRIVATE)) {
        report.error(ProxyMessages.privateClass(e.getSimpleName().toString()), type);
        break;
      }
    }
    boolean constructible = ElementFilter.constructorsIn(type.getEnclosedElements()).stream()
        .anyMatch(c -> !c.getModifiers().contains(Modifier.PRIVATE));
    if (!constructible) {
      report.error(ProxyMessages.noConstructor(name), type);
    }
    List<ExecutableElement> annotated = new ArrayList<>(tools.annotatedNonTools());
    tools.tools().stream().map(ToolMethod::element).forEach(annotated::add);
    for (ExecutableElement method : annotated) {
      for (Modifier modifier : List.of(Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)) {
        if (method.getModifiers().contains(modifier)) {
          report.error(ProxyMessages.methodModifier(method.getSimpleName().toString(), modifier.toString()), method);
        }
      }
    }
  }

  private static String kindName(ElementKind kind) {
    return switch (kind) {
      case INTERFACE -> "an interface";
      case ENUM -> "an enum";
      case ANNOTATION_TYPE -> "an annotation type";
      default -> "a " + kind.name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
