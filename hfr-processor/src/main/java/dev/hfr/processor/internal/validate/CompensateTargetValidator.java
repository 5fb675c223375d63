package dev.hfr.processor.internal.validate;

import dev.hfr.annotations.Risk;
import dev.hfr.processor.internal.messages.ReconcileMessages;
import dev.hfr.processor.internal.model.HfrAnnotations;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;

/**
 * A named compensate method exists, takes the tool's arguments, can be called by the proxy, and declares
 * its own risk (it is a write). Warns about compensation of a read-only method.
 */
public final class CompensateTargetValidator implements Validator {

  private final Mirrors mirrors;
  private final TargetResolver resolver;

  public CompensateTargetValidator(Mirrors mirrors, Methods methods) {
    this.mirrors = mirrors;
    this.resolver = new TargetResolver(methods);
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    for (ToolMethod tool : tools.tools()) {
      if (tool.compensate() == null) {
        continue;
      }
      ExecutableElement method = tool.element();
      AnnotationValue value = mirrors.explicit(tool.sideEffect(), "compensate");
      if (tool.risk() == Risk.R0) {
        report.warning(ReconcileMessages.compensateOnRead(tool.name()), method, tool.sideEffect(), value);
      }
      TargetResolver.Resolution resolution = resolver.resolve(tools.element(), tool.compensate(), method);
      switch (resolution.status()) {
        case NOT_FOUND -> report.error(ReconcileMessages.compensateNotFound(tool.name(), tool.compensate(),
            tools.simpleName()), method, tool.sideEffect(), value);
        case WRONG_PARAMETERS -> report.error(ReconcileMessages.compensateWrongParameters(tool.name(),
            tool.compensate(), Methods.parameterList(method)), method, tool.sideEffect(), value);
        case AMBIGUOUS -> report.error(ReconcileMessages.compensateAmbiguous(tool.name(), tool.compensate()),
            method, tool.sideEffect(), value);
        case FOUND -> {
          ExecutableElement target = resolution.method();
          String notCallable = Methods.notCallableBecause(target);
          if (notCallable != null) {
            report.error(ReconcileMessages.compensateNotCallable(tool.name(), tool.compensate(), notCallable),
                method, tool.sideEffect(), value);
          } else if (mirrors.find(target, HfrAnnotations.SIDE_EFFECT).isEmpty()) {
            report.error(ReconcileMessages.compensateWithoutRisk(tool.name(), tool.compensate()), method,
                tool.sideEffect(), value);
          }
        }
      }
    }
  }
}
