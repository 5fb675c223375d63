package dev.hfr.runtime.registry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Named modules whose generated tool catalogs {@link java.util.ServiceLoader} cannot see: the processor lists
 * them in {@code META-INF/services}, which a named module's class loader ignores, and the module's descriptor
 * does not {@code provides} them. The processor reports this at compile time; this is the same check for a
 * module compiled without it (or by an older processor), so the registry is never silently empty.
 */
final class UnprovidedCatalogs {

  private static final String SERVICE_FILE = "META-INF/services/" + ToolCatalog.class.getName();

  private UnprovidedCatalogs() {}

  /** @throws IllegalStateException naming each module and the {@code provides} line it lacks */
  static void check(ModuleLayer layer) {
    List<String> fixes = new ArrayList<>();
    for (Module module : layer.modules()) {
      ModuleDescriptor descriptor = module.getDescriptor();
      if (descriptor.isAutomatic() || module.getName().startsWith("java.") || module.getName().startsWith("jdk.")) {
        continue;
      }
      List<String> listed = listed(module);
      List<String> provided = descriptor.provides().stream()
          .filter(p -> p.service().equals(ToolCatalog.class.getName()))
          .flatMap(p -> p.providers().stream()).toList();
      List<String> missing = listed.stream().filter(c -> !provided.contains(c)).toList();
      if (!missing.isEmpty()) {
        fixes.add("module " + module.getName() + " lists " + missing + " in " + SERVICE_FILE
            + " but does not provide them; add to its module-info.java: provides " + ToolCatalog.class.getName()
            + " with " + String.join(", ", missing) + ";");
      }
    }
    if (!fixes.isEmpty()) {
      throw new IllegalStateException("tool catalogs that no ServiceLoader can find, because in a named module"
          + " only the module descriptor counts: " + String.join("; ", fixes));
    }
  }

  /** The catalogs the module's service file lists (a resource outside any package, which every module may read). */
  private static List<String> listed(Module module) {
    List<String> names = new ArrayList<>();
    try (InputStream in = module.getResourceAsStream(SERVICE_FILE)) {
      if (in == null) {
        return names;
      }
      BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        String entry = line.strip();
        if (!entry.isEmpty() && !entry.startsWith("#")) {
          names.add(entry);
        }
      }
    } catch (IOException unreadable) {
      // An unreadable file is ServiceLoader's to report on the class path; here it only adds no hint.
    }
    return names;
  }
}
