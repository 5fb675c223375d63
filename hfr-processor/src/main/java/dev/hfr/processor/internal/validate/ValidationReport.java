package dev.hfr.processor.internal.validate;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * The diagnostics found in one class, collected first and printed together, each on the most precise
 * location known: the annotation value, else the annotation, else the element.
 */
public final class ValidationReport {

  private record Item(Diagnostic.Kind kind, String message, Element element, AnnotationMirror mirror,
      AnnotationValue value) {}

  private final List<Item> items = new ArrayList<>();

  public void error(String message, Element element) {
    items.add(new Item(Diagnostic.Kind.ERROR, message, element, null, null));
  }

  public void error(String message, Element element, AnnotationMirror mirror) {
    items.add(new Item(Diagnostic.Kind.ERROR, message, element, mirror, null));
  }

  /** An error on {@code value} of {@code mirror}; on the annotation itself when {@code value} is {@code null}. */
  public void error(String message, Element element, AnnotationMirror mirror, AnnotationValue value) {
    items.add(new Item(Diagnostic.Kind.ERROR, message, element, mirror, value));
  }

  public void warning(String message, Element element) {
    items.add(new Item(Diagnostic.Kind.WARNING, message, element, null, null));
  }

  public void warning(String message, Element element, AnnotationMirror mirror) {
    items.add(new Item(Diagnostic.Kind.WARNING, message, element, mirror, null));
  }

  public void warning(String message, Element element, AnnotationMirror mirror, AnnotationValue value) {
    items.add(new Item(Diagnostic.Kind.WARNING, message, element, mirror, value));
  }

  public boolean hasErrors() {
    return items.stream().anyMatch(i -> i.kind() == Diagnostic.Kind.ERROR);
  }

  /** Prints every diagnostic, in the order found. */
  public void printTo(ProcessingEnvironment env) {
    Messager messager = env.getMessager();
    NestedAnnotationLocator nested = null;
    for (Item item : items) {
      if (item.mirror() != null && !item.element().getAnnotationMirrors().contains(item.mirror())) {
        // A repeated annotation lives inside its container, where javac's Messager cannot find it.
        nested = nested != null ? nested : NestedAnnotationLocator.create(env);
        if (nested != null && nested.print(item.kind(), item.message(), item.element(), item.mirror(), item.value())) {
          continue;
        }
      }
      if (item.value() != null) {
        messager.printMessage(item.kind(), item.message(), item.element(), item.mirror(), item.value());
      } else if (item.mirror() != null) {
        messager.printMessage(item.kind(), item.message(), item.element(), item.mirror());
      } else {
        messager.printMessage(item.kind(), item.message(), item.element());
      }
    }
  }
}
