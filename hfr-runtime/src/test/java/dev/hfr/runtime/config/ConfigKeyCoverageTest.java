package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every key the configuration accepts names the test that proves what it does. The keys are read from the
 * schema the loader validates against ({@link ConfigReader}'s key lists), so a key added without an entry
 * here fails the build. Each entry says at which level the effect is proven: {@code engine} (a call runs
 * differently) or {@code policy} (the resolved policy, limit or breaker the engine runs on changes, or the
 * value is checked on load).
 */
@DisplayName("Every configuration key has a test that proves its effect")
class ConfigKeyCoverageTest {

  private static final String ENGINE = "dev.hfr.runtime.internal.engine.";
  private static final String CONFIG = "dev.hfr.runtime.config.";
  private static final String RUNTIME = "dev.hfr.runtime.";

  /** key (tool and tenant sections as {@code tools.*} and {@code tenants.*}) → level and test. */
  static final Map<String, String> PROOF = new LinkedHashMap<>();

  static {
    proof("version", "policy", CONFIG + "HfrConfigLoaderTest#emptyAndRootlessFilesAreErrors");
    String[] retry = {"base_delay_ms", "max_delay_ms", "jitter"};
    for (String k : retry) {
      proof("retry." + k, "engine", ENGINE + "ConfigKeyEffectsTest#jitterNone");
    }
    proof("retry.max_attempts_per_step", "engine", ENGINE + "DegradationAllowanceTest#configuredAttemptsSpentStillReachTheRung");
    proof("retry.same_fault_limit", "engine", ENGINE + "ConfigKeysOnACallTest$RetryConditions#sameFaultLimit");
    proof("retry.max_retries_per_task", "engine", ENGINE + "ConfigPoliciesTest#tenantOverrides");
    proof("retry.max_retries_per_tenant_per_min", "engine", ENGINE + "TenantIsolationTest#stormDoesNotStarveTheOtherTenant");
    proof("retry.retry_ratio", "engine", ENGINE + "GuardsUnderLoadTest#theAbsoluteBudgetStarvesTheSameShop");
    proof("retry.respect_retry_after", "engine", ENGINE + "ConfigKeyEffectsTest#respectRetryAfter");
    proof("retry.retry_on", "engine", ENGINE + "ConfigKeysOnACallTest$RetryConditions#retryOn");
    proof("retry.never_retry_on", "engine", ENGINE + "ConfigKeysOnACallTest$RetryConditions#neverRetryOn");
    proof("degradation.ladder", "engine", ENGINE + "ConfigKeyEffectsTest#ladder");
    proof("degradation.quality_floor", "engine", ENGINE + "ConfigKeysOnACallTest$Degradation#qualityFloor");
    proof("degradation.allow_auto_degrade", "engine", ENGINE + "ConfigKeysOnACallTest$Degradation#allowAutoDegrade");
    proof("degradation.require_human_for", "engine", ENGINE + "ConfigKeysOnACallTest$Degradation#requireHumanFor");
    proof("idempotency.enabled", "engine", ENGINE + "ConfigKeyEffectsTest#idempotencyDisabled");
    proof("idempotency.key_fields", "policy", CONFIG + "HfrConfigLoaderTest#theLedgerKeyCannotLoseFields");
    proof("idempotency.ledger", "engine", RUNTIME + "LedgerSettingsTest#memory");
    proof("idempotency.path", "engine", RUNTIME + "LedgerSettingsTest#embeddedAtPath");
    proof("idempotency.jdbc_url", "engine", RUNTIME + "LedgerSettingsTest#postgres");
    proof("idempotency.pool", "engine", RUNTIME + "LedgerSettingsTest#postgresPool");
    proof("idempotency.retention_hours", "engine", RUNTIME + "LedgerSettingsTest#retentionHours");
    proof("idempotency.reconcile_timeout_ms", "engine", ENGINE + "AttemptTimeoutTest#reconcileIsBounded");
    proof("verification.default_level", "engine", ENGINE + "ConfigKeysOnACallTest$Verification#defaultLevel");
    proof("verification.levels", "engine", ENGINE + "ConfigKeysOnACallTest$Verification#levels");
    proof("verification.human_spot_check_rate", "engine", ENGINE + "ConfigKeyEffectsTest#humanSpotCheckRate");
    String breaker = ENGINE + "ConfigKeysOnACallTest$Breaker#";
    proof("circuit_breaker.consecutive_failures", "engine", ENGINE + "ConfigPoliciesTest#perToolBreaker");
    proof("circuit_breaker.cooldown_ms", "engine", breaker + "cooldownMs");
    proof("circuit_breaker.half_open_probes", "engine", breaker + "halfOpenProbes");
    proof("circuit_breaker.error_rate_threshold", "engine", breaker + "errorRateAndMinCalls");
    proof("circuit_breaker.min_calls", "engine", breaker + "errorRateAndMinCalls");
    proof("circuit_breaker.window_ms", "engine", breaker + "windowMs");
    proof("circuit_breaker.rate_limit_threshold", "engine", breaker + "rateLimitThreshold");
    proof("circuit_breaker.p95_latency_ms", "engine", breaker + "p95LatencyMs");
    proof("telemetry.sample_rate", "engine", ENGINE + "DecisionEventRoutingTest#sampleRateZero");
    proof("telemetry.redact_pii", "engine", ENGINE + "DecisionEventRoutingTest#redactPii");
    proof("telemetry.emit_decision_events", "engine", ENGINE + "DecisionEventRoutingTest#emitFalse");
    proof("fleet.enabled", "engine", RUNTIME + "fleet.FleetConfigTest#enabledSharesTheLedgersDatabase");
    proof("fleet.jdbc_url", "engine", RUNTIME + "fleet.FleetConfigTest#jdbcUrlNamesTheFleetsDatabase");
    proof("fleet.expected_workers", "engine", RUNTIME + "fleet.FleetConfigTest#expectedWorkersIsTheShareWithoutTheDatabase");
    proof("fleet.worker", "engine", RUNTIME + "fleet.FleetConfigTest#worker");
    proof("fleet.sync_interval_ms", "engine", RUNTIME + "fleet.FleetConfigTest#syncIntervalMs");
    proof("fleet.batch_size", "engine", RUNTIME + "fleet.FleetConfigTest#batchSize");
    proof("fleet.pool", "engine", RUNTIME + "fleet.FleetConfigTest#pool");
    String cooldown = RUNTIME + "breaker.BreakerCooldownKeysTest#";
    proof("circuit_breaker.cooldown_multiplier", "engine", cooldown + "cooldownMultiplier");
    proof("circuit_breaker.max_cooldown_ms", "engine", cooldown + "maxCooldownMs");
    proof("circuit_breaker.cooldown_jitter", "engine", cooldown + "cooldownJitter");
    proof("limits.max_same_tool_calls", "engine", ENGINE + "ConfigPoliciesTest#tenantOverrides");
    String limits = ENGINE + "ConfigKeysOnACallTest$Limits#";
    proof("limits.max_turns", "engine", limits + "maxTurns");
    proof("limits.max_tool_calls", "engine", limits + "maxToolCalls");
    proof("limits.max_wall_time_ms", "engine", limits + "maxWallTimeMs");
    proof("limits.max_cost", "engine", limits + "maxCost");
    proof("limits.max_write_actions", "engine", limits + "maxWriteActions");
    proof("tools.retry", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#toolRetry");
    proof("tools.criticality", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#toolCriticality");
    proof("tools.verification", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#toolVerification");
    proof("tools.circuit_breaker", "engine", ENGINE + "ConfigPoliciesTest#perToolBreaker");
    proof("tools.degradation", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#toolDegradation");
    proof("tools.timeout_ms", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#timeouts");
    proof("tenants.retry", "engine", ENGINE + "ConfigPoliciesTest#tenantOverrides");
    proof("tenants.limits", "engine", ENGINE + "ConfigPoliciesTest#tenantOverrides");
    proof("tenants.circuit_breaker", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#tenantBreaker");
    proof("tenants.tools", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#tenantTools");
    proof("tenants.timeout_ms", "engine", ENGINE + "ConfigKeysOnACallTest$Sections#timeouts");
  }

  private static void proof(String key, String level, String test) {
    PROOF.put(key, level + " " + test);
  }

  /** Every key of the schema, as {@code section.key}; sections that only group keys are left out. */
  private static List<String> schemaKeys() {
    List<String> keys = new ArrayList<>();
    keys.add("version");
    ConfigReader.RETRY_KEYS.forEach(k -> keys.add("retry." + k));
    ConfigReader.DEGRADATION_KEYS.forEach(k -> keys.add("degradation." + k));
    ConfigReader.IDEMPOTENCY_KEYS.forEach(k -> keys.add("idempotency." + k));
    ConfigReader.VERIFICATION_KEYS.forEach(k -> keys.add("verification." + k));
    ConfigReader.BREAKER_KEYS.forEach(k -> keys.add("circuit_breaker." + k));
    ConfigReader.TELEMETRY_KEYS.forEach(k -> keys.add("telemetry." + k));
    ConfigReader.LIMITS_KEYS.forEach(k -> keys.add("limits." + k));
    ConfigReader.FLEET_KEYS.forEach(k -> keys.add("fleet." + k));
    ConfigReader.TOOL_KEYS.forEach(k -> keys.add("tools." + k));
    ConfigReader.TENANT_KEYS.forEach(k -> keys.add("tenants." + k));
    return keys;
  }

  @Test
  @DisplayName("each key of the schema has an entry; a key added without a test fails here")
  void everyKeyHasAProof() {
    TreeSet<String> missing = new TreeSet<>(schemaKeys());
    missing.removeAll(PROOF.keySet());
    assertThat(missing).as("keys the loader accepts without a test that proves their effect").isEmpty();
    TreeSet<String> stale = new TreeSet<>(PROOF.keySet());
    stale.removeAll(schemaKeys());
    assertThat(stale).as("entries for keys the loader no longer accepts").isEmpty();
  }

  @Test
  @DisplayName("each section of hfr: is enumerated above, so a new section cannot bring keys without tests")
  void everySectionIsEnumerated() {
    List<String> keys = schemaKeys();
    for (String section : ConfigReader.HFR_KEYS) {
      assertThat(keys.stream().anyMatch(k -> k.equals(section) || k.startsWith(section + ".")))
          .as("section `" + section + "` has its keys listed in schemaKeys()").isTrue();
    }
  }

  @Test
  @DisplayName("each entry names a test method that exists")
  void everyProofIsATest() throws Exception {
    for (Map.Entry<String, String> e : PROOF.entrySet()) {
      String test = e.getValue().substring(e.getValue().indexOf(' ') + 1);
      String className = test.substring(0, test.indexOf('#'));
      String methodName = test.substring(test.indexOf('#') + 1);
      Class<?> type = Class.forName(className);
      boolean found = false;
      for (Method m : type.getDeclaredMethods()) {
        if (m.getName().equals(methodName) && (m.isAnnotationPresent(Test.class)
            || m.isAnnotationPresent(org.junit.jupiter.params.ParameterizedTest.class))) {
          found = true;
        }
      }
      assertThat(found).as(e.getKey() + " → " + test).isTrue();
    }
  }
}
