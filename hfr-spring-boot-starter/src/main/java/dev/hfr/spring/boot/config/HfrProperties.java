package dev.hfr.spring.boot.config;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.HfrMode;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code hfr.*} properties: the §5.2 schema of {@code hfr.yaml} (docs/CONFIG.md) written with Spring's relaxed
 * binding ({@code max-attempts-per-step}, {@code maxAttemptsPerStep} and {@code max_attempts_per_step} all work).
 * Every key is optional and unset means "the runtime's default": nothing here has a default of its own, so the
 * runtime stays the one place defaults live. A tool's key keeps its dot in brackets:
 * {@code hfr.tools[ShopTools.search].criticality=low}.
 *
 * <p>Binding rejects unknown keys ({@code ignoreUnknownFields = false}) and values of the wrong type; ranges and the
 * safety rules are then checked by the runtime's own validator ({@link HfrPropertiesConfig}), so a value the YAML
 * file would refuse is refused here too, with the property's name and where it was set.
 *
 * @param version the format version; the only one read is "1.0"
 * @param mode the engine's mode at start-up: ENFORCE (the default), SHADOW (decide and record, act as before) or
 *     OFF (the kill switch); Spring only, switchable at run time through the {@code hfr} Actuator endpoint
 * @param retry retry settings
 * @param degradation degradation settings
 * @param idempotency idempotency ledger settings
 * @param verification verification settings
 * @param circuitBreaker circuit breaker thresholds
 * @param telemetry decision-event settings
 * @param limits the article's task limits
 * @param fleet sharing retry budgets and breakers with the other workers of a fleet (docs/FLEET.md)
 * @param tools per-tool settings, keyed {@code [SimpleClass.method]} (brackets keep the dot in the key)
 * @param tenants per-tenant settings
 * @param temporal HFR inside Temporal workflows (docs/TEMPORAL.md); Spring only, read when hfr-temporal and Temporal's
 *     Spring Boot starter are on the class path
 */
@ConfigurationProperties(prefix = "hfr", ignoreUnknownFields = false)
public record HfrProperties(
    String version,
    HfrMode mode,
    Retry retry,
    Degradation degradation,
    Idempotency idempotency,
    Verification verification,
    CircuitBreaker circuitBreaker,
    Telemetry telemetry,
    Limits limits,
    Fleet fleet,
    Map<String, Tool> tools,
    Map<String, Tenant> tenants,
    Temporal temporal) {

  /**
   * Retry settings (also under a tenant and, without the task and tenant budgets, under a tool).
   *
   * @param baseDelayMs backoff base d0 in milliseconds (0..3600000; default 200)
   * @param maxDelayMs backoff cap in milliseconds, at least base-delay-ms (default 2000)
   * @param jitter how the delay is drawn: full = U(0, min(cap, d0*2^(k-1))), none = the bound itself (default full)
   * @param maxAttemptsPerStep attempts of one step, the first included: 1 = no retry (1..100; default 4)
   * @param maxRetriesPerTask extra attempts a whole task may spend, B_t (default 10); not under a tool
   * @param maxRetriesPerTenantPerMin the floor of a tenant's retry budget: retries per minute whatever its traffic, a
   *     token bucket (default 600); not under a tool
   * @param retryRatio retries a tenant may add per call it made in the last 10 s, on top of the floor (0..10;
   *     default 1.0); not under a tool
   * @param respectRetryAfter wait at least the server's Retry-After / retry-after-ms (default true)
   * @param retryOn what may be retried: T1, T2, T3, T3_readonly, T4, T5, T6, T6_after_compress, V1 (default T1, T2,
   *     T3_readonly, T6_after_compress)
   * @param neverRetryOn never retried; T7 and T8 are always added (default T7, T8, T3_write_without_idempotency)
   * @param sameFaultLimit the same fault this many times in a row stops retrying, attempts left or not (1..100;
   *     default 3); only under hfr.retry: it applies to the whole engine
   */
  public record Retry(
      Long baseDelayMs,
      Long maxDelayMs,
      String jitter,
      Integer maxAttemptsPerStep,
      Integer maxRetriesPerTask,
      Integer maxRetriesPerTenantPerMin,
      Double retryRatio,
      Boolean respectRetryAfter,
      List<String> retryOn,
      List<String> neverRetryOn,
      Integer sameFaultLimit) {}

  /**
   * Degradation settings.
   *
   * @param ladder the order levels are tried, ascending from L0 (default L0..L4)
   * @param qualityFloor the task owner's minimum quality of a degraded result, per criticality
   * @param allowAutoDegrade levels taken without a human, per criticality
   * @param requireHumanFor levels that need a human, per criticality and for irreversible (R3) tools
   */
  public record Degradation(
      List<String> ladder, QualityFloors qualityFloor, CriticalityLevels allowAutoDegrade, HumanLevels requireHumanFor) {}

  /**
   * Quality floors per criticality (0..1, not decreasing).
   *
   * @param low the floor at LOW criticality (default 0.60)
   * @param medium the floor at MEDIUM criticality (default 0.80)
   * @param high the floor at HIGH criticality (default 0.92)
   */
  public record QualityFloors(Double low, Double medium, Double high) {}

  /**
   * Degradation levels (L1..L4) taken without a human, per criticality.
   *
   * @param low levels at LOW criticality (default L1..L4)
   * @param medium levels at MEDIUM criticality (default L1..L3)
   * @param high levels at HIGH criticality; L3 and L4 are refused (default L1, L2)
   */
  public record CriticalityLevels(List<String> low, List<String> medium, List<String> high) {}

  /**
   * Degradation levels that need a human.
   *
   * @param low at LOW criticality
   * @param medium at MEDIUM criticality
   * @param high at HIGH criticality (default L3, L4)
   * @param irreversible for R3 tools (default L2..L4)
   */
  public record HumanLevels(List<String> low, List<String> medium, List<String> high, List<String> irreversible) {}

  /**
   * Idempotency ledger settings.
   *
   * @param enabled whether writes go through the idempotency ledger (default true)
   * @param keyFields the fields of the ledger key; always all of tenant, task, step, tool, canonical_args
   * @param ledger embedded (a file, no server; the default), postgres (on the application's DataSource) or memory
   *     (nothing survives a restart; only when asked for)
   * @param reconcileTimeoutMs one reconcile call's time limit in milliseconds (default 1500)
   * @param path the embedded ledger's directory, relative to the working directory unless absolute (default
   *     hfr-ledger)
   * @param jdbcUrl the PostgreSQL ledger's JDBC URL; without it, ledger=postgres uses the application's DataSource
   * @param pool the HikariCP pool HFR opens on jdbc-url (not applied to the application's DataSource)
   * @param retentionHours how long a settled ledger record is kept after its last change, in hours (default 24)
   */
  public record Idempotency(
      Boolean enabled, List<String> keyFields, String ledger, Long reconcileTimeoutMs, String path, String jdbcUrl,
      Pool pool, Long retentionHours) {}

  /**
   * The HikariCP pool HFR opens on a JDBC URL.
   *
   * @param maxSize the most connections (ledger default 10, fleet default 4)
   * @param connectTimeoutMs how long a statement waits for a connection, at least 250 (default 1000)
   * @param socketTimeoutMs how long a statement waits for the server's answer; 0 = no limit (ledger default 0,
   *     fleet default 5000)
   * @param statementTimeoutMs the server's statement_timeout; 0 = the server's own (ledger default 0, fleet 2000)
   */
  public record Pool(Integer maxSize, Long connectTimeoutMs, Long socketTimeoutMs, Long statementTimeoutMs) {}

  /**
   * Verification settings.
   *
   * @param defaultLevel the level of a criticality without an entry: V0..V3 (default V1)
   * @param levels the minimum verification per criticality
   * @param humanSpotCheckRate the share of accepted results a human samples (0..1; default 0.05)
   */
  public record Verification(String defaultLevel, VerificationLevels levels, Double humanSpotCheckRate) {}

  /**
   * Verification levels (V0..V3) per criticality.
   *
   * @param low at LOW criticality (default V1)
   * @param medium at MEDIUM criticality (default V2)
   * @param high at HIGH criticality (default V2)
   */
  public record VerificationLevels(String low, String medium, String high) {}

  /**
   * Circuit breaker thresholds (also under a tenant and a tool).
   *
   * @param errorRateThreshold share of failures in the window that trips the breaker (0..1; default 0.50)
   * @param rateLimitThreshold share of 429s in the window that trips the breaker (0..1; default 0.50)
   * @param p95LatencyMs p95 latency that trips the breaker; 0 = off (default 0)
   * @param consecutiveFailures consecutive failures that trip the breaker (default 5)
   * @param cooldownMs how long an open breaker stays open, jittered (default 30000)
   * @param halfOpenProbes probe calls let through when half-open (default 2)
   * @param windowMs the window rates are computed over (default 60000)
   * @param minCalls calls needed in the window before rates can trip (default 10)
   * @param cooldownMultiplier each failed probe multiplies the cooldown by this, 1..100 (default 2)
   * @param maxCooldownMs the longest the cooldown grows to (default 60000, or cooldown-ms if longer)
   * @param cooldownJitter each cooldown is drawn within ± this fraction, 0..0.99 (default 0.2)
   */
  public record CircuitBreaker(
      Double errorRateThreshold,
      Double rateLimitThreshold,
      Long p95LatencyMs,
      Integer consecutiveFailures,
      Long cooldownMs,
      Integer halfOpenProbes,
      Long windowMs,
      Integer minCalls,
      Double cooldownMultiplier,
      Long maxCooldownMs,
      Double cooldownJitter) {}

  /**
   * Decision-event settings.
   *
   * @param sampleRate share of decision events written (0..1; default 1.0)
   * @param redactPii hash or redact arguments and results (default true)
   * @param emitDecisionEvents write decision events at all (default true)
   */
  public record Telemetry(Double sampleRate, Boolean redactPii, Boolean emitDecisionEvents) {}

  /**
   * Sharing retry budgets and circuit breakers with the other workers of a fleet, through PostgreSQL.
   *
   * @param enabled join the fleet (default false: budgets and breakers of this JVM only)
   * @param jdbcUrl the fleet's database; default the ledger's hfr.idempotency.jdbc-url, else the application's
   *     DataSource
   * @param expectedWorkers workers sharing a budget: without the database each allows itself limit / this (default 1)
   * @param worker this worker's name in the fleet's tables (default the JVM's pid@host)
   * @param syncIntervalMs how often the fleet's breakers are read besides notifications (default 500)
   * @param batchSize the most retry tokens one lease takes (default 20)
   * @param pool the HikariCP pool HFR opens on the fleet's JDBC URL
   */
  public record Fleet(Boolean enabled, String jdbcUrl, Integer expectedWorkers, String worker, Long syncIntervalMs,
      Integer batchSize, Pool pool) {}

  /**
   * The article's task limits (also under a tenant).
   *
   * @param maxTurns model turns per task (default 50)
   * @param maxToolCalls tool calls per task (default 200)
   * @param maxSameToolCalls calls of one tool in a row before it is a repeated action (default 5)
   * @param maxWallTimeMs wall time of a task in milliseconds (default 600000)
   * @param maxCost cost per task; unset = no limit
   * @param maxWriteActions write actions per task (default 50)
   */
  public record Limits(
      Integer maxTurns,
      Integer maxToolCalls,
      Integer maxSameToolCalls,
      Long maxWallTimeMs,
      Double maxCost,
      Integer maxWriteActions) {}

  /**
   * One tool's settings (under {@code hfr.tools} or a tenant's {@code tools}).
   *
   * @param criticality low, medium or high
   * @param retry the tool's retry settings (no task or tenant budgets here)
   * @param verification the tool's verification
   * @param circuitBreaker the tool's breaker thresholds
   * @param degradation the tool's degradation
   * @param timeoutMs the longest one attempt of the tool may take, in milliseconds (1..3600000), like
   *     {@code @Timeout(ms)}
   */
  public record Tool(
      String criticality, Retry retry, ToolVerification verification, CircuitBreaker circuitBreaker,
      ToolDegradation degradation, Long timeoutMs) {}

  /**
   * A tool's verification.
   *
   * @param level V0..V3, a floor above the annotations'
   * @param humanSpotCheckRate the share of accepted results a human samples (0..1)
   */
  public record ToolVerification(String level, Double humanSpotCheckRate) {}

  /**
   * A tool's degradation.
   *
   * @param allowAutoDegrade levels taken without a human
   * @param qualityFloor the minimum quality of a degraded result (0..1)
   */
  public record ToolDegradation(List<String> allowAutoDegrade, Double qualityFloor) {}

  /**
   * One tenant's settings.
   *
   * @param retry the tenant's retry settings, including its task and tenant budgets
   * @param limits the tenant's task limits
   * @param circuitBreaker the tenant's breaker thresholds
   * @param tools the tenant's per-tool settings, keyed {@code [SimpleClass.method]}
   * @param timeoutMs the longest one attempt of the tenant's tools may take, in milliseconds (1..3600000)
   */
  public record Tenant(Retry retry, Limits limits, CircuitBreaker circuitBreaker, Map<String, Tool> tools, Long timeoutMs) {}

  /**
   * HFR's worker interceptor on the workers Temporal's Spring Boot starter creates: each activity attempt runs its
   * tools' calls as the HFR task of its workflow execution (docs/TEMPORAL.md).
   *
   * @param enabled register the interceptor (default true; a HfrWorkerInterceptor bean of the application's own
   *     replaces it)
   * @param tenant the tenant of an activity whose hfr-tenant header names none (default "default"); the task's
   *     limits are this tenant's (its section under hfr.tenants, else hfr.limits and hfr.retry)
   * @param taskPerRun each run of a workflow is its own task, the workflow id and the run id joined by a slash,
   *     rather than the workflow id (default false: a write repeated by a later run is answered from the ledger)
   * @param retryUnknownOutcomes let Temporal retry an activity whose write HFR left with an unknown outcome; the next
   *     attempt reconciles it, or resends it under its ledger key (default false: a person decides); needs the ledger
   * @param laterAttemptRetries HFR's retry budget in the second and later attempts of an activity, 0 or more (default
   *     1: Temporal is then the layer that retries)
   * @param deadlineMarginMs what the task's deadline leaves of the attempt's timeout for Temporal, in milliseconds,
   *     0 or more (default 200)
   * @param criticality the criticality of every activity's task: low, medium or high (default the engine's)
   */
  public record Temporal(
      Boolean enabled,
      String tenant,
      Boolean taskPerRun,
      Boolean retryUnknownOutcomes,
      Integer laterAttemptRetries,
      Long deadlineMarginMs,
      Criticality.Level criticality) {}
}
