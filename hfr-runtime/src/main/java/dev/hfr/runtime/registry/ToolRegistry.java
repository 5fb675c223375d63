package dev.hfr.runtime.registry;

import dev.hfr.runtime.DegradeStep;
import dev.hfr.runtime.ToolDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Every tool of the application: the {@link ToolCatalog}s the HFR processor generated, found through
 * {@link ServiceLoader}, with the registry metadata of the tool-failures article per tool (risk level,
 * read-only, idempotent, reversible, requires approval, requires verification, degradation ladder,
 * reconcile and compensate methods).
 *
 * <pre>{@code
 * System.out.println(ToolRegistry.load().render());
 * }</pre>
 */
public final class ToolRegistry {

  private final List<ToolDescriptor> tools;

  private ToolRegistry(List<ToolDescriptor> tools) {
    this.tools = List.copyOf(tools);
  }

  /** The tools of every catalog visible to the context class loader. */
  public static ToolRegistry load() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return load(loader != null ? loader : ToolRegistry.class.getClassLoader());
  }

  /**
   * The tools of every catalog {@code loader} can see: those listed in {@code META-INF/services} on the class
   * path, and those named modules provide.
   *
   * @throws IllegalStateException naming the service file when a listed catalog cannot be loaded, or naming the
   *     {@code provides} line to add when a named module lists catalogs in META-INF/services without providing
   *     them (there, {@link ServiceLoader} reads the module descriptor only, and the tools would be missing)
   */
  public static ToolRegistry load(ClassLoader loader) {
    List<ToolCatalog> catalogs = new ArrayList<>();
    try {
      ServiceLoader.load(ToolCatalog.class, loader).forEach(catalogs::add);
    } catch (ServiceConfigurationError e) {
      throw new IllegalStateException("a tool catalog listed in META-INF/services/" + ToolCatalog.class.getName()
          + " cannot be loaded (recompile the module that lists it): " + e.getMessage(), e);
    }
    UnprovidedCatalogs.check(ModuleLayer.boot());
    return of(catalogs);
  }

  /** The tools of the given catalogs, in their order. */
  public static ToolRegistry of(Collection<? extends ToolCatalog> catalogs) {
    List<ToolDescriptor> tools = new ArrayList<>();
    for (ToolCatalog catalog : catalogs) {
      tools.addAll(catalog.tools());
    }
    return new ToolRegistry(tools);
  }

  /** Every tool, catalog by catalog, in declaration order. */
  public List<ToolDescriptor> tools() {
    return tools;
  }

  /** The tool called {@code name} ({@code SimpleClassName.method}), if registered. */
  public Optional<ToolDescriptor> find(String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /** The registry as YAML, one entry per tool, in the article's field names. */
  public String render() {
    StringBuilder out = new StringBuilder("tools:\n");
    for (ToolDescriptor tool : tools) {
      out.append("  - name: ").append(tool.name()).append('\n')
          .append("    class: ").append(tool.toolClass()).append('\n')
          .append("    risk_level: ").append(tool.risk()).append('\n')
          .append("    read_only: ").append(tool.readOnly()).append('\n')
          .append("    idempotent: ").append(tool.idempotent()).append('\n')
          .append("    reversible: ").append(tool.reversible()).append('\n')
          .append("    requires_approval: ").append(tool.requiresApproval()).append('\n')
          .append("    requires_verification: ").append(tool.requiresVerification()).append('\n')
          .append("    reconcile: ").append(orNull(tool.reconcileMethod())).append('\n')
          .append("    compensate: ").append(orNull(tool.compensateMethod())).append('\n');
      if (tool.degradeLadder().isEmpty()) {
        out.append("    degrade: []\n");
      } else {
        out.append("    degrade:\n");
        for (DegradeStep step : tool.degradeLadder()) {
          out.append("      - {to: ").append(step.target()).append(", level: ").append(step.level())
              .append(", risk: ").append(step.targetRisk()).append("}\n");
        }
      }
    }
    return out.toString();
  }

  private static String orNull(String value) {
    return value == null ? "null" : value;
  }
}
