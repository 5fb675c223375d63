package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeSpec;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Writes {@code Foo_HfrModule}, a Dagger module binding {@code Foo} to {@code Foo_Recovering}, so a
 * component that includes it injects the recovering proxy wherever {@code Foo} is asked for.
 */
final class ModuleGenerator {

  private final GeneratedAnnotation generated;

  ModuleGenerator(GeneratedAnnotation generated) {
    this.generated = generated;
  }

  TypeSpec generate(TypeElement type) {
    ClassName tool = ClassName.get(type);
    ClassName proxy = GeneratedNames.proxy(type);
    TypeSpec.Builder spec = TypeSpec.classBuilder(GeneratedNames.module(type))
        .addJavadoc("Binds {@link $T} to {@link $T}: include it in a Dagger component that provides a\n"
            + "{@link $T}, and every injected {@code $T} runs its tools through HFR.\n",
            tool, proxy, RuntimeTypes.RECOVERY_ENGINE, tool)
        .addOriginatingElement(type)
        .addAnnotation(RuntimeTypes.DAGGER_MODULE)
        .addModifiers(Modifier.PUBLIC, Modifier.ABSTRACT);
    generated.addTo(spec);
    return spec
        .addMethod(MethodSpec.constructorBuilder().addModifiers(Modifier.PRIVATE).build())
        .addMethod(MethodSpec.methodBuilder("bind" + String.join("", tool.simpleNames()))
            .addAnnotation(RuntimeTypes.DAGGER_BINDS)
            .addModifiers(Modifier.ABSTRACT)
            .returns(tool)
            .addParameter(proxy, "recovering")
            .build())
        .build();
  }
}
