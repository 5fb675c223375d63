package dev.hfr.processor.internal.generate;

import dev.hfr.processor.internal.messages.ModuleMessages;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.Messager;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

/**
 * Checks that a named module declares {@code provides dev.hfr.runtime.registry.ToolCatalog with ...} for every
 * catalog generated in it. The service file the processor writes is read only on the class path; in a named
 * module {@code ServiceLoader} reads the module descriptor alone, and the tools would silently be missing.
 */
public final class ModuleProvides {

  private final Elements elements;
  private final Messager messager;

  public ModuleProvides(Elements elements, Messager messager) {
    this.elements = elements;
    this.messager = messager;
  }

  /** Reports, on each named module's declaration, the catalogs it does not provide. */
  public void check(Set<String> catalogs) {
    Map<ModuleElement, List<String>> missing = new LinkedHashMap<>();
    for (String name : catalogs) {
      TypeElement catalog = elements.getTypeElement(name);
      ModuleElement module = catalog == null ? null : elements.getModuleOf(catalog);
      if (module == null || module.isUnnamed() || provided(module).contains(name)) {
        continue;
      }
      missing.computeIfAbsent(module, m -> new ArrayList<>()).add(name);
    }
    missing.forEach((module, names) -> messager.printMessage(Diagnostic.Kind.ERROR,
        ModuleMessages.missingProvides(module.getQualifiedName().toString(), RuntimeTypes.CATALOG_SERVICE,
            String.join(", ", names)), module));
  }

  private static List<String> provided(ModuleElement module) {
    List<String> names = new ArrayList<>();
    for (ModuleElement.Directive d : module.getDirectives()) {
      if (d instanceof ModuleElement.ProvidesDirective provides
          && provides.getService().getQualifiedName().contentEquals(RuntimeTypes.CATALOG_SERVICE)) {
        provides.getImplementations().forEach(i -> names.add(i.getQualifiedName().toString()));
      }
    }
    return names;
  }
}
