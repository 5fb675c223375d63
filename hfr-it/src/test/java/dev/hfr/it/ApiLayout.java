package dev.hfr.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public API as docs/API.md documents it (its table: one row per published module, listing the module's API
 * packages), and the types a module's jar makes visible to its users.
 */
final class ApiLayout {

  static final String DOC = "docs/API.md";
  static final String SECTION = "## API packages per module";

  private static final Pattern ROW = Pattern.compile("^\\|\\s*`(hfr-[a-z0-9-]+)`\\s*\\|([^|]*)\\|", Pattern.MULTILINE);
  private static final Pattern PACKAGE = Pattern.compile("`(dev\\.hfr(?:\\.[a-z0-9]+)*)`");
  private static final Pattern INTERNAL = Pattern.compile("(^|\\.)internal(\\.|$)");

  private ApiLayout() {}

  /** Module -> its documented API packages, from the table of the section {@value #SECTION} of docs/API.md. */
  static Map<String, Set<String>> documented() throws IOException {
    String doc = Files.readString(PublishedModules.root().resolve(DOC));
    int start = doc.indexOf(SECTION);
    if (start < 0) {
      throw new AssertionError(DOC + " has no section \"" + SECTION + "\"");
    }
    int end = doc.indexOf("\n## ", start + SECTION.length());
    String section = doc.substring(start, end < 0 ? doc.length() : end);
    Map<String, Set<String>> out = new LinkedHashMap<>();
    Matcher row = ROW.matcher(section);
    while (row.find()) {
      Set<String> packages = new TreeSet<>();
      Matcher p = PACKAGE.matcher(row.group(2));
      while (p.find()) {
        packages.add(p.group(1));
      }
      out.put(row.group(1), packages);
    }
    return out;
  }

  /** Every package documented as API by any module: what API types may expose of one another. */
  static Set<String> allApiPackages() throws IOException {
    Set<String> out = new TreeSet<>();
    documented().values().forEach(out::addAll);
    return out;
  }

  static boolean isInternal(String packageName) {
    return INTERNAL.matcher(packageName).find();
  }

  static Path jar(String module) {
    return PublishedModules.root().resolve(module).resolve("target/" + module + "-" + System.getProperty("hfr.version") + ".jar");
  }

  /** The classes of a module's jar that a user can name: public, and (when nested) inside a class a user can name. */
  static List<ClassFileSummary> visibleTypes(String module) throws IOException {
    List<ClassFileSummary> all = new ArrayList<>();
    try (JarFile jar = new JarFile(jar(module).toFile())) {
      for (JarEntry entry : java.util.Collections.list(jar.entries())) {
        String name = entry.getName();
        if (name.endsWith(".class") && !name.endsWith("module-info.class") && !name.startsWith("META-INF/")) {
          all.add(ClassFileSummary.read(jar.getInputStream(entry).readAllBytes()));
        }
      }
    }
    Map<String, ClassFileSummary> byName = ClassFileSummary.byName(all);
    return all.stream().filter(c -> visible(c, byName)).toList();
  }

  private static boolean visible(ClassFileSummary type, Map<String, ClassFileSummary> byName) {
    if (!type.declaredVisible()) {
      return false;
    }
    if (!type.isNested()) {
      return true;
    }
    ClassFileSummary outer = byName.get(type.outerClass());
    return outer != null && visible(outer, byName);
  }

  /** {@code dev/hfr/runtime/Hfr$Builder} -> {@code dev.hfr.runtime.Hfr.Builder}. */
  static String javaName(String binaryName) {
    return binaryName.replace('/', '.').replace('$', '.');
  }

  static String packageOf(String binaryName) {
    int slash = binaryName.lastIndexOf('/');
    return slash < 0 ? "" : binaryName.substring(0, slash).replace('/', '.');
  }

  /** Where a misplaced package belongs: under its module's root package, e.g. dev.hfr.runtime.internal.engine. */
  static String internalHome(String packageName, Set<String> apiPackages) {
    String root = apiPackages.stream().filter(packageName::startsWith).min((a, b) -> a.length() - b.length())
        .orElse(packageName.substring(0, packageName.lastIndexOf('.')));
    String rest = packageName.length() > root.length() ? packageName.substring(root.length() + 1) : "";
    return root + ".internal" + (rest.isEmpty() ? "" : "." + rest);
  }
}
