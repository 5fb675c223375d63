package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.ReconcileMessages;
import dev.hfr.processor.internal.model.AsyncResults;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;

/**
 * Rule 3: an R2 (queryable write) names a reconcile method that exists, takes the same arguments and
 * returns {@code Optional<R>}; any named reconcile method is checked the same way. Warns when a
 * reconcile method is never called (R0) or suggests R2 (R3).
 */
public final class ReconcileRequiredValidator implements Validator {

  private final Mirrors mirrors;
  private final Methods methods;
  private final TargetResolver resolver;

  public ReconcileRequiredValidator(Mirrors mirrors, Methods methods) {
    this.mirrors = mirrors;
    this.methods = methods;
    this.resolver = new TargetResolver(methods);
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      ExecutableElement method = tool.element();
      boolean returnsVoid = method.getReturnType().getKind() == TypeKind.VOID;
      // An asynchronous tool's reconcile method answers with its result type R, not with a stage.
      String resultType = returnsVoid ? "..." : methods.boxed(AsyncResults.resultType(method)).toString();
      AnnotationValue value = mirrors.explicit(tool.sideEffect(), "reconcile");
      if (tool.reconcile() == null) {
        if (tool.risk() == Risk.R2) {
          report.error(ReconcileMessages.missing(tool.name(), resultType), method, tool.sideEffect());
        }
        continue;
      }
      if (tool.risk() == Risk.R0) {
        report.warning(ReconcileMessages.reconcileOnRead(tool.name()), method, tool.sideEffect(), value);
      } else if (tool.risk() == Risk.R3) {
        report.warning(ReconcileMessages.reconcileOnIrreversible(tool.name()), method, tool.sideEffect(), value);
      }
      if (returnsVoid) {
        report.error(ReconcileMessages.voidWrite(tool.name()), method, tool.sideEffect(), value);
        continue;
      }
      TargetResolver.Resolution resolution = resolver.resolve(tools.element(), tool.reconcile(), method);
      switch (resolution.status()) {
        case NOT_FOUND -> report.error(ReconcileMessages.notFound(tool.name(), tool.reconcile(), tools.simpleName(),
            methods.closestName(tools.element(), tool.reconcile())),
            method, tool.sideEffect(), value);
        case WRONG_PARAMETERS -> report.error(ReconcileMessages.wrongParameters(tool.name(), tool.reconcile(),
            Methods.parameterList(method)), method, tool.sideEffect(), value);
        case AMBIGUOUS -> report.error(ReconcileMessages.ambiguous(tool.name(), tool.reconcile()), method,
            tool.sideEffect(), value);
        case FOUND -> {
          ExecutableElement target = resolution.method();
          String notCallable = Methods.notCallableBecause(target);
          if (notCallable != null) {
            report.error(ReconcileMessages.notCallable(tool.name(), tool.reconcile(), notCallable), method,
                tool.sideEffect(), value);
          } else if (!returnsOptionalOf(target, method)) {
            report.error(ReconcileMessages.wrongReturn(tool.name(), tool.reconcile(),
                target.getReturnType().toString(), resultType), method, tool.sideEffect(), value);
          }
        }
      }
    }
  }

  /** Whether {@code reconcile} returns {@code Optional<X>} with X assignable to the tool's (boxed) result. */
  private boolean returnsOptionalOf(ExecutableElement reconcile, ExecutableElement tool) {
    TypeMirror element = optionalElement(reconcile.getReturnType());
    return element != null && methods.types().isAssignable(element, methods.boxed(AsyncResults.resultType(tool)));
  }

  /** X of {@code Optional<X>} (the bound of {@code ? extends X}), or {@code null} for any other type. */
  static TypeMirror optionalElement(TypeMirror type) {
    if (!(type instanceof DeclaredType declared)
        || !declared.asElement().toString().equals("java.util.Optional")
        || declared.getTypeArguments().size() != 1) {
      return null;
    }
    TypeMirror argument = declared.getTypeArguments().get(0);
    if (argument instanceof WildcardType wildcard) {
      return wildcard.getExtendsBound();
    }
    return argument;
  }
}
