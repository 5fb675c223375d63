package dev.hfr.processor.internal.generate;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeSpec;
import javax.lang.model.util.Elements;

/** The one place that marks generated types with {@code @Generated}. */
final class GeneratedAnnotation {

  static final String GENERATOR = "dev.hfr.processor.HfrProcessor";
  private static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");

  private final boolean available;

  GeneratedAnnotation(Elements elements) {
    // javax.annotation.processing.Generated exists from Java 9; older targets simply get no marker.
    this.available = elements.getTypeElement(GENERATED.canonicalName()) != null;
  }

  TypeSpec.Builder addTo(TypeSpec.Builder type) {
    if (available) {
      type.addAnnotation(AnnotationSpec.builder(GENERATED).addMember("value", "$S", GENERATOR).build());
    }
    return type;
  }
}
