package dev.hfr.runtime.config;

import com.fasterxml.jackson.core.JsonToken;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.VerifyLevel;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Validates and binds the YAML tree: every key is checked against the keys its section allows, every
 * value against its type and range; each problem is collected with its file, line, column and key.
 */
final class ConfigReader {

  static final List<String> ROOT_KEYS = List.of("hfr");
  // The keys each section accepts come from the registry the reference is written from (ConfigKeys).
  static final List<String> HFR_KEYS = ConfigKeys.childrenOf("");
  static final List<String> RETRY_KEYS = ConfigKeys.childrenOf("retry");
  static final List<String> TOOL_RETRY_KEYS = RETRY_KEYS.stream()
      .filter(k -> !k.equals("max_retries_per_task") && !k.equals("max_retries_per_tenant_per_min")
          && !k.equals("same_fault_limit") && !k.equals("retry_ratio")).toList();
  /** A tenant's retry: the global keys but the engine-wide same-fault limit. */
  static final List<String> TENANT_RETRY_KEYS = RETRY_KEYS.stream().filter(k -> !k.equals("same_fault_limit")).toList();
  static final List<String> DEGRADATION_KEYS = ConfigKeys.childrenOf("degradation");
  static final List<String> TOOL_DEGRADATION_KEYS = ConfigKeys.childrenOf("tools.*.degradation");
  static final List<String> CRITICALITY_KEYS = List.of("low", "medium", "high");
  static final List<String> HUMAN_KEYS = ConfigKeys.childrenOf("degradation.require_human_for");
  static final List<String> IDEMPOTENCY_KEYS = ConfigKeys.childrenOf("idempotency");
  static final List<String> POOL_KEYS = ConfigKeys.childrenOf("idempotency.pool");
  static final List<String> VERIFICATION_KEYS = ConfigKeys.childrenOf("verification");
  static final List<String> TOOL_VERIFICATION_KEYS = ConfigKeys.childrenOf("tools.*.verification");
  static final List<String> BREAKER_KEYS = ConfigKeys.childrenOf("circuit_breaker");
  static final List<String> FLEET_KEYS = ConfigKeys.childrenOf("fleet");
  static final List<String> TELEMETRY_KEYS = ConfigKeys.childrenOf("telemetry");
  static final List<String> LIMITS_KEYS = ConfigKeys.childrenOf("limits");
  static final List<String> TOOL_KEYS = ConfigKeys.childrenOf("tools.*");
  static final List<String> TENANT_KEYS = ConfigKeys.childrenOf("tenants.*");

  private static final long MAX_DELAY = ConfigKeys.MAX_DELAY;

  private final String source;
  private final List<HfrConfigException.Problem> problems;

  ConfigReader(String source, List<HfrConfigException.Problem> problems) {
    this.source = source;
    this.problems = problems;
  }

  // ---- problems ------------------------------------------------------------------------------------

  void problem(YamlNode at, String why) {
    add(new HfrConfigException.Problem(source, at.line, at.column, at.path.isEmpty() ? "(root)" : at.path, why));
  }

  void keyProblem(YamlNode at, String why) {
    add(new HfrConfigException.Problem(source, at.keyLine, at.keyColumn, at.path, why));
  }

  /** One problem per place: a value already reported (say, an alias) is not reported again for its type. */
  private void add(HfrConfigException.Problem p) {
    for (HfrConfigException.Problem seen : problems) {
      if (seen.line() == p.line() && seen.column() == p.column() && seen.key().equals(p.key())) {
        return;
      }
    }
    problems.add(p);
  }

  /** Reports every key of {@code map} that is not in {@code known}, with a "did you mean". */
  void checkKeys(YamlNode map, List<String> known) {
    for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
      if (!known.contains(e.getKey())) {
        String suggestion = Suggestions.closest(e.getKey(), known);
        String elsewhere = suggestion == null ? Suggestions.whereElse(e.getKey()) : null;
        keyProblem(e.getValue(), "unknown key"
            + (suggestion != null ? "; did you mean `" + suggestion + "`?" : "")
            + (elsewhere != null ? "; `" + e.getKey() + "` belongs in " + elsewhere : "")
            + " (allowed here: " + String.join(", ", known) + ")");
      }
    }
  }

  // ---- typed values --------------------------------------------------------------------------------

  /**
   * A sub-mapping, or {@code null} when absent. A section with nothing under it ({@code retry:} and then
   * a line at the same indentation) is reported: it is nearly always keys that lost their indentation and
   * now sit, silently, somewhere else. An explicitly empty mapping ({@code retry: {}}, which generated
   * configurations write) means "the defaults" and is accepted.
   */
  YamlNode section(YamlNode map, String key) {
    YamlNode n = map.get(key);
    if (n == null) {
      return null;
    }
    if (n.isNull()) {
      problem(n, "the section is empty; put its keys under it (indented), or remove the line (`" + key + ": {}` keeps the defaults)");
      return null;
    }
    if (n.kind != YamlNode.Kind.MAP) {
      problem(n, "must be a mapping of keys to values, was " + n.describe());
      return null;
    }
    return n;
  }

  /** An integer in [min, max], or {@code null} when absent or invalid (then a problem is recorded). */
  Long integer(YamlNode map, String key, long min, long max, String meaning) {
    YamlNode n = map.get(key);
    if (n == null) {
      return null;
    }
    if (n.kind != YamlNode.Kind.SCALAR || n.token != JsonToken.VALUE_NUMBER_INT) {
      problem(n, "must be a whole number" + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", was " + n.describe());
      return null;
    }
    long v;
    try {
      v = Long.parseLong(n.text.replace("_", ""));
    } catch (NumberFormatException e) {
      problem(n, "must be a whole number between " + min + " and " + max + ", was " + n.describe());
      return null;
    }
    if (v < min) {
      problem(n, "must be >= " + min + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", was " + v);
      return null;
    }
    if (v > max) {
      problem(n, "must be <= " + max + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", was " + v);
      return null;
    }
    return v;
  }

  /** A number in [min, max], or {@code null}. */
  Double decimal(YamlNode map, String key, double min, double max, String meaning) {
    YamlNode n = map.get(key);
    if (n == null) {
      return null;
    }
    if (n.kind != YamlNode.Kind.SCALAR
        || n.token != JsonToken.VALUE_NUMBER_INT && n.token != JsonToken.VALUE_NUMBER_FLOAT) {
      problem(n, "must be a number" + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", was " + n.describe());
      return null;
    }
    double v;
    try {
      v = Double.parseDouble(n.text);
    } catch (NumberFormatException e) {
      problem(n, "must be a number, was " + n.describe());
      return null;
    }
    if (!(v >= min && v <= max)) {
      problem(n, "must be between " + min + " and " + max + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", was " + v);
      return null;
    }
    return v;
  }

  /** {@code true}/{@code false}, or {@code null}. */
  Boolean bool(YamlNode map, String key) {
    YamlNode n = map.get(key);
    if (n == null) {
      return null;
    }
    if (n.token == JsonToken.VALUE_TRUE) {
      return true;
    }
    if (n.token == JsonToken.VALUE_FALSE) {
      return false;
    }
    problem(n, "must be true or false, was " + n.describe());
    return null;
  }

  /** One of {@code allowed} (case-insensitive), answered in the allowed spelling, or {@code null}. */
  String choice(YamlNode n, List<String> allowed) {
    if (n.kind != YamlNode.Kind.SCALAR || n.isNull()) {
      problem(n, "must be one of " + String.join(", ", allowed) + ", was " + n.describe());
      return null;
    }
    for (String a : allowed) {
      if (a.equalsIgnoreCase(n.text.trim())) {
        return a;
      }
    }
    String suggestion = Suggestions.closest(n.text, allowed);
    problem(n, "must be one of " + String.join(", ", allowed) + ", was " + n.describe()
        + (suggestion != null ? "; did you mean " + suggestion + "?" : ""));
    return null;
  }

  String choice(YamlNode map, String key, List<String> allowed) {
    YamlNode n = map.get(key);
    return n == null ? null : choice(n, allowed);
  }

  /** The items of a list value; a single scalar is read as a list of one. {@code null} when absent. */
  List<YamlNode> list(YamlNode map, String key) {
    YamlNode n = map.get(key);
    if (n == null) {
      return null;
    }
    if (n.kind == YamlNode.Kind.LIST) {
      return n.items();
    }
    if (n.isNull()) {
      return List.of();
    }
    if (n.kind == YamlNode.Kind.SCALAR) {
      return List.of(n);
    }
    problem(n, "must be a list such as [a, b], was " + n.describe());
    return null;
  }

  static final List<String> LEVEL_NAMES = names(DegradeLevel.values());
  static final List<String> VERIFY_NAMES = names(VerifyLevel.values());
  static final List<String> CRITICALITY_NAMES = List.of("low", "medium", "high");

  private static List<String> names(Enum<?>[] values) {
    List<String> names = new ArrayList<>();
    for (Enum<?> e : values) {
      names.add(e.name());
    }
    return List.copyOf(names);
  }

  /** A list of degradation levels, or {@code null}. */
  EnumSet<DegradeLevel> levels(YamlNode map, String key) {
    List<YamlNode> items = list(map, key);
    if (items == null) {
      return null;
    }
    EnumSet<DegradeLevel> levels = EnumSet.noneOf(DegradeLevel.class);
    for (YamlNode item : items) {
      String name = choice(item, LEVEL_NAMES);
      if (name != null) {
        levels.add(DegradeLevel.valueOf(name));
      }
    }
    return levels;
  }

  Criticality.Level criticality(YamlNode map, String key) {
    String c = choice(map, key, CRITICALITY_NAMES);
    return c == null ? null : Criticality.Level.valueOf(c.toUpperCase(Locale.ROOT));
  }

  VerifyLevel verifyLevel(YamlNode map, String key) {
    String v = choice(map, key, VERIFY_NAMES);
    return v == null ? null : VerifyLevel.valueOf(v);
  }

  // ---- sections ------------------------------------------------------------------------------------

  /** Reads a retry section into {@code d}; tool sections may not hold the task and tenant budgets. */
  void readRetry(YamlNode s, RetryDraft d, boolean toolLevel) {
    readRetry(s, d, toolLevel ? TOOL_RETRY_KEYS : RETRY_KEYS);
  }

  /** The retry keys of {@code s}, of those {@code allowed} (the global section's, a tenant's or a tool's). */
  void readRetry(YamlNode s, RetryDraft d, List<String> allowed) {
    boolean toolLevel = allowed == TOOL_RETRY_KEYS;
    checkKeys(s, allowed);
    Long base = integer(s, "base_delay_ms", 0, MAX_DELAY, "the backoff's base delay d0, in milliseconds");
    if (base != null) {
      d.baseDelayMs = base;
      d.baseDelayAt = s.get("base_delay_ms");
    }
    Long max = integer(s, "max_delay_ms", 0, MAX_DELAY, "the backoff's cap, in milliseconds");
    if (max != null) {
      d.maxDelayMs = max;
      d.maxDelayAt = s.get("max_delay_ms");
    }
    String jitter = choice(s, "jitter", List.of("full", "none"));
    if (jitter != null) {
      d.jitter = Jitter.valueOf(jitter.toUpperCase(Locale.ROOT));
    }
    Long attempts = integer(s, "max_attempts_per_step", 1, 100,
        "it counts attempts, the first included: 1 means no retry, 4 means 1 + 3 retries");
    if (attempts != null) {
      d.maxAttemptsPerStep = attempts.intValue();
    }
    if (allowed == RETRY_KEYS) {
      Long same = integer(s, "same_fault_limit", 1, 100, "the same fault this many times in a row stops retrying"
          + " before max_attempts_per_step is reached; set both to retry a steady fault more often");
      if (same != null) {
        d.sameFaultLimit = same.intValue();
      }
    }
    if (!toolLevel) {
      Long perTask = integer(s, "max_retries_per_task", 0, 1_000_000, "extra attempts one task may spend; 0 = none");
      if (perTask != null) {
        d.maxRetriesPerTask = perTask.intValue();
      }
      Long perTenant = integer(s, "max_retries_per_tenant_per_min", 0, 100_000_000,
          "retries one tenant may spend per minute; 0 = none");
      if (perTenant != null) {
        d.maxRetriesPerTenantPerMinute = perTenant.intValue();
      }
      Double ratio = decimal(s, "retry_ratio", 0, 10,
          "retries a tenant may add per call it made in the last 10 s; 0 leaves only max_retries_per_tenant_per_min");
      if (ratio != null) {
        d.retryRatio = ratio;
      }
    }
    Boolean respect = bool(s, "respect_retry_after");
    if (respect != null) {
      d.respectRetryAfter = respect;
    }
    EnumSet<RetryCondition> on = conditions(s, "retry_on", true);
    EnumSet<RetryCondition> never = conditions(s, "never_retry_on", false);
    if (on != null) {
      d.retryOn = on;
    }
    if (never != null) {
      d.neverRetryOn = never;
    }
    d.neverRetryOn.add(RetryCondition.T7);
    d.neverRetryOn.add(RetryCondition.T8);
    d.neverRetryOn.add(RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY); // the retry gate's own rule: always in force
    if (on != null || never != null) {
      for (RetryCondition c : d.retryOn) {
        if (d.neverRetryOn.contains(c)) {
          problem(s.get(on != null ? "retry_on" : "never_retry_on"),
              c.yamlName() + " is listed in both retry_on and never_retry_on; remove it from one of them");
        }
      }
    }
  }

  /** Checks base <= max after a layer was applied; reported at the key the layer set. */
  void checkDelays(RetryDraft d, YamlNode section) {
    if (d.baseDelayMs > d.maxDelayMs) {
      YamlNode at = d.maxDelayAt != null ? d.maxDelayAt : d.baseDelayAt != null ? d.baseDelayAt : section;
      problem(at, "base_delay_ms (" + d.baseDelayMs + ") must not exceed max_delay_ms (" + d.maxDelayMs
          + "); raise max_delay_ms or lower base_delay_ms");
    }
  }

  private EnumSet<RetryCondition> conditions(YamlNode s, String key, boolean retryOn) {
    List<YamlNode> items = list(s, key);
    if (items == null) {
      return null;
    }
    EnumSet<RetryCondition> set = EnumSet.noneOf(RetryCondition.class);
    List<String> allowed = new ArrayList<>();
    for (RetryCondition c : RetryCondition.values()) {
      if (!retryOn || retryable(c)) {
        allowed.add(c.yamlName());
      }
    }
    for (YamlNode item : items) {
      RetryCondition c = item.kind == YamlNode.Kind.SCALAR ? RetryCondition.fromYaml(item.text) : null;
      if (c == null) {
        String suggestion = item.kind == YamlNode.Kind.SCALAR ? Suggestions.closest(item.text, allowed) : null;
        problem(item, "unknown fault class " + item.describe() + "; expected one of " + String.join(", ", allowed)
            + (suggestion != null ? " (did you mean " + suggestion + "?)" : ""));
      } else if (retryOn && (c == RetryCondition.T7 || c == RetryCondition.T8)) {
        problem(item, c.yamlName() + " is never retried ("
            + (c == RetryCondition.T7 ? "a permanent input or permission error fails the same way again"
                : "a safety or policy refusal must be escalated, never retried or routed around")
            + "); remove it from retry_on");
      } else if (retryOn && c == RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY) {
        problem(item, "T3_write_without_idempotency only makes sense in never_retry_on; use T3 or T3_readonly here");
      } else {
        set.add(c);
      }
    }
    return set;
  }

  private static boolean retryable(RetryCondition c) {
    return c != RetryCondition.T7 && c != RetryCondition.T8 && c != RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY;
  }

  DegradationSettings readDegradation(YamlNode s, DegradationSettings base) {
    checkKeys(s, DEGRADATION_KEYS);
    List<DegradeLevel> ladder = base.ladder();
    List<YamlNode> ladderItems = list(s, "ladder");
    if (ladderItems != null) {
      List<DegradeLevel> read = new ArrayList<>();
      for (YamlNode item : ladderItems) {
        String name = choice(item, LEVEL_NAMES);
        if (name != null) {
          DegradeLevel l = DegradeLevel.valueOf(name);
          if (!read.isEmpty() && l.ordinal() <= read.get(read.size() - 1).ordinal()) {
            problem(item, "the ladder must climb: " + l + " after " + read.get(read.size() - 1)
                + "; list levels in ascending order without repeats, e.g. [L0, L1, L2, L3, L4]");
          } else {
            read.add(l);
          }
        }
      }
      if (read.isEmpty() || read.get(0) != DegradeLevel.L0) {
        problem(s.get("ladder"), "the ladder must start with L0 (the normal path)");
      } else {
        ladder = read;
      }
    }
    Map<Criticality.Level, Double> floors = new EnumMap<>(base.qualityFloor());
    YamlNode floorNode = section(s, "quality_floor");
    if (floorNode != null) {
      checkKeys(floorNode, CRITICALITY_KEYS);
      for (Criticality.Level level : Criticality.Level.values()) {
        Double v = decimal(floorNode, lower(level), 0, 1,
            "the task owner's minimum quality for a degraded result, not a model confidence");
        if (v != null) {
          floors.put(level, v);
        }
      }
      if (floors.get(Criticality.Level.LOW) > floors.get(Criticality.Level.MEDIUM)
          || floors.get(Criticality.Level.MEDIUM) > floors.get(Criticality.Level.HIGH)) {
        problem(floorNode, "quality floors must not decrease with criticality (low <= medium <= high), were "
            + floors.get(Criticality.Level.LOW) + ", " + floors.get(Criticality.Level.MEDIUM) + ", "
            + floors.get(Criticality.Level.HIGH));
      }
    }
    Map<Criticality.Level, Set<DegradeLevel>> auto = new EnumMap<>(base.allowAutoDegrade());
    YamlNode autoNode = section(s, "allow_auto_degrade");
    if (autoNode != null) {
      checkKeys(autoNode, CRITICALITY_KEYS);
      for (Criticality.Level level : Criticality.Level.values()) {
        EnumSet<DegradeLevel> levels = levels(autoNode, lower(level));
        if (levels != null) {
          checkAutoLevels(autoNode.get(lower(level)), level, levels);
          auto.put(level, levels);
        }
      }
    }
    Map<Criticality.Level, Set<DegradeLevel>> human = new EnumMap<>(base.requireHumanFor());
    Set<DegradeLevel> irreversible = base.requireHumanForIrreversible();
    YamlNode humanNode = section(s, "require_human_for");
    if (humanNode != null) {
      checkKeys(humanNode, HUMAN_KEYS);
      for (Criticality.Level level : Criticality.Level.values()) {
        EnumSet<DegradeLevel> levels = levels(humanNode, lower(level));
        if (levels != null) {
          human.put(level, levels);
        }
      }
      EnumSet<DegradeLevel> irr = levels(humanNode, "irreversible");
      if (irr != null) {
        irreversible = irr;
      }
    }
    try {
      return new DegradationSettings(ladder, floors, auto, human, irreversible);
    } catch (IllegalArgumentException e) {
      problem(s, e.getMessage());
      return base;
    }
  }

  /** HIGH criticality may not degrade to L3/L4 without a human (Table 5); L0 is not a degradation. */
  void checkAutoLevels(YamlNode at, Criticality.Level level, EnumSet<DegradeLevel> levels) {
    if (levels.remove(DegradeLevel.L0)) {
      problem(at, "L0 is the normal path, not a degradation; remove it");
    }
    if (level == Criticality.Level.HIGH && (levels.contains(DegradeLevel.L3) || levels.contains(DegradeLevel.L4))) {
      problem(at, "HIGH criticality may degrade automatically only to L1 and L2 (paper Table 5); "
          + "remove L3/L4 here (they need a human: require_human_for.high)");
      levels.remove(DegradeLevel.L3);
      levels.remove(DegradeLevel.L4);
    }
  }

  IdempotencySettings readIdempotency(YamlNode s, IdempotencySettings base) {
    checkKeys(s, IDEMPOTENCY_KEYS);
    Boolean enabled = bool(s, "enabled");
    List<YamlNode> fields = list(s, "key_fields");
    if (fields != null) {
      Set<String> read = new LinkedHashSet<>();
      for (YamlNode f : fields) {
        String name = choice(f, IdempotencySettings.KEY_FIELDS);
        if (name != null) {
          read.add(name);
        }
      }
      if (!read.containsAll(IdempotencySettings.KEY_FIELDS)) {
        List<String> missing = new ArrayList<>(IdempotencySettings.KEY_FIELDS);
        missing.removeAll(read);
        problem(s.get("key_fields"), "the ledger key always hashes all of " + IdempotencySettings.KEY_FIELDS
            + " (leaving one out would merge different calls into one); missing " + missing);
      }
    }
    String ledger = choice(s, "ledger", IdempotencySettings.LEDGERS);
    Long timeout = integer(s, "reconcile_timeout_ms", 1, 600_000, "how long one reconcile call may take");
    String path = text(s, "path", "the embedded ledger's directory");
    Long retention = integer(s, "retention_hours", 1, IdempotencySettings.MAX_RETENTION_HOURS,
        "how long a settled ledger record is kept, in hours");
    String jdbcUrl = text(s, "jdbc_url", "the PostgreSQL ledger's JDBC URL");
    if (jdbcUrl != null && !jdbcUrl.startsWith("jdbc:postgresql:")) {
      problem(s.get("jdbc_url"), "the ledger's JDBC URL starts with jdbc:postgresql: (e.g."
          + " jdbc:postgresql://db:5432/hfr?user=hfr), was " + SecretValues.shown("jdbc_url", jdbcUrl));
    }
    YamlNode poolNode = section(s, "pool");
    return new IdempotencySettings(enabled != null ? enabled : base.enabled(), IdempotencySettings.KEY_FIELDS,
        ledger != null ? ledger : base.ledger(), timeout != null ? timeout : base.reconcileTimeoutMs(),
        path != null ? path : base.path(), jdbcUrl != null ? jdbcUrl : base.jdbcUrl(),
        poolNode != null ? readPool(poolNode, base.pool()) : base.pool(),
        retention != null ? retention : base.retentionHours());
  }

  VerificationSettings readVerification(YamlNode s, VerificationSettings base) {
    checkKeys(s, VERIFICATION_KEYS);
    VerifyLevel def = verifyLevel(s, "default_level");
    // A default_level the file sets is the level of every criticality its `levels` leaves out; without
    // one, the criticalities it leaves out keep the paper's levels (V1 / V2 / V2).
    Map<Criticality.Level, VerifyLevel> levels = def != null ? new EnumMap<>(Criticality.Level.class)
        : new EnumMap<>(base.levels());
    YamlNode levelsNode = section(s, "levels");
    if (levelsNode != null) {
      checkKeys(levelsNode, CRITICALITY_KEYS);
      for (Criticality.Level level : Criticality.Level.values()) {
        VerifyLevel v = verifyLevel(levelsNode, lower(level));
        if (v != null) {
          levels.put(level, v);
        }
      }
    }
    Double rate = decimal(s, "human_spot_check_rate", 0, 1, "the share of accepted results a human samples");
    return new VerificationSettings(def != null ? def : base.defaultLevel(), levels,
        rate != null ? rate : base.humanSpotCheckRate());
  }

  BreakerSettings readBreaker(YamlNode s, BreakerSettings base) {
    checkKeys(s, BREAKER_KEYS);
    Double errorRate = decimal(s, "error_rate_threshold", 0.01, 1, "share of failed calls that trips the breaker");
    Double rateLimit = decimal(s, "rate_limit_threshold", 0.01, 1, "share of 429s that trips the breaker");
    Long p95 = integer(s, "p95_latency_ms", 0, MAX_DELAY, "0 turns the latency trigger off");
    Long consecutive = integer(s, "consecutive_failures", 1, 10_000, "failures in a row that trip the breaker");
    Long cooldown = integer(s, "cooldown_ms", 0, MAX_DELAY, "how long the breaker stays open");
    Long probes = integer(s, "half_open_probes", 1, 1000, "calls let through while half-open");
    Long window = integer(s, "window_ms", 1, MAX_DELAY, "the window rates are computed over");
    Long minCalls = integer(s, "min_calls", 1, 1_000_000, "calls needed before rates can trip");
    Double multiplier = decimal(s, "cooldown_multiplier", 1, 100, "each failed probe multiplies the cooldown by this; 1 keeps it");
    Long maxCooldown = integer(s, "max_cooldown_ms", 1, MAX_DELAY, "the longest the cooldown grows to");
    Double jitter = decimal(s, "cooldown_jitter", 0, 0.99, "each cooldown is drawn within ± this fraction");
    long cooldownMs = cooldown != null ? cooldown : base.cooldownMs();
    // Unless set, the cap never undercuts the cooldown itself (a 10 min cooldown with the 5 min default cap).
    long maxCooldownMs = maxCooldown != null ? maxCooldown : Math.max(base.maxCooldownMs(), cooldownMs);
    BreakerSettings settings = new BreakerSettings(errorRate != null ? errorRate : base.errorRateThreshold(),
        rateLimit != null ? rateLimit : base.rateLimitThreshold(), p95 != null ? p95 : base.p95LatencyMs(),
        consecutive != null ? consecutive.intValue() : base.consecutiveFailures(),
        cooldownMs, probes != null ? probes.intValue() : base.halfOpenProbes(),
        window != null ? window : base.windowMs(), minCalls != null ? minCalls.intValue() : base.minCalls(),
        multiplier != null ? multiplier : base.cooldownMultiplier(), maxCooldownMs,
        jitter != null ? jitter : base.cooldownJitter());
    checkBreakerWorks(s, settings);
    return settings;
  }

  /** Breaker settings ({@code CircuitBreakerConfig} builder names) and the keys that set them, longest name first. */
  private static final List<Map.Entry<String, String>> BREAKER_SETTING_KEYS = List.of(
      Map.entry("rateLimitedRateThreshold", "rate_limit_threshold"), Map.entry("errorRateThreshold", "error_rate_threshold"),
      Map.entry("consecutiveFailures", "consecutive_failures"), Map.entry("latencyThreshold", "p95_latency_ms"),
      Map.entry("windowDuration", "window_ms"), Map.entry("halfOpenProbes", "half_open_probes"),
      Map.entry("minimumCalls", "min_calls"), Map.entry("maxCooldown", "max_cooldown_ms"), Map.entry("cooldownMultiplier", "cooldown_multiplier"),
      Map.entry("cooldownJitter", "cooldown_jitter"), Map.entry("maxCooldown", "cooldown_ms"), Map.entry("cooldown", "cooldown_ms"));

  /**
   * Builds the breaker the settings describe, so every cross-field rule the breaker has (such as
   * {@code min_calls} at most its window of calls) is checked now, at the key that breaks it.
   */
  private void checkBreakerWorks(YamlNode section, BreakerSettings settings) {
    try {
      settings.toBreakerConfig();
    } catch (IllegalArgumentException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      YamlNode at = section;
      for (Map.Entry<String, String> k : BREAKER_SETTING_KEYS) {
        if (message.startsWith(k.getKey()) && section.get(k.getValue()) != null) {
          at = section.get(k.getValue());
          break;
        }
      }
      problem(at, "the circuit breaker cannot work with these settings: " + message
          + (message.startsWith("minimumCalls") ? " (the breaker keeps the last "
              + dev.hfr.runtime.breaker.CircuitBreakerConfig.defaults().windowSize() + " calls; lower min_calls)" : ""));
    }
  }

  TelemetrySettings readTelemetry(YamlNode s, TelemetrySettings base) {
    checkKeys(s, TELEMETRY_KEYS);
    Double rate = decimal(s, "sample_rate", 0, 1, "the share of decision events written");
    Boolean redact = bool(s, "redact_pii");
    Boolean emit = bool(s, "emit_decision_events");
    return new TelemetrySettings(rate != null ? rate : base.sampleRate(), redact != null ? redact : base.redactPii(),
        emit != null ? emit : base.emitDecisionEvents());
  }

  FleetSettings readFleet(YamlNode s, FleetSettings base) {
    checkKeys(s, FLEET_KEYS);
    Boolean enabled = bool(s, "enabled");
    String url = text(s, "jdbc_url", "the fleet's JDBC URL");
    Long workers = integer(s, "expected_workers", 1, 100_000, "workers sharing a budget; each takes this share when the database is unreachable");
    String worker = text(s, "worker", "this worker's name in the fleet's tables");
    Long sync = integer(s, "sync_interval_ms", 10, MAX_DELAY, "how late a breaker state of another worker may arrive");
    Long batch = integer(s, "batch_size", 1, 1_000_000, "the most retry tokens one lease takes");
    YamlNode poolNode = section(s, "pool");
    return new FleetSettings(enabled != null ? enabled : base.enabled(), url != null ? url : base.jdbcUrl(),
        workers != null ? workers.intValue() : base.expectedWorkers(), worker != null ? worker : base.worker(),
        sync != null ? sync : base.syncIntervalMs(), batch != null ? batch.intValue() : base.batchSize(),
        poolNode != null ? readPool(poolNode, base.pool()) : base.pool());
  }

  /** {@code idempotency.pool} and {@code fleet.pool}: the pool HFR opens on a JDBC URL. */
  PoolSettings readPool(YamlNode s, PoolSettings base) {
    checkKeys(s, POOL_KEYS);
    Long size = integer(s, "max_size", 1, 1_000, "connections the pool holds at most");
    Long connect = integer(s, "connect_timeout_ms", 250, MAX_DELAY, "how long a statement waits for a connection (HikariCP's floor is 250)");
    Long socket = integer(s, "socket_timeout_ms", 0, MAX_DELAY, "how long a statement waits for the server's answer; 0 for no limit");
    Long statement = integer(s, "statement_timeout_ms", 0, MAX_DELAY, "the server's statement_timeout; 0 for the server's own");
    return new PoolSettings(size != null ? size.intValue() : base.maxSize(), connect != null ? connect : base.connectTimeoutMs(),
        socket != null ? socket : base.socketTimeoutMs(), statement != null ? statement : base.statementTimeoutMs());
  }

  TaskLimitSettings readLimits(YamlNode s, TaskLimitSettings base) {
    checkKeys(s, LIMITS_KEYS);
    Long turns = integer(s, "max_turns", 1, 1_000_000, "model turns per task");
    Long calls = integer(s, "max_tool_calls", 1, 10_000_000, "tool calls per task");
    Long same = integer(s, "max_same_tool_calls", 1, 1_000_000, "calls of one tool in a row before it is a repeated action");
    Long wall = integer(s, "max_wall_time_ms", 1, 30L * 86_400_000L, "wall time per task");
    double cost = base.maxCost();
    YamlNode costNode = s.get("max_cost");
    if (costNode != null && !costNode.isNull()) {
      Double c = decimal(s, "max_cost", 0, Double.MAX_VALUE, "cost units per task; leave out or null for no limit");
      if (c != null) {
        cost = c;
      }
    } else if (costNode != null) {
      cost = Double.POSITIVE_INFINITY;
    }
    Long writes = integer(s, "max_write_actions", 0, 10_000_000, "side-effecting calls per task");
    return new TaskLimitSettings(turns != null ? turns.intValue() : base.maxTurns(),
        calls != null ? calls.intValue() : base.maxToolCalls(), same != null ? same.intValue() : base.maxSameToolCalls(),
        wall != null ? wall : base.maxWallTimeMs(), cost, writes != null ? writes.intValue() : base.maxWriteActions());
  }

  /** A non-blank string value, or {@code null} when the key is absent (a problem when it is not text). */
  String text(YamlNode s, String key, String what) {
    YamlNode v = s.get(key);
    if (v == null) {
      return null;
    }
    if (v.kind != YamlNode.Kind.SCALAR || v.isNull() || v.text.isBlank()) {
      problem(v, what + " must be a non-empty string, was " + v.describe());
      return null;
    }
    return v.text.trim();
  }

  /** An attempt's time bound: {@code timeout_ms} of a tool or tenant section. */
  Long timeoutMs(YamlNode s) {
    return integer(s, "timeout_ms", 1, MAX_DELAY, "the longest one attempt of the tool may take");
  }

  static String lower(Criticality.Level level) {
    return level.name().toLowerCase(Locale.ROOT);
  }
}
