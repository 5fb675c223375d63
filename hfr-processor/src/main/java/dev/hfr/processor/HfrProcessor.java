package dev.hfr.processor;

import com.google.auto.service.AutoService;
import dev.hfr.processor.internal.generate.CodeGenerator;
import dev.hfr.processor.internal.generate.ModuleProvides;
import dev.hfr.processor.internal.generate.ServiceFile;
import dev.hfr.processor.internal.messages.ProxyMessages;
import dev.hfr.processor.internal.model.ErrorTypes;
import dev.hfr.processor.internal.model.HfrAnnotations;
import dev.hfr.processor.internal.model.Mirrors;
import dev.hfr.processor.internal.model.ToolClass;
import dev.hfr.processor.internal.model.ToolClassReader;
import dev.hfr.processor.internal.validate.Methods;
import dev.hfr.processor.internal.validate.ValidationReport;
import dev.hfr.processor.internal.validate.Validators;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

/**
 * The HFR annotation processor. For every class with HFR annotations it checks the nine compile-time
 * rules (errors on the annotation value to change), and for a class that passes generates
 * {@code Foo_Recovering}, {@code Foo_HfrCatalog} (listed in
 * {@code META-INF/services/dev.hfr.runtime.registry.ToolCatalog}) and, with Dagger present,
 * {@code Foo_HfrModule}.
 *
 * <p>It never fails the compiler: a class whose types do not resolve yet is retried in the next round
 * and reported in the last; an unexpected exception becomes one error naming the class.
 */
@AutoService(Processor.class)
public final class HfrProcessor extends AbstractProcessor {

  private static final String RUNTIME_ENGINE = "dev.hfr.runtime.RecoveryEngine";

  /** Classes whose types did not resolve in an earlier round, by canonical name. */
  private final Set<String> deferred = new LinkedHashSet<>();
  /** Classes already validated (and generated), so later rounds leave them alone. */
  private final Set<String> done = new LinkedHashSet<>();
  /** Catalogs generated in this compilation, for the service file. */
  private final Set<String> catalogs = new TreeSet<>();

  private Elements elements;
  private Messager messager;
  private ToolClassReader reader;
  private Validators validators;
  private CodeGenerator generator;
  private ServiceFile serviceFile;
  private ModuleProvides moduleProvides;

  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    elements = env.getElementUtils();
    messager = env.getMessager();
    Mirrors mirrors = new Mirrors(elements);
    reader = new ToolClassReader(mirrors);
    validators = new Validators(mirrors, new Methods(elements, env.getTypeUtils()), elements);
    generator = new CodeGenerator(elements, env.getTypeUtils(), env.getFiler(), mirrors);
    serviceFile = new ServiceFile(env.getFiler());
    moduleProvides = new ModuleProvides(elements, messager);
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return new LinkedHashSet<>(HfrAnnotations.ALL);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    try {
      Set<String> candidates = new LinkedHashSet<>(deferred);
      deferred.clear();
      for (String name : HfrAnnotations.ALL) {
        TypeElement annotation = elements.getTypeElement(name);
        if (annotation == null) {
          continue;
        }
        for (Element element : round.getElementsAnnotatedWith(annotation)) {
          TypeElement owner = owningClass(element);
          if (owner != null) {
            candidates.add(owner.getQualifiedName().toString());
          }
        }
      }
      for (String name : candidates) {
        if (!done.contains(name)) {
          TypeElement type = elements.getTypeElement(name);
          if (type != null) {
            processClass(type, round.processingOver());
          }
        }
      }
      if (round.processingOver() && !catalogs.isEmpty()) {
        serviceFile.write(catalogs);
        moduleProvides.check(catalogs);
      }
    } catch (IOException | RuntimeException e) {
      messager.printMessage(Diagnostic.Kind.ERROR, ProxyMessages.internalError("a processing round", e));
    }
    // Never claim (like AutoValue): a processor that supports "*" and runs after this one must still see
    // classes whose only annotations are HFR's.
    return false;
  }

  private void processClass(TypeElement type, boolean lastRound) {
    String name = type.getQualifiedName().toString();
    try {
      if (ErrorTypes.anyIn(type)) {
        if (lastRound) {
          done.add(name);
          messager.printMessage(Diagnostic.Kind.ERROR, ProxyMessages.unresolvedType(type.getSimpleName().toString()), type);
        } else {
          deferred.add(name);
        }
        return;
      }
      done.add(name);
      if (elements.getTypeElement(RUNTIME_ENGINE) == null) {
        messager.printMessage(Diagnostic.Kind.ERROR, ProxyMessages.runtimeMissing(type.getSimpleName().toString()), type);
        return;
      }
      ToolClass tools = reader.read(type);
      ValidationReport report = validators.validate(tools);
      report.printTo(processingEnv);
      if (!report.hasErrors()) {
        catalogs.add(generator.generate(tools));
      }
    } catch (IOException | RuntimeException e) {
      done.add(name);
      messager.printMessage(Diagnostic.Kind.ERROR, ProxyMessages.internalError(name, e), type);
    }
  }

  /** The class whose member (method, parameter) or itself carries an HFR annotation. */
  private static TypeElement owningClass(Element element) {
    for (Element e = element; e != null; e = e.getEnclosingElement()) {
      if (e instanceof TypeElement type) {
        return type;
      }
    }
    return null;
  }
}
