package dev.hfr.processor.internal.validate;

import dev.hfr.processor.internal.messages.RiskMessages;
import dev.hfr.processor.internal.model.HfrAnnotations;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.HashSet;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.util.ElementFilter;

/**
 * Rule 1: risk is explicit. Every public instance method of a tool class carries {@code @SideEffect},
 * except reconcile methods (read-only by contract, including the one a misspelt reconcile name meant) and overrides of {@link Object}'s methods; and no
 * method carries tool annotations ({@code @Retry}, {@code @Degrade}, ...) without {@code @SideEffect}.
 */
public final class ExplicitRiskValidator implements Validator {

  private final Mirrors mirrors;
  private final Methods methods;

  public ExplicitRiskValidator(Mirrors mirrors, Methods methods) {
    this.mirrors = mirrors;
    this.methods = methods;
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    Set<String> reconcileTargets = new HashSet<>();
    for (ToolMethod tool : tools.tools()) {
      if (tool.reconcile() != null) {
        reconcileTargets.add(tool.reconcile());
        // A misspelt name is reported by the reconcile rule with "did you mean"; the method it meant is a
        // reconcile method, not a tool without a risk, so it gets no second error advising @SideEffect.
        if (methods.named(tools.element(), tool.reconcile()).isEmpty()) {
          String meant = methods.closestName(tools.element(), tool.reconcile());
          if (meant != null) {
            reconcileTargets.add(meant);
          }
        }
      }
    }
    for (ExecutableElement method : tools.annotatedNonTools()) {
      for (String annotation : HfrAnnotations.TOOL_ONLY) {
        mirrors.find(method, annotation).ifPresent(mirror -> report.error(
            RiskMessages.annotatedWithoutSideEffect(method.getSimpleName().toString(),
                HfrAnnotations.simpleName(annotation)), method, mirror));
      }
      method.getParameters().forEach(p -> mirrors.find(p, HfrAnnotations.IDEMPOTENCY_KEY).ifPresent(mirror ->
          report.error(RiskMessages.annotatedWithoutSideEffect(method.getSimpleName().toString(), "IdempotencyKey"),
              p, mirror)));
    }
    for (ExecutableElement method : ElementFilter.methodsIn(tools.element().getEnclosedElements())) {
      if (!method.getModifiers().contains(Modifier.PUBLIC)
          || method.getModifiers().contains(Modifier.STATIC)
          || tools.tool(method).isPresent()
          || tools.annotatedNonTools().contains(method)
          || reconcileTargets.contains(method.getSimpleName().toString())
          || methods.overridesObjectMethod(method, tools.element())) {
        continue;
      }
      report.error(RiskMessages.missingSideEffect(method.getSimpleName().toString()), method);
    }
  }
}
