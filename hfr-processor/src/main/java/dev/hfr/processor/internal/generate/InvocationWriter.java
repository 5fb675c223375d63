package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.TypeVariableName;
import dev.hfr.processor.internal.model.AsyncResults;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Writes the invocation class of one tool: a private inner class of the proxy, extending
 * {@code ToolInvocation<R>}, that holds the call's arguments and calls the tool method, its reconcile and
 * compensate methods and its degradation rungs directly through {@code Foo_Recovering.super}.
 */
final class InvocationWriter {

  private static final String LEDGER_KEY = "ledgerKey";

  /**
   * {@code ToolInvocation}'s type argument for this tool: the boxed result, {@code Void} for void methods,
   * {@code R} for an asynchronous tool's {@code CompletionStage<R>}.
   */
  static TypeName resultType(ExecutableElement method) {
    TypeMirror returnType = AsyncResults.resultType(method);
    return returnType.getKind() == TypeKind.VOID ? ClassName.get(Void.class) : TypeName.get(returnType).box();
  }

  TypeSpec write(ToolPlan plan, ClassName proxy) {
    ToolMethod tool = plan.tool();
    ExecutableElement method = tool.element();
    TypeName result = resultType(method);
    boolean async = AsyncResults.isAsync(method);
    TypeSpec.Builder type = TypeSpec.classBuilder(plan.invocationClass())
        .addJavadoc("One call of {@code $L}: its arguments and direct calls of the method, its recovery methods and"
            + " its rungs.\n", tool.name())
        .addModifiers(Modifier.PRIVATE, Modifier.FINAL)
        .superclass(ParameterizedTypeName.get(async ? RuntimeTypes.ASYNC_TOOL_INVOCATION : RuntimeTypes.TOOL_INVOCATION,
            result));
    method.getTypeParameters().forEach(p -> type.addTypeVariable(TypeVariableName.get(p)));

    MethodSpec.Builder constructor = MethodSpec.constructorBuilder();
    for (VariableElement parameter : method.getParameters()) {
      String name = parameter.getSimpleName().toString();
      TypeName parameterType = TypeName.get(parameter.asType());
      type.addField(parameterType, name, Modifier.PRIVATE, Modifier.FINAL);
      constructor.addParameter(parameterType, name).addStatement("this.$N = $N", name, name);
    }
    type.addMethod(constructor.build());
    type.addMethod(proceed(plan, proxy, async ? stageOf(result) : result, async ? "start" : "proceed"));
    type.addMethod(MethodSpec.methodBuilder("argumentCount")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(TypeName.INT)
        .addStatement("return $L", method.getParameters().size())
        .build());
    type.addMethod(argument(method));
    if (plan.reconcile() != null) {
      type.addMethod(reconcile(plan, proxy, result));
    }
    if (plan.compensate() != null) {
      type.addMethod(compensate(plan, proxy));
    }
    if (!plan.rungTargets().isEmpty()) {
      type.addMethod(degrade(plan, proxy, async ? stageOf(result) : result, async ? "startRung" : "degrade"));
    }
    return type.build();
  }

  private static TypeName stageOf(TypeName result) {
    return ParameterizedTypeName.get(ClassName.get(CompletionStage.class), result);
  }

  private MethodSpec proceed(ToolPlan plan, ClassName proxy, TypeName result, String methodName) {
    ToolMethod tool = plan.tool();
    ExecutableElement method = tool.element();
    int key = tool.idempotent() != null ? tool.keyParameterIndex() : -1;
    List<CodeBlock> arguments = new ArrayList<>();
    for (int i = 0; i < method.getParameters().size(); i++) {
      String name = method.getParameters().get(i).getSimpleName().toString();
      arguments.add(i == key
          ? CodeBlock.of("this.$N != null ? this.$N : $N", name, name, LEDGER_KEY)
          : CodeBlock.of("this.$N", name));
    }
    MethodSpec.Builder proceed = MethodSpec.methodBuilder(methodName)
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(result)
        .addParameter(String.class, LEDGER_KEY)
        .addExceptions(thrown(method));
    if (key >= 0) {
      proceed.addComment("A key the caller passed wins; otherwise the runtime's key, the same on every attempt.");
    }
    CodeBlock call = CodeBlock.of("$T.super.$N($L)", proxy, tool.name(), CodeBlock.join(arguments, ", "));
    return returnOrNull(proceed, method, call).build();
  }

  private static MethodSpec argument(ExecutableElement method) {
    CodeBlock.Builder body = CodeBlock.builder();
    int count = method.getParameters().size();
    if (count == 0) {
      body.addStatement("throw new $T($S + index)", IndexOutOfBoundsException.class,
          method.getSimpleName() + " takes no arguments; no argument ");
    } else {
      body.add("return switch (index) {\n$>");
      for (int i = 0; i < count; i++) {
        body.add("case $L -> this.$N;\n", i, method.getParameters().get(i).getSimpleName().toString());
      }
      body.add("default -> throw new $T($S + index);\n", IndexOutOfBoundsException.class,
          method.getSimpleName() + " takes " + count + (count == 1 ? " argument" : " arguments") + "; no argument ");
      body.add("$<};\n");
    }
    return MethodSpec.methodBuilder("argument")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(Object.class)
        .addParameter(TypeName.INT, "index")
        .addCode(body.build())
        .build();
  }

  private MethodSpec reconcile(ToolPlan plan, ClassName proxy, TypeName result) {
    ExecutableElement target = plan.reconcile();
    CodeBlock call = CodeBlock.of("$T.super.$N($L)", proxy, target.getSimpleName().toString(), forwardedArguments(plan));
    TypeMirror element = ((DeclaredType) target.getReturnType()).getTypeArguments().get(0);
    boolean sameType = element.getKind() == TypeKind.DECLARED && TypeName.get(element).equals(result);
    return MethodSpec.methodBuilder("reconcile")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(ParameterizedTypeName.get(ClassName.get(Optional.class), result))
        .addExceptions(thrown(target))
        // Optional<Sub> is not an Optional<R>: an identity map widens it without a cast.
        .addStatement(sameType ? "return $L" : "return $L.map(committed -> committed)", call)
        .build();
  }

  private MethodSpec compensate(ToolPlan plan, ClassName proxy) {
    ExecutableElement target = plan.compensate();
    return MethodSpec.methodBuilder("compensate")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addExceptions(thrown(target))
        .addStatement("$T.super.$N($L)", proxy, target.getSimpleName().toString(), forwardedArguments(plan))
        .build();
  }

  private MethodSpec degrade(ToolPlan plan, ClassName proxy, TypeName result, String methodName) {
    ExecutableElement method = plan.tool().element();
    boolean isVoid = method.getReturnType().getKind() == TypeKind.VOID;
    Set<TypeName> exceptions = new LinkedHashSet<>();
    CodeBlock.Builder body = CodeBlock.builder().add(isVoid ? "switch (rung) {\n$>" : "return switch (rung) {\n$>");
    List<ExecutableElement> targets = plan.rungTargets();
    for (int i = 0; i < targets.size(); i++) {
      ExecutableElement target = targets.get(i);
      exceptions.addAll(thrown(target));
      body.add("case $L -> $T.super.$N($L);\n", i, proxy, target.getSimpleName().toString(), forwardedArguments(plan));
    }
    body.add("default -> throw new $T($S + rung);\n", IndexOutOfBoundsException.class,
        plan.tool().name() + " has " + targets.size() + (targets.size() == 1 ? " rung" : " rungs") + "; no rung ");
    body.add(isVoid ? "$<}\n" : "$<};\n");
    if (isVoid) {
      body.addStatement("return null");
    }
    return MethodSpec.methodBuilder(methodName)
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(result)
        .addParameter(TypeName.INT, "rung")
        .addExceptions(exceptions)
        .addCode(body.build())
        .build();
  }

  /** The call's arguments as passed on to reconcile, compensate and rungs: exactly what the caller gave. */
  private static CodeBlock forwardedArguments(ToolPlan plan) {
    List<CodeBlock> arguments = new ArrayList<>();
    for (VariableElement parameter : plan.tool().element().getParameters()) {
      arguments.add(CodeBlock.of("this.$N", parameter.getSimpleName().toString()));
    }
    return CodeBlock.join(arguments, ", ");
  }

  private static MethodSpec.Builder returnOrNull(MethodSpec.Builder method, ExecutableElement called, CodeBlock call) {
    if (called.getReturnType().getKind() == TypeKind.VOID) {
      return method.addStatement("$L", call).addStatement("return null");
    }
    return method.addStatement("return $L", call);
  }

  private List<TypeName> thrown(ExecutableElement method) {
    List<TypeName> thrown = new ArrayList<>();
    for (TypeMirror type : method.getThrownTypes()) {
      thrown.add(TypeName.get(type));
    }
    return thrown;
  }
}
