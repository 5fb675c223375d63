package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import com.palantir.javapoet.TypeVariableName;
import dev.hfr.processor.internal.model.AsyncResults;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Writes {@code Foo_Recovering extends Foo}: a descriptor constant per tool, constructors mirroring Foo's
 * with the engine first, a {@code create} factory per constructor, and an override per tool that hands
 * the call to the engine with a direct-call invocation ({@code executeAsync} for a tool returning {@code
 * CompletionStage<R>} or {@code CompletableFuture<R>}).
 */
final class ProxyGenerator {

  private static final Set<String> INJECT_ANNOTATIONS = Set.of("jakarta.inject.Inject", "javax.inject.Inject");
  private static final Set<String> QUALIFIER_META = Set.of("jakarta.inject.Qualifier", "javax.inject.Qualifier");
  private static final Set<String> SCOPE_META = Set.of("jakarta.inject.Scope", "javax.inject.Scope");

  private final Elements elements;
  private final GeneratedAnnotation generated;
  private final DescriptorWriter descriptors;
  private final InvocationWriter invocations = new InvocationWriter();

  ProxyGenerator(Elements elements, Mirrors mirrors, GeneratedAnnotation generated) {
    this.elements = elements;
    this.generated = generated;
    this.descriptors = new DescriptorWriter(mirrors);
  }

  TypeSpec generate(ToolClass tools, List<ToolPlan> plans) {
    TypeElement type = tools.element();
    ClassName proxy = GeneratedNames.proxy(type);
    List<TypeVariableName> typeVariables = type.getTypeParameters().stream()
        .map(TypeVariableName::get).collect(Collectors.toList());
    TypeName superclass = typeVariables.isEmpty()
        ? ClassName.get(type)
        : ParameterizedTypeName.get(ClassName.get(type), typeVariables.toArray(new TypeName[0]));
    TypeName proxyType = typeVariables.isEmpty()
        ? proxy
        : ParameterizedTypeName.get(proxy, typeVariables.toArray(new TypeName[0]));

    TypeSpec.Builder spec = TypeSpec.classBuilder(proxy)
        .addJavadoc("Runs the tools of {@link $T} through the HFR runtime.\n\n", ClassName.get(type))
        .addJavadoc("<p>Each tool method hands its call to the {@link $T} together with the tool's descriptor and\n"
            + "an invocation that calls the original method, its reconcile and compensate methods and its\n"
            + "degradation rungs directly. Generated from the annotations of {@link $T}; do not edit.\n",
            RuntimeTypes.RECOVERY_ENGINE, ClassName.get(type))
        .addOriginatingElement(type)
        .superclass(superclass)
        .addTypeVariables(typeVariables);
    generated.addTo(spec);
    copyAnnotations(type, SCOPE_META).forEach(spec::addAnnotation);
    if (type.getModifiers().contains(Modifier.PUBLIC)) {
      spec.addModifiers(Modifier.PUBLIC);
    }
    spec.addModifiers(Modifier.FINAL);

    for (ToolPlan plan : plans) {
      spec.addField(FieldSpec.builder(RuntimeTypes.TOOL_DESCRIPTOR, plan.constant(), Modifier.PRIVATE, Modifier.STATIC,
              Modifier.FINAL)
          .initializer(descriptors.initializer(tools, plan))
          .build());
    }
    spec.addField(FieldSpec.builder(ParameterizedTypeName.get(ClassName.get(List.class), RuntimeTypes.TOOL_DESCRIPTOR),
            "TOOLS", Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("The descriptors of every tool of {@link $T}, for its catalog.\n", ClassName.get(type))
        .initializer("$T.of($L)", List.class,
            plans.stream().map(ToolPlan::constant).collect(Collectors.joining(", ")))
        .build());

    Set<String> parameterNames = new HashSet<>();
    for (ToolPlan plan : plans) {
      plan.tool().element().getParameters().forEach(p -> parameterNames.add(p.getSimpleName().toString()));
    }
    // A tool parameter called "engine" would shadow the field; qualify it only then, to keep the common case plain.
    String engineRef = parameterNames.contains("engine") ? "this.engine" : "engine";
    spec.addField(RuntimeTypes.RECOVERY_ENGINE, "engine", Modifier.PRIVATE, Modifier.FINAL);

    List<ExecutableElement> constructors = ElementFilter.constructorsIn(type.getEnclosedElements()).stream()
        .filter(c -> !c.getModifiers().contains(Modifier.PRIVATE))
        .collect(Collectors.toList());
    ExecutableElement injected = injectedConstructor(constructors);
    for (ExecutableElement constructor : constructors) {
      spec.addMethod(constructor(constructor, constructor.equals(injected)));
    }
    for (ExecutableElement constructor : constructors) {
      spec.addMethod(factory(constructor, proxy, proxyType, typeVariables));
    }
    for (ToolPlan plan : plans) {
      spec.addMethod(override(plan, engineRef));
    }
    for (ToolPlan plan : plans) {
      spec.addType(invocations.write(plan, proxy));
    }
    return spec.build();
  }

  /** Foo's {@code @Inject} constructor, else its no-argument one, else none. */
  private ExecutableElement injectedConstructor(List<ExecutableElement> constructors) {
    if (elements.getTypeElement(RuntimeTypes.INJECT.canonicalName()) == null) {
      return null;
    }
    for (ExecutableElement constructor : constructors) {
      for (AnnotationMirror annotation : constructor.getAnnotationMirrors()) {
        if (INJECT_ANNOTATIONS.contains(qualifiedName(annotation))) {
          return constructor;
        }
      }
    }
    return constructors.stream().filter(c -> c.getParameters().isEmpty()).findFirst().orElse(null);
  }

  private MethodSpec constructor(ExecutableElement constructor, boolean inject) {
    Set<String> taken = new HashSet<>();
    constructor.getParameters().forEach(p -> taken.add(p.getSimpleName().toString()));
    String engine = GeneratedNames.unique("engine", taken);
    MethodSpec.Builder spec = MethodSpec.constructorBuilder()
        .addModifiers(access(constructor))
        .addParameter(RuntimeTypes.RECOVERY_ENGINE, engine)
        .addParameters(parameters(constructor, true))
        .varargs(constructor.isVarArgs())
        .addExceptions(thrown(constructor))
        .addStatement("super($L)", argumentNames(constructor))
        .addStatement("this.engine = $T.requireNonNull($N, $S)", Objects.class, engine, "engine");
    constructor.getTypeParameters().forEach(p -> spec.addTypeVariable(TypeVariableName.get(p)));
    if (inject) {
      spec.addAnnotation(RuntimeTypes.INJECT);
    }
    return spec.build();
  }

  private MethodSpec factory(ExecutableElement constructor, ClassName proxy, TypeName proxyType,
      List<TypeVariableName> typeVariables) {
    Set<String> taken = new HashSet<>();
    constructor.getParameters().forEach(p -> taken.add(p.getSimpleName().toString()));
    String engine = GeneratedNames.unique("engine", taken);
    String arguments = constructor.getParameters().isEmpty()
        ? engine
        : engine + ", " + argumentNames(constructor);
    MethodSpec.Builder spec = MethodSpec.methodBuilder("create")
        .addJavadoc("Creates the recovering proxy; its tool calls run through {@code $N}.\n", engine)
        .addModifiers(access(constructor))
        .addModifiers(Modifier.STATIC)
        .addTypeVariables(typeVariables)
        .returns(proxyType)
        .addParameter(RuntimeTypes.RECOVERY_ENGINE, engine)
        .addParameters(parameters(constructor, false))
        .varargs(constructor.isVarArgs())
        .addExceptions(thrown(constructor))
        .addStatement(typeVariables.isEmpty() ? "return new $T($L)" : "return new $T<>($L)", proxy, arguments);
    constructor.getTypeParameters().forEach(p -> spec.addTypeVariable(TypeVariableName.get(p)));
    return spec.build();
  }

  private MethodSpec override(ToolPlan plan, String engineRef) {
    ExecutableElement method = plan.tool().element();
    MethodSpec.Builder spec = MethodSpec.methodBuilder(plan.tool().name())
        .addAnnotation(Override.class)
        .addModifiers(access(method))
        .returns(TypeName.get(method.getReturnType()))
        .addParameters(parameters(method, false))
        .varargs(method.isVarArgs())
        .addExceptions(thrown(method));
    method.getTypeParameters().forEach(p -> spec.addTypeVariable(TypeVariableName.get(p)));

    String diamond = method.getTypeParameters().isEmpty() ? "" : "<>";
    if (AsyncResults.isAsync(method)) {
      // The engine's asynchronous driver: failures arrive in the returned stage, never thrown from here.
      return spec.addStatement("return $L.executeAsync($N, new $N$L($L))", engineRef, plan.constant(),
          plan.invocationClass(), diamond, argumentNames(method)).build();
    }
    CodeBlock call = CodeBlock.of("$L.execute($N, new $N$L($L))", engineRef, plan.constant(), plan.invocationClass(),
        diamond, argumentNames(method));
    boolean isVoid = method.getReturnType().getKind() == TypeKind.VOID;
    // No unwrapping: a call HFR ends without an accepted result throws its unchecked ToolCallException,
    // with the tool's own exception as the cause, so a caller's catch of a declared checked exception can
    // never resend a write HFR decided not to resend. The declared exceptions stay on the signature for
    // the modes that call the tool as it is (OFF, SHADOW).
    return spec.addStatement(isVoid ? "$L" : "return $L", call).build();
  }

  private List<ParameterSpec> parameters(ExecutableElement method, boolean withQualifiers) {
    List<ParameterSpec> parameters = new ArrayList<>();
    for (VariableElement parameter : method.getParameters()) {
      ParameterSpec.Builder spec = ParameterSpec.builder(TypeName.get(parameter.asType()),
          parameter.getSimpleName().toString());
      if (withQualifiers) {
        copyAnnotations(parameter, QUALIFIER_META).forEach(spec::addAnnotation);
      }
      parameters.add(spec.build());
    }
    return parameters;
  }

  /** The element's annotations whose type is meta-annotated with one of {@code metaAnnotations}. */
  private static List<AnnotationSpec> copyAnnotations(javax.lang.model.element.Element element, Set<String> metaAnnotations) {
    List<AnnotationSpec> copies = new ArrayList<>();
    for (AnnotationMirror annotation : element.getAnnotationMirrors()) {
      for (AnnotationMirror meta : annotation.getAnnotationType().asElement().getAnnotationMirrors()) {
        if (metaAnnotations.contains(qualifiedName(meta))) {
          copies.add(AnnotationSpec.get(annotation));
        }
      }
    }
    return copies;
  }

  private static String qualifiedName(AnnotationMirror annotation) {
    return ((TypeElement) annotation.getAnnotationType().asElement()).getQualifiedName().toString();
  }

  private static String argumentNames(ExecutableElement method) {
    return method.getParameters().stream().map(p -> p.getSimpleName().toString()).collect(Collectors.joining(", "));
  }

  private static List<TypeName> thrown(ExecutableElement method) {
    return method.getThrownTypes().stream().map(TypeName::get).collect(Collectors.toList());
  }

  /** The same access as the original member: public and protected stay, package-private stays package-private. */
  private static Modifier[] access(ExecutableElement member) {
    if (member.getModifiers().contains(Modifier.PUBLIC)) {
      return new Modifier[] {Modifier.PUBLIC};
    }
    if (member.getModifiers().contains(Modifier.PROTECTED)) {
      return new Modifier[] {Modifier.PROTECTED};
    }
    return new Modifier[0];
  }
}
