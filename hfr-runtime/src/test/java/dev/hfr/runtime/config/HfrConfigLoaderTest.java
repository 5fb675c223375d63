package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.VerifyLevel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("The YAML of §5.2 is read, and every mistake in it is reported with its file, line, column and key")
class HfrConfigLoaderTest {

  /** The paper's §5.2 example, verbatim but for the ledger (ours defaults to the embedded one). */
  static final String PAPER_YAML = String.join("\n",
      "hfr:",
      "  version: \"1.0\"",
      "  retry:",
      "    base_delay_ms: 200",
      "    max_delay_ms: 2000",
      "    jitter: full",
      "    max_attempts_per_step: 4       # 1 initial + 3 retries",
      "    max_retries_per_task: 10",
      "    max_retries_per_tenant_per_min: 600",
      "    respect_retry_after: true",
      "    retry_on: [T1, T2, T3_readonly, T6_after_compress]",
      "    never_retry_on: [T7, T8, T3_write_without_idempotency]",
      "  degradation:",
      "    ladder: [L0, L1, L2, L3, L4]",
      "    quality_floor:",
      "      low: 0.60",
      "      medium: 0.80",
      "      high: 0.92",
      "    allow_auto_degrade:",
      "      low: [L1, L2, L3, L4]",
      "      medium: [L1, L2, L3]",
      "      high: [L1, L2]",
      "    require_human_for:",
      "      high: [L3, L4]",
      "      irreversible: [L2, L3, L4]",
      "  idempotency:",
      "    enabled: true",
      "    key_fields: [tenant, task, step, tool, canonical_args]",
      "    ledger: embedded",
      "    reconcile_timeout_ms: 1500",
      "  verification:",
      "    default_level: V1",
      "    levels:",
      "      low: V1",
      "      medium: V2",
      "      high: V2",
      "    human_spot_check_rate: 0.05",
      "  circuit_breaker:",
      "    error_rate_threshold: 0.50",
      "    consecutive_failures: 5",
      "    cooldown_ms: 30000",
      "    half_open_probes: 2",
      "  telemetry:",
      "    sample_rate: 1.0",
      "    redact_pii: true",
      "    emit_decision_events: true",
      "");

  @Test
  @DisplayName("the paper's example reads back exactly as HfrConfig.defaults()")
  void paperExampleEqualsDefaults() {
    HfrConfig read = HfrConfigLoader.parse(PAPER_YAML, "hfr.yaml");
    HfrConfig defaults = HfrConfig.defaults();
    assertThat(read.retry()).isEqualTo(defaults.retry());
    assertThat(read.degradation()).isEqualTo(defaults.degradation());
    assertThat(read.idempotency()).isEqualTo(defaults.idempotency());
    assertThat(read.verification()).isEqualTo(defaults.verification());
    assertThat(read.circuitBreaker()).isEqualTo(defaults.circuitBreaker());
    assertThat(read.telemetry()).isEqualTo(defaults.telemetry());
    assertThat(read.version()).isEqualTo("1.0");
  }

  @Test
  void defaultsAreThePapersValues() {
    HfrConfig d = HfrConfig.defaults();
    assertThat(d.retry().maxAttemptsPerStep()).isEqualTo(4);
    assertThat(d.retry().baseDelayMs()).isEqualTo(200);
    assertThat(d.retry().maxDelayMs()).isEqualTo(2000);
    assertThat(d.retry().maxRetriesPerTask()).isEqualTo(10);
    assertThat(d.retry().maxRetriesPerTenantPerMinute()).isEqualTo(600);
    assertThat(d.retry().retryOn()).containsExactlyInAnyOrder(RetryCondition.T1, RetryCondition.T2,
        RetryCondition.T3_READONLY, RetryCondition.T6_AFTER_COMPRESS);
    assertThat(d.degradation().qualityFloor()).containsEntry(Criticality.Level.HIGH, 0.92);
    assertThat(d.degradation().allowAutoDegrade().get(Criticality.Level.HIGH))
        .containsExactlyInAnyOrder(DegradeLevel.L1, DegradeLevel.L2);
    assertThat(d.verification().levelFor(Criticality.Level.MEDIUM)).isEqualTo(VerifyLevel.V2);
    assertThat(d.circuitBreaker().cooldownMs()).isEqualTo(30_000);
    assertThat(d.idempotency().reconcileTimeoutMs()).isEqualTo(1500);
  }

  @Test
  @DisplayName("hfr.yaml:7:28 hfr.retry.max_attempts_per_step: must be >= 1 (...), was 0")
  void outOfRangeValueNamesFileLineColumnAndKey() {
    String yaml = PAPER_YAML.replace("max_attempts_per_step: 4 ", "max_attempts_per_step: 0 ");
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> HfrConfigLoader.parse(yaml, "hfr.yaml"));
    assertThat(e.source()).isEqualTo("hfr.yaml");
    assertThat(e.line()).isEqualTo(7);
    assertThat(e.column()).isEqualTo(28);
    assertThat(e.key()).isEqualTo("hfr.retry.max_attempts_per_step");
    assertThat(e.getMessage()).startsWith("hfr.yaml:7:28 hfr.retry.max_attempts_per_step: must be >= 1")
        .contains("counts attempts, the first included").endsWith("was 0");
  }

  @Test
  void unknownKeysAreErrorsWithADidYouMean() {
    String yaml = "hfr:\n  retry:\n    max_attempt_per_step: 3\n";
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> HfrConfigLoader.parse(yaml, "hfr.yaml"));
    assertThat(e.getMessage()).startsWith("hfr.yaml:3:5 hfr.retry.max_attempt_per_step: unknown key; did you mean "
        + "`max_attempts_per_step`?");
  }

  @Test
  void keysInTheWrongSectionSayWhereTheyBelong() {
    String yaml = "hfr:\n  tools:\n    \"ShopTools.search\":\n      max_retries_per_task: 3\n";
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> HfrConfigLoader.parse(yaml, "hfr.yaml"));
    assertThat(e.key()).isEqualTo("hfr.tools[\"ShopTools.search\"].max_retries_per_task");
    assertThat(e.why()).contains("belongs in hfr.retry");
  }

  @Test
  @DisplayName("T7 and T8 can never be made retryable")
  void permanentClassesCannotBeRetried() {
    String yaml = "hfr:\n  retry:\n    retry_on: [T1, T7, T8]\n";
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> HfrConfigLoader.parse(yaml, "hfr.yaml"));
    assertThat(e.problems()).hasSize(2);
    assertThat(e.problems().get(0).toString()).startsWith("hfr.yaml:3:20 hfr.retry.retry_on[1]: T7 is never retried");
    assertThat(e.problems().get(1).why()).contains("T8 is never retried");
  }

  @Test
  void unknownFaultClassesSuggestTheClosest() {
    String yaml = "hfr:\n  retry:\n    retry_on: [T1, T3_readonyl]\n";
    assertThatThrownBy(() -> HfrConfigLoader.parse(yaml, "hfr.yaml"))
        .hasMessageContaining("hfr.retry.retry_on[1]: unknown fault class \"T3_readonyl\"")
        .hasMessageContaining("did you mean T3_readonly?");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    String yaml = String.join("\n", "hfr:", "  retry:", "    base_delay_ms: -1", "    jitter: partial",
        "  circuit_breaker:", "    error_rate_threshold: 1.5", "  telemetry:", "    redact_pii: maybe", "");
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> HfrConfigLoader.parse(yaml, "hfr.yaml"));
    assertThat(e.problems()).extracting(HfrConfigException.Problem::key).containsExactly(
        "hfr.retry.base_delay_ms", "hfr.retry.jitter", "hfr.circuit_breaker.error_rate_threshold",
        "hfr.telemetry.redact_pii");
    assertThat(e.problems()).extracting(HfrConfigException.Problem::line).containsExactly(3, 4, 6, 8);
  }

  @Test
  void baseDelayAboveCapIsReportedAtTheCap() {
    String yaml = "hfr:\n  retry:\n    base_delay_ms: 5000\n    max_delay_ms: 1000\n";
    assertThatThrownBy(() -> HfrConfigLoader.parse(yaml, "hfr.yaml"))
        .hasMessageStartingWith("hfr.yaml:4:19 hfr.retry.max_delay_ms: base_delay_ms (5000) must not exceed max_delay_ms");
  }

  @Test
  void highCriticalityMayNotDegradeToL3Automatically() {
    String yaml = "hfr:\n  degradation:\n    allow_auto_degrade:\n      high: [L1, L2, L3]\n";
    assertThatThrownBy(() -> HfrConfigLoader.parse(yaml, "hfr.yaml"))
        .hasMessageStartingWith("hfr.yaml:4:13 hfr.degradation.allow_auto_degrade.high: HIGH criticality may degrade "
            + "automatically only to L1 and L2");
  }

  @Test
  void qualityFloorsMustNotDecreaseWithCriticality() {
    String yaml = "hfr:\n  degradation:\n    quality_floor: {low: 0.9, medium: 0.8, high: 0.95}\n";
    assertThatThrownBy(() -> HfrConfigLoader.parse(yaml, "hfr.yaml")).hasMessageContaining("must not decrease");
  }

  @Test
  void theLedgerKeyCannotLoseFields() {
    String yaml = "hfr:\n  idempotency:\n    key_fields: [tenant, tool, canonical_args]\n";
    assertThatThrownBy(() -> HfrConfigLoader.parse(yaml, "hfr.yaml")).hasMessageContaining("missing [task, step]");
  }

  @Test
  void yamlSyntaxErrorsHaveTheirLine() {
    String yaml = "hfr:\n  retry:\n    retry_on: [T1, T2\n  telemetry: {}\n";
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> HfrConfigLoader.parse(yaml, "hfr.yaml"));
    assertThat(e.line()).isGreaterThan(1);
    assertThat(e.why()).startsWith("not valid YAML");
  }

  @Test
  void tabsAliasesMergeKeysAndSecondDocumentsAreClearErrors() {
    assertThatThrownBy(() -> HfrConfigLoader.parse("hfr:\n\tretry: {}\n", "hfr.yaml"))
        .hasMessageStartingWith("hfr.yaml:2:1 (syntax): not valid YAML: found character '\\t(TAB)'");
    assertThatThrownBy(() -> HfrConfigLoader.parse(
        "hfr:\n  retry: &r\n    jitter: full\n  tenants:\n    acme:\n      retry: *r\n", "hfr.yaml"))
        .hasMessage("hfr.yaml:6:14 hfr.tenants.acme.retry: YAML aliases (*r) are not supported here; write the values out");
    assertThatThrownBy(() -> HfrConfigLoader.parse("hfr:\n  retry:\n    <<: {jitter: full}\n", "hfr.yaml"))
        .hasMessage("hfr.yaml:3:5 hfr.retry[\"<<\"]: YAML merge keys (<<) are not supported here; write the keys out");
    assertThatThrownBy(() -> HfrConfigLoader.parse("hfr: {}\n---\nhfr: {}\n", "hfr.yaml"))
        .hasMessageContaining("a configuration is one YAML document");
  }

  @Test
  void duplicateKeysAreErrors() {
    String yaml = "hfr:\n  retry:\n    jitter: full\n    jitter: none\n";
    assertThatThrownBy(() -> HfrConfigLoader.parse(yaml, "hfr.yaml"))
        .hasMessageStartingWith("hfr.yaml:4:5 hfr.retry.jitter: duplicate key (first at line 3)");
  }

  @Test
  void emptyAndRootlessFilesAreErrors() {
    assertThatThrownBy(() -> HfrConfigLoader.parse("", "hfr.yaml")).hasMessageContaining("the file is empty");
    assertThatThrownBy(() -> HfrConfigLoader.parse("retry:\n  jitter: full\n", "hfr.yaml"))
        .hasMessageContaining("missing the top-level `hfr:` section");
    assertThatThrownBy(() -> HfrConfigLoader.parse("hfr:\n  version: \"2.0\"\n", "hfr.yaml"))
        .hasMessageContaining("unsupported version \"2.0\"");
  }

  @Test
  void wrongTypesSayWhatWasExpected() {
    assertThatThrownBy(() -> HfrConfigLoader.parse("hfr:\n  retry:\n    max_attempts_per_step: four\n", "hfr.yaml"))
        .hasMessageContaining("must be a whole number").hasMessageContaining("was \"four\"");
    assertThatThrownBy(() -> HfrConfigLoader.parse("hfr:\n  retry: [1, 2]\n", "hfr.yaml"))
        .hasMessageContaining("hfr.retry: must be a mapping");
  }

  @Test
  void loadNamesTheFileInErrors(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hfr.yaml");
    Files.writeString(file, "hfr:\n  limits:\n    max_turns: 0\n");
    assertThatThrownBy(() -> HfrConfigLoader.load(file))
        .hasMessageStartingWith(file + ":3:16 hfr.limits.max_turns: must be >= 1");
    Files.writeString(file, PAPER_YAML);
    assertThat(HfrConfigLoader.load(file).source()).isEqualTo(file.toString());
    assertThatThrownBy(() -> HfrConfigLoader.load(dir.resolve("missing.yaml"))).hasMessageContaining("cannot read the file");
  }

  @Test
  void maxCostMayBeLeftUnlimited() {
    HfrConfig c = HfrConfigLoader.parse("hfr:\n  limits:\n    max_cost: null\n    max_same_tool_calls: 3\n", "hfr.yaml");
    assertThat(c.limits().maxCost()).isInfinite();
    assertThat(c.limits().maxSameToolCalls()).isEqualTo(3);
  }
}
