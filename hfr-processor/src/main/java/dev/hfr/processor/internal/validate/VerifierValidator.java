package dev.hfr.processor.internal.validate;

import dev.hfr.processor.internal.messages.ProxyMessages;
import dev.hfr.processor.internal.model.AsyncResults;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolMethod;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * {@code @Verify(by = X.class)}: X implements {@code dev.hfr.runtime.verify.Verifier} for a supertype of
 * the method's result and can be created by the descriptor ({@code new X()}: public, concrete, static if
 * nested, with a public no-argument constructor).
 */
public final class VerifierValidator implements Validator {

  static final String VERIFIER = "dev.hfr.runtime.verify.Verifier";

  private final Mirrors mirrors;
  private final Methods methods;
  private final Elements elements;
  private final Types types;

  public VerifierValidator(Mirrors mirrors, Methods methods, Elements elements) {
    this.mirrors = mirrors;
    this.methods = methods;
    this.elements = elements;
    this.types = methods.types();
  }

  @Override
  public void validate(ToolClass tools, ValidationReport report) {
    TypeElement verifierInterface = elements.getTypeElement(VERIFIER);
    if (verifierInterface == null) {
      return; // the runtime is missing, which the processor reports once for the class
    }
    for (ToolMethod tool : tools.tools()) {
      if (tool.verifier() == null || !(tool.verifier() instanceof DeclaredType declared)) {
        continue;
      }
      TypeElement verifier = (TypeElement) declared.asElement();
      String verifierName = verifier.getSimpleName().toString();
      var byValue = mirrors.explicit(tool.verify(), "by");
      if (!types.isAssignable(types.erasure(declared), types.erasure(verifierInterface.asType()))) {
        report.error(ProxyMessages.notVerifier(tool.name(), verifierName), tool.element(), tool.verify(), byValue);
        continue;
      }
      if (!instantiable(verifier)) {
        report.error(ProxyMessages.verifierNotInstantiable(tool.name(), verifierName), tool.element(), tool.verify(),
            byValue);
        continue;
      }
      TypeMirror checked = checkedType(declared, verifierInterface);
      TypeMirror result = tool.element().getReturnType().getKind() == TypeKind.VOID
          ? elements.getTypeElement("java.lang.Void").asType()
          : methods.boxed(AsyncResults.resultType(tool.element()));
      if (checked != null && checked.getKind() == TypeKind.DECLARED && !types.isAssignable(result, checked)) {
        report.error(ProxyMessages.verifierResultType(tool.name(), verifierName, checked.toString(), result.toString()),
            tool.element(), tool.verify(), byValue);
      }
    }
  }

  private static boolean instantiable(TypeElement verifier) {
    if (!verifier.getModifiers().contains(Modifier.PUBLIC) || verifier.getModifiers().contains(Modifier.ABSTRACT)) {
      return false;
    }
    if (verifier.getNestingKind().isNested() && !verifier.getModifiers().contains(Modifier.STATIC)) {
      return false;
    }
    for (ExecutableElement constructor : ElementFilter.constructorsIn(verifier.getEnclosedElements())) {
      if (constructor.getParameters().isEmpty() && constructor.getModifiers().contains(Modifier.PUBLIC)) {
        return true;
      }
    }
    return false;
  }

  /** The R of {@code Verifier<R>} as {@code type} implements it, or {@code null} if raw or unknown. */
  private TypeMirror checkedType(TypeMirror type, TypeElement verifierInterface) {
    if (type instanceof DeclaredType declared && declared.asElement().equals(verifierInterface)) {
      return declared.getTypeArguments().isEmpty() ? null : declared.getTypeArguments().get(0);
    }
    for (TypeMirror supertype : types.directSupertypes(type)) {
      TypeMirror found = checkedType(supertype, verifierInterface);
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
