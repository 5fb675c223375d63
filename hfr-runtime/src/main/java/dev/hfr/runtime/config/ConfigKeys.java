package dev.hfr.runtime.config;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.HfrMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Every key of {@code hfr.yaml}: its type, range, default, an example and what it does, in the order the reference
 * lists them. The loader takes the keys each section accepts from here ({@link #childrenOf}), the key-coverage
 * tests hold every key to an entry, and {@code docs/reference/CONFIGURATION.md} is written from it. Defaults are
 * read from {@link HfrConfig#defaults()}, never typed here; {@code *} stands for a name the user chooses (a tool's
 * {@code SimpleClass.method}, a tenant).
 */
public final class ConfigKeys {

  /** Backoff delays, cooldowns and timeouts: at most an hour. */
  static final long MAX_DELAY = 3_600_000L;

  /**
   * One key.
   *
   * @param path the key below {@code hfr:}, dotted, {@code *} for a name the user chooses
   * @param type what the value is: {@code whole number}, {@code number}, {@code boolean}, {@code one of},
   *     {@code list of}, {@code text} or {@code section} (a mapping of other keys)
   * @param range the values accepted, as the reference shows them
   * @param min the smallest number accepted, or {@code null} when the value is not a number
   * @param max the largest number accepted, or {@code null} when the value is not a number
   * @param defaultValue reads the value the engine uses when the key is left out from the default configuration;
   *     {@code null} when the default is not a value of {@link HfrConfig#defaults()}
   * @param whenUnset what the default is in words, when {@code defaultValue} has none (or answers {@code null})
   * @param example a value as written in the file
   * @param description what the key does, in one line
   */
  public record Key(String path, String type, String range, Number min, Number max,
      Function<HfrConfig, Object> defaultValue, String whenUnset, String example, String description) {

    /** Checks that every key has a path, a type, an example and a description. */
    public Key {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(example, "example");
      Objects.requireNonNull(description, "description");
    }

    /** The default as written in the file, or in words when it is not a single value. */
    public String defaultText() {
      Object value = defaultValue == null ? null : defaultValue.apply(HfrConfig.defaults());
      String written = yaml(value);
      return written != null ? written : whenUnset == null ? "none" : whenUnset;
    }

    /** Whether the key holds other keys rather than a value. */
    public boolean isSection() {
      return type.equals("section");
    }

    /**
     * The Spring Boot property of the key: {@code tools.*.timeout_ms} is
     * {@code hfr.tools[<Class.method>].timeout-ms}, {@code tenants.*.limits} is {@code hfr.tenants.<tenant>.limits}.
     */
    public String springProperty() {
      String p = "hfr." + path.replace('_', '-');
      return p.replace("tools.*", "tools[<Class.method>]").replace("tenants.*", "tenants.<tenant>");
    }
  }

  private static final List<Key> KEYS = new ArrayList<>();

  static {
    add(choice("version", HfrConfig.SUPPORTED_VERSIONS, HfrConfig::version, "\"1.0\"", "the format version of the file"));

    add(whole("retry.base_delay_ms", 0, MAX_DELAY, c -> c.retry().baseDelayMs(), "500",
        "the backoff's base delay d0, in milliseconds"));
    add(whole("retry.max_delay_ms", 0, MAX_DELAY, c -> c.retry().maxDelayMs(), "5000",
        "the backoff's cap in milliseconds, at least base_delay_ms; applied before the jitter draw"));
    add(choice("retry.jitter", List.of("full", "none"), c -> c.retry().jitter(), "none",
        "full: each delay drawn from U(0, min(cap, d0·2^(k-1))); none: that bound itself"));
    add(whole("retry.max_attempts_per_step", 1, 100, c -> c.retry().maxAttemptsPerStep(), "3",
        "attempts of one step, the first included: 1 means no retry, 4 means 1 + 3 retries"));
    add(whole("retry.same_fault_limit", 1, 100, c -> c.retry().sameFaultLimit(), "6",
        "K of §4.3: the same fault this many times in a row stops retrying even with attempts left; engine-wide"
            + " (not per tenant or tool); raise it with max_attempts_per_step to retry a steady fault longer"));
    add(whole("retry.max_retries_per_task", 0, 1_000_000, c -> c.retry().maxRetriesPerTask(), "4",
        "extra attempts one task may spend over all its steps (B_t); 0 = none"));
    add(whole("retry.max_retries_per_tenant_per_min", 0, 100_000_000, c -> c.retry().maxRetriesPerTenantPerMinute(),
        "120", "the floor of a tenant's retry budget: retries it may spend per minute whatever its traffic, a token"
            + " bucket (B_tenant), on top of retry_ratio's share; 0 = no floor"));
    add(number("retry.retry_ratio", 0, 10, c -> c.retry().retryRatio(), "0.2",
        "retries a tenant may add per call it made in the last 10 s, on top of max_retries_per_tenant_per_min;"
            + " 0 = the floor alone"));
    add(bool("retry.respect_retry_after", c -> c.retry().respectRetryAfter(), "false",
        "true: a delay is never shorter than the server's Retry-After / retry-after-ms"));
    add(list("retry.retry_on", conditions(true), c -> c.retry().retryOn(), "[T1, T2]",
        "the fault classes that may be retried (T3 and T6 only where a resend is safe)"));
    add(list("retry.never_retry_on", conditions(false), c -> c.retry().neverRetryOn(), "[T5, T7, T8]",
        "fault classes never retried; T7, T8 and T3_write_without_idempotency are always added"));

    add(list("degradation.ladder", levels(DegradeLevel.L0), c -> c.degradation().ladder(), "[L0, L1, L2]",
        "the levels that may be taken, ascending from L0; a rung whose level is left out is never taken"));
    for (Criticality.Level level : Criticality.Level.values()) {
      add(number("degradation.quality_floor." + lower(level), 0, 1, c -> c.degradation().qualityFloor().get(level),
          List.of("0.5", "0.85", "0.95").get(level.ordinal()),
          "the task owner's minimum quality of a degraded result at " + level + " criticality (not decreasing with it)"));
    }
    for (Criticality.Level level : Criticality.Level.values()) {
      add(list("degradation.allow_auto_degrade." + lower(level),
          level == Criticality.Level.HIGH ? "L1, L2 (L3, L4 need a human)" : levels(DegradeLevel.L1),
          c -> c.degradation().allowAutoDegrade().get(level), "[L1]",
          "the levels taken without a human at " + level + " criticality"));
    }
    for (Criticality.Level level : Criticality.Level.values()) {
      add(list("degradation.require_human_for." + lower(level), levels(DegradeLevel.L1),
          c -> c.degradation().requireHumanFor().get(level), "[L3, L4]",
          "the levels that need a human at " + level + " criticality"));
    }
    add(list("degradation.require_human_for.irreversible", levels(DegradeLevel.L1),
        c -> c.degradation().requireHumanForIrreversible(), "[L1, L2, L3, L4]",
        "the levels that need a human for an irreversible (R3) tool"));

    add(bool("idempotency.enabled", c -> c.idempotency().enabled(), "false",
        "false: writes get no ledger record or key (an ambiguous write failure is still reconciled or escalated)"));
    add(list("idempotency.key_fields", "all of " + String.join(", ", IdempotencySettings.KEY_FIELDS),
        c -> c.idempotency().keyFields(), "[tenant, task, step, tool, canonical_args]",
        "the fields the ledger key hashes; always all five (one left out would merge different calls)"));
    add(choice("idempotency.ledger", IdempotencySettings.LEDGERS, c -> c.idempotency().ledger(), "postgres",
        "the store: embedded (a journal in path), postgres (jdbc_url or the application's DataSource), memory (tests)"));
    add(whole("idempotency.reconcile_timeout_ms", 1, 600_000, c -> c.idempotency().reconcileTimeoutMs(), "3000",
        "how long one reconcile call may take; when it runs out the write stays UNKNOWN and is escalated"));
    add(text("idempotency.path", "a directory", c -> c.idempotency().path(), null, "/var/lib/hfr/ledger",
        "the embedded ledger's directory, relative to the working directory unless absolute; one engine per directory"));
    add(text("idempotency.jdbc_url", "jdbc:postgresql:...", c -> c.idempotency().jdbcUrl(),
        "none: the application's DataSource", "${HFR_DB_URL}",
        "the PostgreSQL ledger's database, credentials in the URL or from ${...}; HFR opens a pool on it"));
    pool("idempotency.pool", c -> c.idempotency().pool());
    add(whole("idempotency.retention_hours", 1, IdempotencySettings.MAX_RETENTION_HOURS, c -> c.idempotency().retentionHours(),
        "72", "how long a settled record is kept after its last change; a repeat of the write after that runs again"));

    add(choice("verification.default_level", names(VerifyLevel.values()), c -> c.verification().defaultLevel(), "V2",
        "when set, the level of every criticality that verification.levels leaves out"));
    for (Criticality.Level level : Criticality.Level.values()) {
      add(choice("verification.levels." + lower(level), names(VerifyLevel.values()),
          c -> c.verification().levels().get(level), "V3", "the minimum verification at " + level + " criticality"));
    }
    add(number("verification.human_spot_check_rate", 0, 1, c -> c.verification().humanSpotCheckRate(), "0.01",
        "the share of accepted results also handed to a human (reason human_spot_check); none without any configuration"));

    add(number("circuit_breaker.error_rate_threshold", 0.01, 1, c -> c.circuitBreaker().errorRateThreshold(), "0.3",
        "the share of failed calls in the window that trips the breaker"));
    add(number("circuit_breaker.rate_limit_threshold", 0.01, 1, c -> c.circuitBreaker().rateLimitThreshold(), "0.3",
        "the share of rate-limited (429) calls in the window that trips the breaker"));
    add(whole("circuit_breaker.p95_latency_ms", 0, MAX_DELAY, c -> c.circuitBreaker().p95LatencyMs(), "2000",
        "the window's p95 latency that trips the breaker; 0 turns the latency trigger off"));
    add(whole("circuit_breaker.consecutive_failures", 1, 10_000, c -> c.circuitBreaker().consecutiveFailures(), "10",
        "calls in a row that failed after their retries and trip the breaker"));
    add(whole("circuit_breaker.cooldown_ms", 0, MAX_DELAY, c -> c.circuitBreaker().cooldownMs(), "60000",
        "how long an open breaker stays open before half-open probes"));
    add(whole("circuit_breaker.half_open_probes", 1, 1000, c -> c.circuitBreaker().halfOpenProbes(), "1",
        "the probe calls a half-open breaker lets through"));
    add(whole("circuit_breaker.window_ms", 1, MAX_DELAY, c -> c.circuitBreaker().windowMs(), "30000",
        "the sliding window the rates are computed over"));
    add(whole("circuit_breaker.min_calls", 1, 1_000_000, c -> c.circuitBreaker().minCalls(), "20",
        "calls needed in the window before a rate can trip the breaker (at most the 50 calls it keeps)"));
    add(number("circuit_breaker.cooldown_multiplier", 1, 100, c -> c.circuitBreaker().cooldownMultiplier(), "1.5",
        "each failed probe multiplies the cooldown by this; 1 keeps it"));
    add(whole("circuit_breaker.max_cooldown_ms", 1, MAX_DELAY, c -> c.circuitBreaker().maxCooldownMs(), "600000",
        "the longest the cooldown grows to (when left out, never less than cooldown_ms)"));
    add(number("circuit_breaker.cooldown_jitter", 0, 0.99, c -> c.circuitBreaker().cooldownJitter(), "0",
        "each cooldown is drawn within ± this fraction of its nominal value"));

    add(number("telemetry.sample_rate", 0, 1, c -> c.telemetry().sampleRate(), "0.1",
        "the share of clean-path decision events published; failures, escalations and writes always are"));
    add(bool("telemetry.redact_pii", c -> c.telemetry().redactPii(), "false",
        "redact e-mail, card, phone and IPv4 in the events' free text (arguments and results are only hashed)"));
    add(bool("telemetry.emit_decision_events", c -> c.telemetry().emitDecisionEvents(), "false",
        "false: no decision event reaches any sink"));

    add(whole("limits.max_turns", 1, 1_000_000, c -> c.limits().maxTurns(), "20", "model turns per task"));
    add(whole("limits.max_tool_calls", 1, 10_000_000, c -> c.limits().maxToolCalls(), "80", "tool calls per task"));
    add(whole("limits.max_same_tool_calls", 1, 1_000_000, c -> c.limits().maxSameToolCalls(), "3",
        "calls of one tool in a row; the next one is a repeated action (stop or replan)"));
    add(whole("limits.max_wall_time_ms", 1, 30L * 86_400_000L, c -> c.limits().maxWallTimeMs(), "120000",
        "wall time per task, in milliseconds"));
    add(new Key("limits.max_cost", "number", "≥ 0, or null", 0, null, c -> c.limits().maxCost(), "no limit", "25.0",
        "cost units per task; left out or null for no limit"));
    add(whole("limits.max_write_actions", 0, 10_000_000, c -> c.limits().maxWriteActions(), "10",
        "side-effecting (R1-R3) calls per task"));

    add(bool("fleet.enabled", c -> c.fleet().enabled(), "true",
        "true: share each tenant's retry budget and each target's breaker with the other workers (docs/FLEET.md)"));
    add(text("fleet.jdbc_url", "jdbc:postgresql:...", c -> c.fleet().jdbcUrl(), "the ledger's database",
        "${HFR_FLEET_DB_URL}", "the fleet's database; HFR opens a pool on it"));
    add(whole("fleet.expected_workers", 1, 100_000, c -> c.fleet().expectedWorkers(), "4",
        "workers sharing a budget: while the database is unreachable each allows itself limit / this"));
    add(text("fleet.worker", "text", c -> c.fleet().worker(), "the JVM's pid@host", "worker-1",
        "this worker's name in the fleet's tables"));
    add(whole("fleet.sync_interval_ms", 10, MAX_DELAY, c -> c.fleet().syncIntervalMs(), "1000",
        "how often the fleet's breakers are read besides notifications: how late another worker's breaker state may arrive"));
    add(whole("fleet.batch_size", 1, 1_000_000, c -> c.fleet().batchSize(), "50",
        "the most retry tokens one lease takes (a fiftieth of the limit, at least 1)"));
    pool("fleet.pool", c -> c.fleet().pool());

    add(section("tools.*.retry", "retry's keys but max_retries_per_task, max_retries_per_tenant_per_min, same_fault_limit,"
        + " retry_ratio", "retry",
        "{max_attempts_per_step: 2}", "the tool's retry settings, laid over the global (and the tenant's) retry"));
    add(choice("tools.*.criticality", List.of("low", "medium", "high"), null, "the tool's @Criticality", "high",
        "the tool's criticality (picks its quality floor, degradation and verification levels)"));
    add(choice("tools.*.verification.level", names(VerifyLevel.values()), null, "the level of its criticality", "V2",
        "the tool's minimum verification; the annotations' @Verify stays a floor"));
    add(number("tools.*.verification.human_spot_check_rate", 0, 1, null, "verification.human_spot_check_rate", "0.1",
        "the share of the tool's accepted results also handed to a human"));
    add(section("tools.*.circuit_breaker", "any circuit_breaker key", "circuit_breaker",
        "{consecutive_failures: 10}", "the tool's breaker thresholds, laid over the global (and the tenant's)"));
    add(list("tools.*.degradation.allow_auto_degrade", levels(DegradeLevel.L1), null,
        "degradation.allow_auto_degrade of its criticality", "[L1]", "the levels the tool takes without a human"));
    add(number("tools.*.degradation.quality_floor", 0, 1, null, "degradation.quality_floor of its criticality", "0.95",
        "the minimum quality of the tool's degraded result"));
    add(whole("tools.*.timeout_ms", 1, MAX_DELAY, null, "the tool's @Timeout, else none", "5000",
        "the longest one attempt of the tool may take, like @Timeout(ms)"));

    add(section("tenants.*.retry", "retry's keys but same_fault_limit", "retry", "{max_retries_per_tenant_per_min: 120}",
        "the tenant's retry settings, its task and tenant budgets included"));
    add(section("tenants.*.limits", "any limits key", "limits", "{max_tool_calls: 80}", "the tenant's task limits"));
    add(section("tenants.*.circuit_breaker", "any circuit_breaker key", "circuit_breaker", "{cooldown_ms: 60000}",
        "the tenant's breaker thresholds"));
    add(section("tenants.*.tools", "tool entries, as under tools", "tools",
        "{\"ShopTools.search\": {criticality: high}}", "the tenant's own per-tool settings, laid over tools"));
    add(whole("tenants.*.timeout_ms", 1, MAX_DELAY, null, "none", "5000",
        "the longest one attempt of the tenant's tools may take"));
  }

  /** The Spring Boot starter's one property that {@code hfr.yaml} has no key for. */
  private static final Key MODE = new Key("mode", "one of", String.join(", ", names(HfrMode.values())), null, null, null, "ENFORCE", "SHADOW",
      "the engine's mode at start-up: ENFORCE acts, SHADOW decides and records but acts as before, OFF is the kill"
      + " switch; switchable at run time through the hfr Actuator endpoint");

  /**
   * The Spring Boot starter's {@code hfr.temporal.*}: HFR's worker interceptor on the workers Temporal's Spring Boot
   * starter creates (docs/TEMPORAL.md). Their defaults are the interceptor builder's, not the configuration's.
   */
  private static final List<Key> TEMPORAL = List.of(
      new Key("temporal.enabled", "boolean", "true, false", null, null, null, "true", "false",
          "with hfr-temporal and Temporal's Spring Boot starter: HFR's worker interceptor on the workers it creates"),
      new Key("temporal.tenant", "text", "a tenant", null, null, null, "default", "shop",
          "the tenant of activities whose hfr-tenant header names none; the activities' task limits are its"),
      new Key("temporal.task_per_run", "boolean", "true, false", null, null, null, "false", "true",
          "each run of a workflow is its own task (workflow id/run id) rather than the workflow id"),
      new Key("temporal.retry_unknown_outcomes", "boolean", "true, false", null, null, null, "false", "true",
          "Temporal retries an activity whose write HFR left unknown; the next attempt reconciles it or resends it"
          + " under its ledger key (needs the ledger)"),
      new Key("temporal.later_attempt_retries", "whole number", "0 or more", 0, null, null, "1", "0",
          "HFR's retry budget in an activity's second and later attempts"),
      new Key("temporal.deadline_margin_ms", "whole number", "0 or more", 0, null, null, "200", "500",
          "what the task's deadline leaves of the attempt's timeout for Temporal, in milliseconds"),
      new Key("temporal.criticality", "one of", String.join(", ", names(Criticality.Level.values())), null, null, null,
          "each tool's own", "HIGH", "the criticality of every activity's task"));

  private ConfigKeys() {}

  /**
   * The properties of the Spring Boot starter that {@code hfr.yaml} has no key for: {@code hfr.mode} first, then
   * {@code hfr.temporal.*}.
   */
  public static List<Key> springOnly() {
    List<Key> keys = new ArrayList<>();
    keys.add(MODE);
    keys.addAll(TEMPORAL);
    return List.copyOf(keys);
  }

  /** Every key, in the order the reference lists them. */
  public static List<Key> all() {
    return List.copyOf(KEYS);
  }

  /**
   * The keys directly below {@code prefix} ({@code ""} for the top of {@code hfr:}), in order, each once:
   * {@code childrenOf("idempotency")} holds {@code pool} for {@code idempotency.pool.max_size}.
   */
  public static List<String> childrenOf(String prefix) {
    String start = prefix.isEmpty() ? "" : prefix + ".";
    List<String> children = new ArrayList<>();
    for (Key k : KEYS) {
      if (k.path().startsWith(start)) {
        String rest = k.path().substring(start.length());
        String child = rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest;
        if (!children.contains(child)) {
          children.add(child);
        }
      }
    }
    return List.copyOf(children);
  }

  // ---- the kinds of key ------------------------------------------------------------------------------

  private static void add(Key key) {
    KEYS.add(key);
  }

  private static Key whole(String path, long min, long max, Function<HfrConfig, Object> def, String example, String what) {
    return new Key(path, "whole number", min + ".." + max, min, max, def, null, example, what);
  }

  private static Key whole(String path, long min, long max, Function<HfrConfig, Object> def, String whenUnset,
      String example, String what) {
    return new Key(path, "whole number", min + ".." + max, min, max, def, whenUnset, example, what);
  }

  private static Key number(String path, double min, double max, Function<HfrConfig, Object> def, String example,
      String what) {
    return number(path, min, max, def, null, example, what);
  }

  private static Key number(String path, double min, double max, Function<HfrConfig, Object> def, String whenUnset,
      String example, String what) {
    return new Key(path, "number", yaml(min) + ".." + yaml(max), min, max, def, whenUnset, example, what);
  }

  private static Key bool(String path, Function<HfrConfig, Object> def, String example, String what) {
    return new Key(path, "boolean", "true, false", null, null, def, null, example, what);
  }

  private static Key choice(String path, List<String> allowed, Function<HfrConfig, Object> def, String example,
      String what) {
    return choice(path, allowed, def, null, example, what);
  }

  private static Key choice(String path, List<String> allowed, Function<HfrConfig, Object> def, String whenUnset,
      String example, String what) {
    return new Key(path, "one of", String.join(", ", allowed), null, null, def, whenUnset, example, what);
  }

  private static Key list(String path, String allowed, Function<HfrConfig, Object> def, String example, String what) {
    return list(path, allowed, def, null, example, what);
  }

  private static Key list(String path, String allowed, Function<HfrConfig, Object> def, String whenUnset,
      String example, String what) {
    return new Key(path, "list of", allowed, null, null, def, whenUnset, example, what);
  }

  private static Key text(String path, String form, Function<HfrConfig, Object> def, String whenUnset, String example,
      String what) {
    return new Key(path, "text", form, null, null, def, whenUnset, example, what);
  }

  private static Key section(String path, String holds, String defaults, String example, String what) {
    return new Key(path, "section", holds, null, null, null, "the " + defaults + " section", example, what);
  }

  /** {@code idempotency.pool} and {@code fleet.pool}: the same keys, their own defaults. */
  private static void pool(String path, Function<HfrConfig, PoolSettings> pool) {
    add(whole(path + ".max_size", 1, 1_000, c -> pool.apply(c).maxSize(), "20", "connections the pool holds at most"));
    add(whole(path + ".connect_timeout_ms", 250, MAX_DELAY, c -> pool.apply(c).connectTimeoutMs(), "2000",
        "how long a statement waits for a connection: what a write waits while the database is away, at most"));
    add(whole(path + ".socket_timeout_ms", 0, MAX_DELAY, c -> pool.apply(c).socketTimeoutMs(), "10000",
        "how long a statement waits for the server's answer; 0 = no limit"));
    add(whole(path + ".statement_timeout_ms", 0, MAX_DELAY, c -> pool.apply(c).statementTimeoutMs(), "5000",
        "the server's statement_timeout for HFR's statements; 0 = the server's own"));
  }

  private static String conditions(boolean retryOn) {
    List<String> names = new ArrayList<>();
    for (RetryCondition c : RetryCondition.values()) {
      boolean never = c == RetryCondition.T7 || c == RetryCondition.T8 || c == RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY;
      if (!retryOn || !never) {
        names.add(c.yamlName());
      }
    }
    return String.join(", ", names);
  }

  private static String levels(DegradeLevel from) {
    return from + ".." + DegradeLevel.values()[DegradeLevel.values().length - 1] + ", ascending";
  }

  private static List<String> names(Enum<?>[] values) {
    List<String> names = new ArrayList<>();
    for (Enum<?> e : values) {
      names.add(e.name());
    }
    return names;
  }

  private static String lower(Criticality.Level level) {
    return level.name().toLowerCase(Locale.ROOT);
  }

  /** A value as the file writes it, or {@code null} for "no value" (absent, or an unlimited cost). */
  static String yaml(Object value) {
    if (value == null || value instanceof Double d && d.isInfinite()) {
      return null;
    }
    if (value instanceof RetryCondition c) {
      return c.yamlName();
    }
    if (value instanceof Jitter j) {
      return j.name().toLowerCase(Locale.ROOT);
    }
    if (value instanceof Collection<?> items) {
      List<String> written = new ArrayList<>();
      for (Object item : items) {
        written.add(yaml(item));
      }
      return "[" + String.join(", ", written) + "]";
    }
    return String.valueOf(value);
  }
}
