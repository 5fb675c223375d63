package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference says what the loader does: every key the loader accepts has an entry in
 * {@link ConfigKeys}, each entry's example loads, each range is the one the loader enforces, and the committed
 * {@code docs/reference/CONFIGURATION.md} is what {@link ConfigurationReference} writes from them.
 */
@DisplayName("The configuration reference is complete and matches the loader")
class ConfigurationReferenceTest {

  /** Every key list the loader checks a mapping against, with where it applies. */
  private static Map<String, List<String>> loaderSchema() {
    return Map.ofEntries(Map.entry("", ConfigReader.HFR_KEYS), Map.entry("retry", ConfigReader.RETRY_KEYS),
        Map.entry("degradation", ConfigReader.DEGRADATION_KEYS),
        Map.entry("degradation.quality_floor", ConfigReader.CRITICALITY_KEYS),
        Map.entry("degradation.allow_auto_degrade", ConfigReader.CRITICALITY_KEYS),
        Map.entry("degradation.require_human_for", ConfigReader.HUMAN_KEYS),
        Map.entry("idempotency", ConfigReader.IDEMPOTENCY_KEYS), Map.entry("idempotency.pool", ConfigReader.POOL_KEYS),
        Map.entry("verification", ConfigReader.VERIFICATION_KEYS),
        Map.entry("verification.levels", ConfigReader.CRITICALITY_KEYS),
        Map.entry("circuit_breaker", ConfigReader.BREAKER_KEYS), Map.entry("telemetry", ConfigReader.TELEMETRY_KEYS),
        Map.entry("limits", ConfigReader.LIMITS_KEYS), Map.entry("fleet", ConfigReader.FLEET_KEYS),
        Map.entry("fleet.pool", ConfigReader.POOL_KEYS), Map.entry("tools.*", ConfigReader.TOOL_KEYS),
        Map.entry("tools.*.verification", ConfigReader.TOOL_VERIFICATION_KEYS),
        Map.entry("tools.*.degradation", ConfigReader.TOOL_DEGRADATION_KEYS),
        Map.entry("tenants.*", ConfigReader.TENANT_KEYS));
  }

  @Test
  @DisplayName("each key the loader accepts has an entry in ConfigKeys, and each entry is a key the loader accepts")
  void everyKeyHasAnEntry() {
    TreeSet<String> missing = new TreeSet<>();
    for (Map.Entry<String, List<String>> section : loaderSchema().entrySet()) {
      for (String key : section.getValue()) {
        String path = section.getKey().isEmpty() ? key : section.getKey() + "." + key;
        boolean listed = ConfigKeys.all().stream()
            .anyMatch(k -> k.path().equals(path) || k.path().startsWith(path + "."));
        if (!listed) {
          missing.add(path);
        }
      }
    }
    assertThat(missing).as("keys the loader accepts without an entry in ConfigKeys (add one there, then regenerate"
        + " the reference with: " + ConfigurationReference.COMMAND + ")").isEmpty();
    // The other way round: every entry's example is read without an "unknown key".
    for (ConfigKeys.Key key : ConfigKeys.all()) {
      assertThatCode(() -> load(key.path(), key.example())).as(key.path() + ": " + key.example()).doesNotThrowAnyException();
    }
  }

  @Test
  @DisplayName("each number's range is the one the loader enforces: both ends accepted, one step beyond refused")
  void rangesAreTheLoaders() {
    for (ConfigKeys.Key key : ConfigKeys.all()) {
      if (key.min() == null) {
        continue;
      }
      boolean whole = key.type().equals("whole number");
      BigDecimal step = whole ? BigDecimal.ONE : new BigDecimal("0.001");
      BigDecimal min = new BigDecimal(key.min().toString());
      assertThat(rangeProblems(key.path(), plain(min, whole))).as(key.path() + " = its minimum").isEmpty();
      assertThat(rangeProblems(key.path(), plain(min.subtract(step), whole))).as(key.path() + " below its minimum")
          .isNotEmpty();
      if (key.max() != null) {
        BigDecimal max = new BigDecimal(key.max().toString());
        assertThat(rangeProblems(key.path(), plain(max, whole))).as(key.path() + " = its maximum").isEmpty();
        assertThat(rangeProblems(key.path(), plain(max.add(step), whole))).as(key.path() + " above its maximum")
            .isNotEmpty();
      }
    }
  }

  @Test
  @DisplayName("each default is read from the default configuration and is a value the loader accepts")
  void defaultsLoad() {
    for (ConfigKeys.Key key : ConfigKeys.all()) {
      if (key.defaultValue() != null && ConfigKeys.yaml(key.defaultValue().apply(HfrConfig.defaults())) != null) {
        assertThatCode(() -> load(key.path(), key.defaultText())).as(key.path() + " = " + key.defaultText())
            .doesNotThrowAnyException();
      }
    }
  }

  @Test
  @DisplayName("docs/reference/CONFIGURATION.md is what the generator writes")
  void theCommittedPageIsCurrent() throws Exception {
    if (Boolean.getBoolean("hfr.reference.write")) {
      ConfigurationReference.main(new String[0]);
    }
    String committed = Files.exists(ConfigurationReference.PAGE)
        ? Files.readString(ConfigurationReference.PAGE, StandardCharsets.UTF_8) : "";
    assertThat(committed).as("docs/reference/CONFIGURATION.md differs from the keys in ConfigKeys; regenerate it with: "
        + ConfigurationReference.COMMAND).isEqualTo(ConfigurationReference.render());
  }

  // ---- helpers -------------------------------------------------------------------------------------

  /** A file setting {@code path} (below {@code hfr:}) to {@code value}; {@code *} becomes a tool or a tenant. */
  static String fileWith(String path, String value) {
    String[] parts = path.split("\\.");
    StringBuilder yaml = new StringBuilder("hfr:\n");
    String indent = "  ";
    for (int i = 0; i < parts.length; i++) {
      String part = !parts[i].equals("*") ? parts[i] : parts[i - 1].equals("tools") ? "\"ShopTools.search\"" : "acme";
      yaml.append(indent).append(part).append(':').append(i == parts.length - 1 ? " " + value : "").append('\n');
      indent += "  ";
    }
    return yaml.toString();
  }

  private static HfrConfig load(String path, String value) {
    // ${NAME} in an example stands for a JDBC URL the deployment sets
    return HfrConfigLoader.parse(fileWith(path, value), "reference", name -> "jdbc:postgresql://db:5432/hfr?user=hfr");
  }

  /** The range problems ("must be ...") loading {@code value} at {@code path} reports. */
  private static List<String> rangeProblems(String path, String value) {
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> load(path, value));
    List<String> out = new ArrayList<>();
    if (e != null) {
      e.problems().stream().filter(p -> p.why().startsWith("must be")).forEach(p -> out.add(p.key() + ": " + p.why()));
    }
    return out;
  }

  private static String plain(BigDecimal v, boolean whole) {
    return whole ? v.toBigInteger().toString() : v.toPlainString();
  }
}
