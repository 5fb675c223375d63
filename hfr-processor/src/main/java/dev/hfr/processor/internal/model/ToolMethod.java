package dev.hfr.processor.internal.model;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * A method carrying {@code @SideEffect}: a tool the proxy runs through the engine.
 *
 * @param element the method
 * @param sideEffect its {@code @SideEffect}
 * @param risk the declared risk
 * @param reconcile the reconcile method's name, or {@code null}
 * @param compensate the compensate method's name, or {@code null}
 * @param requiresApproval whether every call needs approval
 * @param idempotent its {@code @Idempotent}, or {@code null}
 * @param keyParameters the parameters marked {@code @IdempotencyKey}
 * @param verify its {@code @Verify}, or {@code null}
 * @param verifyLevel the verification level (V0 without {@code @Verify})
 * @param verifier the {@code @Verify(by = ...)} class, or {@code null} for the level's built-in check
 * @param retry its {@code @Retry}, or {@code null}
 * @param rungs its degradation ladder, in order
 * @param criticality the method's own criticality, or {@code null}
 * @param timeout the method's own {@code @Timeout}, or {@code null}
 */
public record ToolMethod(
    ExecutableElement element,
    AnnotationMirror sideEffect,
    Risk risk,
    String reconcile,
    String compensate,
    boolean requiresApproval,
    AnnotationMirror idempotent,
    List<VariableElement> keyParameters,
    AnnotationMirror verify,
    VerifyLevel verifyLevel,
    TypeMirror verifier,
    RetrySettings retry,
    List<DegradeRung> rungs,
    Criticality.Level criticality,
    TimeoutSetting timeout) {

  /** The method's simple name. */
  public String name() {
    return element.getSimpleName().toString();
  }

  /** The index of the single {@code @IdempotencyKey} parameter, or -1. */
  public int keyParameterIndex() {
    if (keyParameters.size() != 1) {
      return -1;
    }
    return element.getParameters().indexOf(keyParameters.get(0));
  }
}
