package dev.hfr.processor.internal.model;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/** Reads a {@link ToolClass} from a class element. It only reads; the validators judge. */
public final class ToolClassReader {

  private final Mirrors mirrors;

  public ToolClassReader(Mirrors mirrors) {
    this.mirrors = mirrors;
  }

  public ToolClass read(TypeElement type) {
    List<ToolMethod> tools = new ArrayList<>();
    List<ExecutableElement> annotatedNonTools = new ArrayList<>();
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      Optional<AnnotationMirror> sideEffect = mirrors.find(method, HfrAnnotations.SIDE_EFFECT);
      if (sideEffect.isPresent()) {
        tools.add(readTool(method, sideEffect.get()));
      } else if (hasAnyHfrAnnotation(method)) {
        annotatedNonTools.add(method);
      }
    }
    Criticality.Level classCriticality = mirrors.find(type, HfrAnnotations.CRITICALITY)
        .map(m -> criticality(m))
        .orElse(null);
    TimeoutSetting classTimeout = mirrors.find(type, HfrAnnotations.TIMEOUT).map(m -> timeout(m, type)).orElse(null);
    return new ToolClass(type, List.copyOf(tools), List.copyOf(annotatedNonTools), classCriticality, classTimeout);
  }

  private boolean hasAnyHfrAnnotation(ExecutableElement method) {
    for (String name : HfrAnnotations.TOOL_ONLY) {
      if (mirrors.find(method, name).isPresent()) {
        return true;
      }
    }
    return method.getParameters().stream().anyMatch(p -> mirrors.find(p, HfrAnnotations.IDEMPOTENCY_KEY).isPresent());
  }

  private ToolMethod readTool(ExecutableElement method, AnnotationMirror sideEffect) {
    Risk risk = Risk.valueOf(mirrors.enumConstant(mirrors.value(sideEffect, "value")));
    String reconcile = blankToNull(mirrors.string(sideEffect, "reconcile"));
    String compensate = blankToNull(mirrors.string(sideEffect, "compensate"));
    boolean requiresApproval = mirrors.bool(sideEffect, "requiresApproval");

    AnnotationMirror idempotent = mirrors.find(method, HfrAnnotations.IDEMPOTENT).orElse(null);
    List<VariableElement> keys = new ArrayList<>();
    for (VariableElement parameter : method.getParameters()) {
      if (mirrors.find(parameter, HfrAnnotations.IDEMPOTENCY_KEY).isPresent()) {
        keys.add(parameter);
      }
    }

    AnnotationMirror verify = mirrors.find(method, HfrAnnotations.VERIFY).orElse(null);
    VerifyLevel verifyLevel = VerifyLevel.V0;
    TypeMirror verifier = null;
    if (verify != null) {
      verifyLevel = VerifyLevel.valueOf(mirrors.enumConstant(mirrors.value(verify, "level")));
      TypeMirror by = mirrors.type(mirrors.value(verify, "by"));
      if (by != null && !isVoid(by)) {
        verifier = by;
      }
    }

    RetrySettings retry = mirrors.find(method, HfrAnnotations.RETRY).map(this::retry).orElse(null);
    Criticality.Level criticality = mirrors.find(method, HfrAnnotations.CRITICALITY).map(this::criticality).orElse(null);
    return new ToolMethod(method, sideEffect, risk, reconcile, compensate, requiresApproval, idempotent,
        List.copyOf(keys), verify, verifyLevel, verifier, retry, rungs(method), criticality,
        mirrors.find(method, HfrAnnotations.TIMEOUT).map(m -> timeout(m, method)).orElse(null));
  }

  private RetrySettings retry(AnnotationMirror mirror) {
    List<Fault> on = new ArrayList<>();
    for (AnnotationValue v : mirrors.array(mirrors.value(mirror, "on"))) {
      on.add(Fault.valueOf(mirrors.enumConstant(v)));
    }
    return new RetrySettings(mirror, (int) mirrors.number(mirror, "maxAttempts"),
        mirrors.number(mirror, "baseDelayMs"), mirrors.number(mirror, "maxDelayMs"), List.copyOf(on));
  }

  private TimeoutSetting timeout(AnnotationMirror mirror, Element on) {
    return new TimeoutSetting(mirror, on, mirrors.number(mirror, "ms"));
  }

  private Criticality.Level criticality(AnnotationMirror mirror) {
    return Criticality.Level.valueOf(mirrors.enumConstant(mirrors.value(mirror, "value")));
  }

  /** The rungs in the order written, whether {@code @Degrade} appears once or repeated (in its container). */
  private List<DegradeRung> rungs(ExecutableElement method) {
    List<AnnotationMirror> degrades = new ArrayList<>();
    mirrors.find(method, HfrAnnotations.DEGRADE).ifPresent(degrades::add);
    mirrors.find(method, HfrAnnotations.DEGRADE_LIST).ifPresent(list -> {
      for (AnnotationValue v : mirrors.array(mirrors.value(list, "value"))) {
        degrades.add((AnnotationMirror) v.getValue());
      }
    });
    List<DegradeRung> rungs = new ArrayList<>();
    for (AnnotationMirror degrade : degrades) {
      AnnotationValue levelValue = mirrors.explicit(degrade, "level");
      rungs.add(new DegradeRung(degrade, mirrors.string(degrade, "to"), mirrors.value(degrade, "to"),
          DegradeLevel.valueOf(mirrors.enumConstant(mirrors.value(degrade, "level"))), levelValue));
    }
    return List.copyOf(rungs);
  }

  private static boolean isVoid(TypeMirror type) {
    return type.getKind() == TypeKind.VOID || type.toString().equals("java.lang.Void");
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
