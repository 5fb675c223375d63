package dev.hfr.processor.internal.validate;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.tools.Diagnostic;

/**
 * Puts a diagnostic on an annotation javac's {@code Messager} cannot find by itself: one repeated inside
 * its container ({@code @Degrade} twice is stored as one {@code @Degrade.List}), where javac falls back to
 * the method. It finds the written annotation in the source tree (the n-th {@code @Degrade} of the
 * method) and the attribute's assignment in it. Needs javac's tree API; without it the caller falls back
 * to the annotation's element.
 */
final class NestedAnnotationLocator {

  private final Trees trees;

  private NestedAnnotationLocator(Trees trees) {
    this.trees = trees;
  }

  /** A locator, or {@code null} when the compiler offers no source trees (not javac). */
  static NestedAnnotationLocator create(ProcessingEnvironment env) {
    try {
      return new NestedAnnotationLocator(Trees.instance(env));
    } catch (IllegalArgumentException | LinkageError notJavac) {
      return null;
    }
  }

  /**
   * Prints {@code message} on the written form of {@code mirror} (and of {@code value} in it, if given).
   *
   * @return whether it found the place; if not, nothing was printed
   */
  boolean print(Diagnostic.Kind kind, String message, Element element, AnnotationMirror mirror, AnnotationValue value) {
    AnnotationMirror container = containerOf(element, mirror);
    TreePath path = trees.getPath(element);
    if (container == null || path == null) {
      return false;
    }
    int index = indexIn(container, mirror);
    String simpleName = mirror.getAnnotationType().asElement().getSimpleName().toString();
    List<AnnotationTree> written = new ArrayList<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAnnotation(AnnotationTree tree, Void unused) {
        String type = tree.getAnnotationType().toString();
        if (type.equals(simpleName) || type.endsWith("." + simpleName)) {
          written.add(tree);
        }
        return super.visitAnnotation(tree, unused);
      }

      @Override
      public Void visitClass(com.sun.source.tree.ClassTree tree, Void unused) {
        return null; // annotations of nested members are not the element's
      }
    }.scan(modifiersOf(path.getLeaf()), null);
    if (index < 0 || index >= written.size()) {
      return false;
    }
    Tree target = written.get(index);
    String attribute = value == null ? null : attributeOf(mirror, value);
    if (attribute != null) {
      for (ExpressionTree argument : written.get(index).getArguments()) {
        if (argument instanceof AssignmentTree assignment
            && assignment.getVariable() instanceof IdentifierTree name
            && name.getName().contentEquals(attribute)) {
          target = assignment.getExpression();
        }
      }
    }
    CompilationUnitTree unit = path.getCompilationUnit();
    trees.printMessage(kind, message, target, unit);
    return true;
  }

  private static Tree modifiersOf(Tree leaf) {
    if (leaf instanceof com.sun.source.tree.MethodTree method) {
      return method.getModifiers();
    }
    if (leaf instanceof com.sun.source.tree.VariableTree variable) {
      return variable.getModifiers();
    }
    if (leaf instanceof com.sun.source.tree.ClassTree type) {
      return type.getModifiers();
    }
    return leaf;
  }

  /** The container annotation on {@code element} that holds {@code mirror}, or {@code null} if it is direct. */
  private static AnnotationMirror containerOf(Element element, AnnotationMirror mirror) {
    for (AnnotationMirror annotation : element.getAnnotationMirrors()) {
      if (annotation.equals(mirror)) {
        return null;
      }
      if (indexIn(annotation, mirror) >= 0) {
        return annotation;
      }
    }
    return null;
  }

  private static int indexIn(AnnotationMirror container, AnnotationMirror mirror) {
    for (AnnotationValue value : container.getElementValues().values()) {
      if (value.getValue() instanceof List<?> items) {
        for (int i = 0; i < items.size(); i++) {
          if (items.get(i) instanceof AnnotationValue item && item.getValue() == mirror) {
            return i;
          }
        }
      }
    }
    return -1;
  }

  private static String attributeOf(AnnotationMirror mirror, AnnotationValue value) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : mirror.getElementValues().entrySet()) {
      if (e.getValue() == value) {
        return e.getKey().getSimpleName().toString();
      }
    }
    return null;
  }
}
