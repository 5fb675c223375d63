package dev.hfr.runtime.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code docs/reference/CONFIGURATION.md} from {@link ConfigKeys}: one table per section of {@code hfr.yaml},
 * each key with its Spring Boot property, type, range, default (read from {@link HfrConfig#defaults()}), example and
 * description. {@link ConfigurationReferenceTest} fails when the committed page differs from what this writes.
 */
final class ConfigurationReference {

  /** The page, relative to the module's directory (where Maven runs the tests). */
  static final Path PAGE = Path.of("..", "docs", "reference", "CONFIGURATION.md");

  /** The command that regenerates the page, from the repository's root. */
  static final String COMMAND = "mvn -B -q -pl hfr-runtime -am test -Dtest=ConfigurationReferenceTest"
      + " -Dsurefire.failIfNoSpecifiedTests=false -Dhfr.reference.write=true";

  private static final Map<String, String> GUIDES = new LinkedHashMap<>();

  static {
    GUIDES.put("version", "");
    GUIDES.put("retry", "Retries, backoff and budgets: [POLICIES.md](../POLICIES.md).");
    GUIDES.put("degradation", "The ladder L0–L4 and who may take each rung: [ENGINE.md](../ENGINE.md).");
    GUIDES.put("idempotency", "The ledger, its backends and keys: [LEDGER.md](../LEDGER.md).");
    GUIDES.put("verification", "Levels V0–V3: [ENGINE.md](../ENGINE.md).");
    GUIDES.put("circuit_breaker", "Breakers count calls, not attempts: [POLICIES.md](../POLICIES.md).");
    GUIDES.put("telemetry", "Decision events and their sinks: [ENGINE.md](../ENGINE.md).");
    GUIDES.put("limits", "The task limits: [POLICIES.md](../POLICIES.md).");
    GUIDES.put("fleet", "Workers sharing budgets and breakers: [FLEET.md](../FLEET.md).");
    GUIDES.put("tools", "Per tool, keyed `SimpleClass.method` or `fully.qualified.Class.method`; how the layers are"
        + " resolved: [CONFIG.md](../CONFIG.md#how-a-tools-policy-is-resolved).");
    GUIDES.put("tenants", "Per tenant; a tenant without a section gets the global values.");
  }

  private ConfigurationReference() {}

  /** The page's text. */
  static String render() {
    StringBuilder out = new StringBuilder();
    out.append("<!-- generated from ConfigKeys; do not edit. Regenerate with: ").append(COMMAND).append(" -->\n")
        .append("# Configuration reference\n\n")
        .append("Generated from the code (`dev.hfr.runtime.config.ConfigKeys`, the registry the loader checks keys"
            + " against) — do not edit; regenerate with\n\n")
        .append("```\n").append(COMMAND).append("\n```\n\n")
        .append("Every key of `hfr.yaml` and its Spring Boot property. How to load a file, tenants and tools,"
            + " `${ENV}` values and a full example: [CONFIG.md](../CONFIG.md). Defaults are the engine's"
            + " (`HfrConfig.defaults()`); a key left out keeps its default. `*` is a name you choose: a tool's"
            + " `SimpleClass.method`, a tenant. Spring Boot binds the properties relaxed (`max-attempts-per-step`,"
            + " `maxAttemptsPerStep` and `max_attempts_per_step` are one property) and checks them with the same"
            + " rules as the file. Modules add their own sections: `hfr.mcp` is described in [MCP.md](../MCP.md).\n");
    String section = null;
    for (ConfigKeys.Key key : ConfigKeys.all()) {
      String first = key.path().contains(".") ? key.path().substring(0, key.path().indexOf('.')) : key.path();
      if (!first.equals(section)) {
        section = first;
        out.append("\n## `hfr.").append(section).append("`\n\n");
        String guide = GUIDES.getOrDefault(section, "");
        if (!guide.isEmpty()) {
          out.append(guide).append("\n\n");
        }
        header(out);
      }
      row(out, "`" + key.path() + "`<br>`" + key.springProperty() + "`", key);
    }
    out.append("\n## Spring Boot only\n\n");
    header(out);
    for (ConfigKeys.Key key : ConfigKeys.springOnly()) {
      row(out, "`" + key.springProperty() + "`", key);
    }
    return out.toString();
  }

  private static void header(StringBuilder out) {
    out.append("| key / Spring property | type | values | default | example | what it does |\n")
        .append("|---|---|---|---|---|---|\n");
  }

  private static void row(StringBuilder out, String name, ConfigKeys.Key key) {
    List<String> cells = List.of(name, key.type(), cell(key.range()), cell(key.defaultText()),
        "`" + cell(key.example()) + "`", cell(key.description()));
    out.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }

  /** A table cell: a pipe would end it. */
  private static String cell(String text) {
    return text.replace("|", "\\|");
  }

  /** Writes the page: {@code main} of the regenerate command's test, or run from an IDE. */
  public static void main(String[] args) throws IOException {
    Path page = args.length > 0 ? Path.of(args[0]) : PAGE;
    Files.createDirectories(page.getParent());
    Files.writeString(page, render(), StandardCharsets.UTF_8);
  }
}
