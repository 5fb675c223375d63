package dev.hfr.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The public API is what docs/API.md lists, nothing more: read from the jars a user gets (class files, nothing
 * loaded), so a new public class in an implementation package, or an API method that hands out an internal type,
 * fails the build with the type's name and where it belongs.
 */
@DisplayName("The public API is the documented API packages, nothing more")
class PublicApiTest {

  private static Map<String, Set<String>> documented;
  private static Set<String> allApi;

  @BeforeAll
  static void readTheDocumentedLayout() throws Exception {
    documented = ApiLayout.documented();
    allApi = ApiLayout.allApiPackages();
  }

  @Test
  @DisplayName("docs/API.md has a row for every published module, and for nothing else")
  void everyPublishedModuleIsDocumented() throws Exception {
    assertThat(documented.keySet()).as("modules in the table of " + ApiLayout.DOC)
        .containsExactlyInAnyOrderElementsOf(PublishedModules.published());
  }

  @Test
  @DisplayName("every public type of a published jar is in one of its module's API packages or under .internal")
  void everyPublicTypeIsInADocumentedApiPackage() throws Exception {
    List<String> misplaced = new ArrayList<>();
    for (String module : PublishedModules.published()) {
      assertThat(ApiLayout.jar(module)).as("built by `mvn verify` before this module").exists();
      Set<String> api = documented.get(module);
      for (ClassFileSummary type : ApiLayout.visibleTypes(module)) {
        String pkg = type.packageName();
        if (!api.contains(pkg) && !ApiLayout.isInternal(pkg)) {
          misplaced.add(module + ": " + ApiLayout.javaName(type.name()) + " is public in " + pkg
              + ", which " + ApiLayout.DOC + " does not list as API of " + module + ": make it package-private, move"
              + " it to an API package, or move its package to " + ApiLayout.internalHome(pkg, api));
        }
      }
    }
    assertThat(misplaced).as("public types outside the documented API").isEmpty();
  }

  @Test
  @DisplayName("every documented API package exists and holds public types, and none is an .internal one")
  void everyDocumentedPackageHoldsPublicTypes() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (String module : PublishedModules.published()) {
      Set<String> found = new TreeSet<>();
      ApiLayout.visibleTypes(module).forEach(t -> found.add(t.packageName()));
      for (String pkg : documented.get(module)) {
        if (ApiLayout.isInternal(pkg)) {
          wrong.add(module + ": " + pkg + " is listed as API but is an .internal package");
        } else if (!found.contains(pkg)) {
          wrong.add(module + ": " + pkg + " is listed as API but its jar has no public type there");
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  @DisplayName("no public or protected member of an API type names a type outside the API")
  void theApiNeverHandsOutAnInternalType() throws Exception {
    List<String> leaks = new ArrayList<>();
    for (String module : PublishedModules.published()) {
      Set<String> api = documented.get(module);
      for (ClassFileSummary type : ApiLayout.visibleTypes(module)) {
        if (!api.contains(type.packageName())) {
          continue;
        }
        for (ClassFileSummary.Member member : type.visibleMembers()) {
          for (String named : member.types()) {
            String pkg = ApiLayout.packageOf(named);
            if (pkg.startsWith("dev.hfr.") && !allApi.contains(pkg)) {
              leaks.add(module + ": " + ApiLayout.javaName(type.name()) + " (" + member.description() + ") names "
                  + ApiLayout.javaName(named) + ", which is not API: move that type to an API package or keep it"
                  + " out of the signature");
            }
          }
        }
      }
    }
    assertThat(leaks).as("API members that expose implementation types").isEmpty();
  }

  private static final Pattern HFR_NAME = Pattern.compile("\\b(dev\\.hfr(?:\\.[a-z0-9]+)+)\\.([A-Z]\\w*)");

  @Test
  @DisplayName("the code the processor generates names API types only (its golden files, which GoldenFilesTest pins)")
  void generatedCodeNamesApiTypesOnly() throws Exception {
    Path golden = PublishedModules.root().resolve("hfr-processor/src/test/resources/golden");
    List<String> outside = new ArrayList<>();
    int files = 0;
    try (DirectoryStream<Path> sources = Files.newDirectoryStream(golden, "*_*.java")) {
      for (Path source : sources) {
        files++;
        Matcher m = HFR_NAME.matcher(Files.readString(source));
        while (m.find()) {
          // @Generated("dev.hfr.processor.HfrProcessor") names the generator, which is API of hfr-processor
          if (!allApi.contains(m.group(1))) {
            outside.add(source.getFileName() + " names " + m.group() + ", outside the API packages: generated code may"
                + " name API types only (docs/API.md)");
          }
        }
      }
    }
    assertThat(files).as("generated golden files under " + golden).isPositive();
    assertThat(outside).isEmpty();
  }
}
