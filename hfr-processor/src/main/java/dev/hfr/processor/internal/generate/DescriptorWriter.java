package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.processor.internal.model.AsyncResults;
import dev.hfr.processor.internal.model.DegradeRung;
import dev.hfr.processor.internal.model.HfrAnnotations;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.RetrySettings;
import dev.hfr.processor.internal.model.TimeoutSetting;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** Writes the initializer of a tool's {@code static final ToolDescriptor}: the builder, one call per fact. */
final class DescriptorWriter {

  private final Mirrors mirrors;

  DescriptorWriter(Mirrors mirrors) {
    this.mirrors = mirrors;
  }

  CodeBlock initializer(ToolClass tools, ToolPlan plan) {
    ToolMethod tool = plan.tool();
    ExecutableElement method = tool.element();
    CodeBlock.Builder code = CodeBlock.builder()
        .add("$T.builder($S, $S, $T.$L)$>$>", RuntimeTypes.TOOL_DESCRIPTOR,
            tools.element().getQualifiedName().toString(), tool.name(), RuntimeTypes.RISK, tool.risk().name());
    if (!method.getParameters().isEmpty()) {
      String names = method.getParameters().stream()
          .map(VariableElement::getSimpleName)
          .map(n -> CodeBlock.of("$S", n.toString()).toString())
          .collect(Collectors.joining(", "));
      code.add("\n.parameters($L)", names);
    }
    TypeName resultType = resultType(AsyncResults.resultType(method));
    if (resultType != null) {
      // V0 checks a result against it: non-null and of the declared type.
      code.add("\n.resultType($T.class)", resultType);
    }
    if (tool.idempotent() != null && tool.keyParameterIndex() >= 0) {
      code.add("\n.idempotencyKeyParameter($L)", tool.keyParameterIndex());
    }
    if (plan.reconcile() != null) {
      code.add("\n.reconcile($S)", tool.reconcile());
    }
    if (plan.compensate() != null) {
      code.add("\n.compensate($S)", tool.compensate());
    }
    if (tool.requiresApproval()) {
      code.add("\n.requiresApproval(true)");
    }
    if (tool.verify() != null) {
      if (tool.verifier() instanceof DeclaredType verifier) {
        TypeElement verifierType = (TypeElement) verifier.asElement();
        String diamond = verifierType.getTypeParameters().isEmpty() ? "" : "<>";
        code.add("\n.verify($T.$L, new $T$L())", RuntimeTypes.VERIFY_LEVEL, tool.verifyLevel().name(),
            ClassName.get(verifierType), diamond);
      } else {
        code.add("\n.verify($T.$L)", RuntimeTypes.VERIFY_LEVEL, tool.verifyLevel().name());
      }
    }
    if (tool.retry() != null) {
      code.add("\n.retry($L)", retrySpec(tool.retry()));
    }
    Criticality.Level criticality = tools.criticalityOf(tool);
    if (criticality != null) {
      code.add("\n.criticality($T.$L)", RuntimeTypes.CRITICALITY_LEVEL, criticality.name());
    }
    TimeoutSetting timeout = tools.timeoutOf(tool);
    if (timeout != null) {
      code.add("\n.timeoutMs($LL)", timeout.ms());
    }
    List<DegradeRung> rungs = tool.rungs();
    for (int i = 0; i < rungs.size(); i++) {
      AnnotationMirror targetSideEffect = mirrors.find(plan.rungTargets().get(i), HfrAnnotations.SIDE_EFFECT).orElseThrow();
      String targetRisk = mirrors.enumConstant(mirrors.value(targetSideEffect, "value"));
      code.add("\n.degradeTo($S, $T.$L, $T.$L)", rungs.get(i).to(), RuntimeTypes.DEGRADE_LEVEL,
          rungs.get(i).level().name(), RuntimeTypes.RISK, targetRisk);
    }
    return code.add("\n.build()$<$<").build();
  }

  /** The class literal of a result type: its raw type; none for {@code void} or a type variable. */
  private static TypeName resultType(TypeMirror type) {
    if (type.getKind() == TypeKind.VOID || type.getKind() == TypeKind.TYPEVAR) {
      return null;
    }
    TypeName name = TypeName.get(type);
    if (name instanceof ParameterizedTypeName parameterized) {
      return parameterized.rawType();
    }
    return name instanceof ArrayTypeName array && array.componentType() instanceof ParameterizedTypeName ? null : name;
  }

  private static CodeBlock retrySpec(RetrySettings retry) {
    CodeBlock.Builder code = CodeBlock.builder().add("$T.of($L, $LL, $LL", RuntimeTypes.RETRY_SPEC,
        retry.maxAttempts(), retry.baseDelayMs(), retry.maxDelayMs());
    for (Fault fault : retry.on()) {
      code.add(", $T.$L", RuntimeTypes.FAULT, fault.name());
    }
    return code.add(")").build();
  }
}
