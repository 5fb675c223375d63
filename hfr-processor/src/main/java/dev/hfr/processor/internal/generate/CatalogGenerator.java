package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import java.util.List;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;

/**
 * Writes {@code Foo_HfrCatalog}, the registry entry of Foo's tools, found through
 * {@link java.util.ServiceLoader}. One catalog per class keeps incremental builds right: recompiling Foo
 * rewrites only Foo's catalog.
 */
final class CatalogGenerator {

  private final GeneratedAnnotation generated;

  CatalogGenerator(GeneratedAnnotation generated) {
    this.generated = generated;
  }

  TypeSpec generate(TypeElement type) {
    TypeSpec.Builder spec = TypeSpec.classBuilder(GeneratedNames.catalog(type))
        .addJavadoc("The tools of {@link $T}, for the tool registry.\n", ClassName.get(type))
        .addOriginatingElement(type)
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(RuntimeTypes.TOOL_CATALOG);
    generated.addTo(spec);
    return spec
        .addMethod(MethodSpec.methodBuilder("tools")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(ParameterizedTypeName.get(ClassName.get(List.class), RuntimeTypes.TOOL_DESCRIPTOR))
            .addStatement("return $T.TOOLS", GeneratedNames.proxy(type))
            .build())
        .build();
  }
}
