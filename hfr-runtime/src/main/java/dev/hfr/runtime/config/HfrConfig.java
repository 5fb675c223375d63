package dev.hfr.runtime.config;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HFR's configuration: the YAML of the paper's §5.2 (see {@code docs/CONFIG.md}), immutable. Read it with
 * {@link HfrConfigLoader}; {@link #defaults()} holds the paper's values.
 *
 * <p>Besides the global sections it answers the effective policy of a tool for a tenant
 * ({@link #policyFor}), layering, lowest first: the global file values, the tool's annotations (where
 * they differ from the annotation defaults), the tenant's section, the file's {@code tools} entry for the
 * tool, and the tenant's own {@code tools} entry. The safety rules of the annotation processor hold
 * whatever the file says: an R3 tool is never retried, T7 and T8 never retried, HIGH criticality never
 * degrades to L3/L4 without a human. Each (tenant, tool) is resolved once and cached; tenants without a
 * section share one cache, so the cache is bounded by the file, not by traffic.
 */
public final class HfrConfig {

  /** The tenant name of policies resolved without a tenant section. */
  public static final String DEFAULT_TENANT = "default";

  /** The configuration versions this runtime reads. */
  public static final List<String> SUPPORTED_VERSIONS = List.of("1.0");

  private static final int MAX_CACHED_TOOLS = 10_000;

  private static final HfrConfig DEFAULTS = new HfrConfig("defaults", "1.0", RetrySettings.DEFAULTS,
      DegradationSettings.DEFAULTS, IdempotencySettings.DEFAULTS, VerificationSettings.DEFAULTS, BreakerSettings.DEFAULTS,
      TelemetrySettings.DEFAULTS, TaskLimitSettings.DEFAULTS, FleetSettings.DEFAULTS, Map.of(), Map.of(), Map.of());

  private final String source;
  private final String version;
  private final RetrySettings retry;
  private final DegradationSettings degradation;
  private final IdempotencySettings idempotency;
  private final VerificationSettings verification;
  private final BreakerSettings circuitBreaker;
  private final TelemetrySettings telemetry;
  private final TaskLimitSettings limits;
  private final FleetSettings fleet;
  private final Map<String, YamlNode> tools;
  private final Map<String, YamlNode> tenants;
  /** What the modules' {@link ConfigSection}s read, by section key. */
  private final Map<String, Object> sections;
  private final ConcurrentHashMap<ToolDescriptor, ToolPolicy> defaultTenantPolicies = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ConcurrentHashMap<ToolDescriptor, ToolPolicy>> tenantPolicies =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, TenantPolicy> tenantBudgets = new ConcurrentHashMap<>();
  private final TenantPolicy defaultTenant;

  HfrConfig(String source, String version, RetrySettings retry, DegradationSettings degradation,
      IdempotencySettings idempotency, VerificationSettings verification, BreakerSettings circuitBreaker,
      TelemetrySettings telemetry, TaskLimitSettings limits, FleetSettings fleet, Map<String, YamlNode> tools,
      Map<String, YamlNode> tenants, Map<String, Object> sections) {
    this.source = Objects.requireNonNull(source, "source");
    this.version = Objects.requireNonNull(version, "version");
    this.retry = Objects.requireNonNull(retry, "retry");
    this.degradation = Objects.requireNonNull(degradation, "degradation");
    this.idempotency = Objects.requireNonNull(idempotency, "idempotency");
    this.verification = Objects.requireNonNull(verification, "verification");
    this.circuitBreaker = Objects.requireNonNull(circuitBreaker, "circuitBreaker");
    this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.fleet = Objects.requireNonNull(fleet, "fleet");
    this.tools = Collections.unmodifiableMap(new LinkedHashMap<>(tools));
    this.tenants = Collections.unmodifiableMap(new LinkedHashMap<>(tenants));
    this.sections = Map.copyOf(sections);
    this.defaultTenant = new TenantPolicy(DEFAULT_TENANT, retry.maxRetriesPerTask(), retry.maxRetriesPerTenantPerMinute(),
        limits, circuitBreaker, retry.retryRatio());
  }

  /** The paper's §5.2 values (with the embedded ledger instead of PostgreSQL), no tenant or tool overrides. */
  public static HfrConfig defaults() {
    return DEFAULTS;
  }

  /** Where this configuration was read from ("defaults" for {@link #defaults()}). */
  public String source() { return source; }

  public String version() { return version; }

  public RetrySettings retry() { return retry; }

  public DegradationSettings degradation() { return degradation; }

  public IdempotencySettings idempotency() { return idempotency; }

  public VerificationSettings verification() { return verification; }

  public BreakerSettings circuitBreaker() { return circuitBreaker; }

  public TelemetrySettings telemetry() { return telemetry; }

  /** Whether, and through which database, this engine shares budgets and breakers with a fleet. */
  public FleetSettings fleet() { return fleet; }

  /** The global task limits. */
  public TaskLimitSettings limits() { return limits; }

  /**
   * What {@code section} read from this configuration's {@code hfr.<key>} section, or the section's
   * defaults when the file has none (or when this configuration did not come from a file).
   */
  public <T> T section(ConfigSection<T> section) {
    Object value = sections.get(section.key());
    return value == null ? section.defaults() : section.type().cast(value);
  }

  /** The tenants that have a section, in file order. */
  public List<String> configuredTenants() {
    return List.copyOf(tenants.keySet());
  }

  /** The tool names the file's {@code tools} section overrides, in file order. */
  public List<String> configuredTools() {
    return List.copyOf(tools.keySet());
  }

  /** A copy with other global retry settings. */
  public HfrConfig withRetry(RetrySettings retry) {
    return new HfrConfig(source, version, retry, degradation, idempotency, verification, circuitBreaker, telemetry, limits,
        fleet, tools, tenants, sections);
  }

  /** A copy with other circuit breaker settings. */
  public HfrConfig withCircuitBreaker(BreakerSettings breaker) {
    return new HfrConfig(source, version, retry, degradation, idempotency, verification, breaker, telemetry, limits,
        fleet, tools, tenants, sections);
  }

  /** A copy with other global task limits. */
  public HfrConfig withLimits(TaskLimitSettings limits) {
    return new HfrConfig(source, version, retry, degradation, idempotency, verification, circuitBreaker, telemetry, limits,
        fleet, tools, tenants, sections);
  }

  /** A copy with other idempotency settings. */
  public HfrConfig withIdempotency(IdempotencySettings idempotency) {
    return new HfrConfig(source, version, retry, degradation, idempotency, verification, circuitBreaker, telemetry, limits,
        fleet, tools, tenants, sections);
  }

  /** A copy with other telemetry settings. */
  public HfrConfig withTelemetry(TelemetrySettings telemetry) {
    return new HfrConfig(source, version, retry, degradation, idempotency, verification, circuitBreaker, telemetry, limits,
        fleet, tools, tenants, sections);
  }

  // ---- tenants -------------------------------------------------------------------------------------

  /** The budgets and task limits of a tenant; tenants without a section (and {@code null}) get the global ones. */
  public TenantPolicy tenant(String tenant) {
    YamlNode section = tenant == null ? null : tenants.get(tenant);
    if (section == null) {
      return defaultTenant;
    }
    return tenantBudgets.computeIfAbsent(tenant, t -> resolveTenant(t, section));
  }

  private TenantPolicy resolveTenant(String tenant, YamlNode section) {
    ConfigReader r = quietReader();
    RetryDraft d = RetryDraft.of(retry);
    YamlNode retrySection = r.section(section, "retry");
    if (retrySection != null) {
      r.readRetry(retrySection, d, false);
    }
    YamlNode limitsSection = r.section(section, "limits");
    TaskLimitSettings l = limitsSection != null ? r.readLimits(limitsSection, limits) : limits;
    YamlNode breakerSection = r.section(section, "circuit_breaker");
    BreakerSettings b = breakerSection != null ? r.readBreaker(breakerSection, circuitBreaker) : circuitBreaker;
    return new TenantPolicy(tenant, d.maxRetriesPerTask, d.maxRetriesPerTenantPerMinute, l, b, d.retryRatio);
  }

  // ---- tools ---------------------------------------------------------------------------------------

  /**
   * The effective policy of {@code tool} for {@code tenant} ({@code null} or an unconfigured tenant: the
   * global values). Never throws for a valid configuration; overrides that the safety rules refuse are
   * left out and listed in {@link ToolPolicy#adjustments()}.
   */
  public ToolPolicy policyFor(String tenant, ToolDescriptor tool) {
    Objects.requireNonNull(tool, "tool");
    YamlNode tenantSection = tenant == null ? null : tenants.get(tenant);
    ConcurrentHashMap<ToolDescriptor, ToolPolicy> cache = tenantSection == null ? defaultTenantPolicies
        : tenantPolicies.computeIfAbsent(tenant, t -> new ConcurrentHashMap<>());
    ToolPolicy cached = cache.get(tool);
    if (cached != null) {
      return cached;
    }
    String name = tenantSection == null ? DEFAULT_TENANT : tenant;
    if (cache.size() >= MAX_CACHED_TOOLS) {
      return resolve(name, tenantSection, tool, new ArrayList<>());
    }
    return cache.computeIfAbsent(tool, t -> resolve(name, tenantSection, t, new ArrayList<>()));
  }

  /**
   * Checks the file's tool overrides against the tools that exist: names that match no tool (with a "did
   * you mean"), and overrides the safety rules refuse (retrying an R3 tool, automatic L3/L4 for a HIGH
   * one). Call it once at startup with the catalog's descriptors to fail fast.
   *
   * @throws HfrConfigException listing every problem, each with its line
   */
  public void check(Iterable<ToolDescriptor> knownTools) {
    check(knownTools, false);
  }

  /**
   * {@link #check(Iterable)} as the engine runs it at {@code build()}, before any adapter has named its tools: a
   * name that is not of the generated tools' form ({@code SimpleClass.method}, a class name starting with a capital)
   * and is close to none of them is left alone, since an adapter names such tools when it connects (an MCP server's
   * {@code "tracker.search_issues"}). A misspelt generated tool is still refused.
   */
  public void checkAtBuild(Iterable<ToolDescriptor> knownTools) {
    check(knownTools, true);
  }

  private void check(Iterable<ToolDescriptor> knownTools, boolean adaptersNameMore) {
    List<HfrConfigException.Problem> problems = new ArrayList<>();
    Map<String, ToolDescriptor> byName = new LinkedHashMap<>();
    for (ToolDescriptor d : knownTools) {
      byName.put(d.name(), d);
      byName.put(d.toolClass() + "." + d.method(), d);
    }
    ConfigReader r = new ConfigReader(source, problems);
    checkToolNames(tools, byName, r, adaptersNameMore);
    for (Map.Entry<String, YamlNode> tenant : tenants.entrySet()) {
      YamlNode tenantTools = quietReader().section(tenant.getValue(), "tools");
      if (tenantTools != null) {
        checkToolNames(tenantTools.entries(), byName, r, adaptersNameMore);
      }
    }
    List<String> tenantNames = new ArrayList<>();
    tenantNames.add(null);
    tenantNames.addAll(tenants.keySet());
    for (String tenant : tenantNames) {
      YamlNode tenantSection = tenant == null ? null : tenants.get(tenant);
      for (ToolDescriptor d : new java.util.LinkedHashSet<>(byName.values())) {
        List<HfrConfigException.Problem> refused = new ArrayList<>();
        resolve(tenant == null ? DEFAULT_TENANT : tenant, tenantSection, d, refused);
        for (HfrConfigException.Problem p : refused) {
          if (!problems.contains(p)) {
            problems.add(p);
          }
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new HfrConfigException(problems);
    }
  }

  private static void checkToolNames(
      Map<String, YamlNode> sections, Map<String, ToolDescriptor> byName, ConfigReader r, boolean adaptersNameMore) {
    for (Map.Entry<String, YamlNode> e : sections.entrySet()) {
      if (!byName.containsKey(e.getKey())) {
        String suggestion = Suggestions.closest(e.getKey(), byName.keySet());
        if (adaptersNameMore && suggestion == null && !Character.isUpperCase(e.getKey().charAt(0))) {
          continue; // not a generated tool's name, nor close to one: an adapter's (MCP's server.tool)
        }
        r.problem(e.getValue(), "no tool is named " + e.getKey()
            + (suggestion != null ? "; did you mean " + suggestion + "?"
                : byName.isEmpty() ? "; no tool was found at all: is hfr-processor on the annotation processor path"
                    + " (docs/TROUBLESHOOTING.md), and are the tools' classes on the class path? (Or, for a file"
                    + " shared by several applications: Hfr.builder().checkConfig(false))"
                : "; tools are named SimpleClass.method"));
      }
    }
  }

  private ToolPolicy resolve(String tenantName, YamlNode tenantSection, ToolDescriptor tool,
      List<HfrConfigException.Problem> refused) {
    ConfigReader quiet = quietReader();
    YamlNode globalTool = toolSection(tools, tool);
    YamlNode tenantTool = null;
    if (tenantSection != null) {
      YamlNode tenantTools = quiet.section(tenantSection, "tools");
      tenantTool = tenantTools == null ? null : toolSection(tenantTools.entries(), tool);
    }
    List<YamlNode> toolLayers = new ArrayList<>(2);
    if (globalTool != null) {
      toolLayers.add(globalTool);
    }
    if (tenantTool != null) {
      toolLayers.add(tenantTool);
    }
    ConfigReader refusals = new ConfigReader(source, refused);

    Criticality.Level criticality = tool.criticality();
    for (YamlNode layer : toolLayers) {
      Criticality.Level c = quiet.criticality(layer, "criticality");
      if (c != null) {
        criticality = c;
      }
    }

    // retry: global values under the annotation, then tenant, tool and tenant-tool overrides
    RetryDraft d = RetryDraft.of(retry);
    applyAnnotation(d, tool.retry(), tool.risk());
    RetryDraft fromConfig = d.copy();
    YamlNode tenantRetry = tenantSection == null ? null : quiet.section(tenantSection, "retry");
    if (tenantRetry != null) {
      quiet.readRetry(tenantRetry, fromConfig, ConfigReader.TENANT_RETRY_KEYS);
    }
    for (YamlNode layer : toolLayers) {
      YamlNode s = quiet.section(layer, "retry");
      if (s != null) {
        quiet.readRetry(s, fromConfig, true);
      }
    }
    if (fromConfig.baseDelayMs > fromConfig.maxDelayMs) {
      YamlNode at = fromConfig.maxDelayAt != null ? fromConfig.maxDelayAt : fromConfig.baseDelayAt;
      if (at != null) {
        refusals.problem(at, "for " + tool.name() + " base_delay_ms (" + fromConfig.baseDelayMs
            + ") exceeds max_delay_ms (" + fromConfig.maxDelayMs + "); max_delay_ms raised to match");
      }
      fromConfig.maxDelayMs = fromConfig.baseDelayMs;
    }
    RetrySpec spec = toSpec(fromConfig, tool, toolLayers, quiet, refusals);

    // degradation
    EnumSet<DegradeLevel> auto = copyLevels(degradation.allowAutoDegrade().get(criticality));
    double floor = degradation.qualityFloor().get(criticality);
    YamlNode autoAt = null;
    for (YamlNode layer : toolLayers) {
      YamlNode s = quiet.section(layer, "degradation");
      if (s != null) {
        EnumSet<DegradeLevel> levels = quiet.levels(s, "allow_auto_degrade");
        if (levels != null) {
          levels.remove(DegradeLevel.L0);
          auto = levels;
          autoAt = s.get("allow_auto_degrade");
        }
        Double f = quiet.decimal(s, "quality_floor", 0, 1, "");
        if (f != null) {
          floor = f;
        }
      }
    }
    EnumSet<DegradeLevel> human = copyLevels(degradation.requireHumanFor().get(criticality));
    if (tool.risk() == Risk.R3) {
      human.addAll(degradation.requireHumanForIrreversible());
    }
    if (criticality == Criticality.Level.HIGH) {
      human.add(DegradeLevel.L3);
      human.add(DegradeLevel.L4);
    }
    EnumSet<DegradeLevel> refusedLevels = EnumSet.copyOf(auto);
    refusedLevels.retainAll(human);
    if (!refusedLevels.isEmpty()) {
      auto.removeAll(human);
      if (autoAt != null) {
        refusals.problem(autoAt, tool.name() + " (" + criticality + (tool.risk() == Risk.R3 ? ", R3" : "")
            + ") may not degrade to " + refusedLevels + " without a human; remove them from allow_auto_degrade");
      }
    }

    // verification: the annotation is a floor the file cannot lower
    VerifyLevel configured = verification.levelFor(criticality);
    double spotCheck = verification.humanSpotCheckRate();
    for (YamlNode layer : toolLayers) {
      YamlNode s = quiet.section(layer, "verification");
      if (s != null) {
        VerifyLevel v = quiet.verifyLevel(s, "level");
        if (v != null) {
          configured = v;
        }
        Double rate = quiet.decimal(s, "human_spot_check_rate", 0, 1, "");
        if (rate != null) {
          spotCheck = rate;
        }
      }
    }
    VerifyLevel verifyLevel = configured.compareTo(tool.verifyLevel()) >= 0 ? configured : tool.verifyLevel();

    // breaker: global, tenant, tool, tenant-tool
    BreakerSettings breaker = circuitBreaker;
    YamlNode tenantBreaker = tenantSection == null ? null : quiet.section(tenantSection, "circuit_breaker");
    if (tenantBreaker != null) {
      breaker = quiet.readBreaker(tenantBreaker, breaker);
    }
    for (YamlNode layer : toolLayers) {
      YamlNode s = quiet.section(layer, "circuit_breaker");
      if (s != null) {
        breaker = quiet.readBreaker(s, breaker);
      }
    }

    // attempt timeout: the annotation, then tenant, tool and tenant-tool
    long timeoutMs = tool.timeoutMs();
    Long tenantTimeout = tenantSection == null ? null : quiet.timeoutMs(tenantSection);
    if (tenantTimeout != null) {
      timeoutMs = tenantTimeout;
    }
    for (YamlNode layer : toolLayers) {
      Long t = quiet.timeoutMs(layer);
      if (t != null) {
        timeoutMs = t;
      }
    }

    List<String> adjustments = new ArrayList<>();
    for (HfrConfigException.Problem p : refused) {
      adjustments.add(p.toString());
    }
    return new ToolPolicy(tenantName, tool, criticality, spec, fromConfig.jitter, fromConfig.respectRetryAfter, floor,
        degradation.ladder(), auto, human, verifyLevel, spotCheck, breaker, idempotency.enabled(),
        idempotency.reconcileTimeoutMs(), timeoutMs, adjustments);
  }

  /** The annotation's values where they differ from {@code @Retry}'s defaults: those were chosen on purpose. */
  private static void applyAnnotation(RetryDraft d, RetrySpec annotated, Risk risk) {
    if (risk == Risk.R3) {
      return; // never retried; toSpec answers NONE
    }
    RetrySpec defaults = RetrySpec.DEFAULT;
    if (annotated.maxAttempts() != defaults.maxAttempts()) {
      d.maxAttemptsPerStep = annotated.maxAttempts();
    }
    if (annotated.baseDelayMs() != defaults.baseDelayMs()) {
      d.baseDelayMs = annotated.baseDelayMs();
    }
    if (annotated.maxDelayMs() != defaults.maxDelayMs()) {
      d.maxDelayMs = annotated.maxDelayMs();
    }
    if (d.baseDelayMs > d.maxDelayMs) {
      // the annotation set one end of the range and the file the other: the annotation's end wins
      if (annotated.baseDelayMs() != defaults.baseDelayMs()) {
        d.maxDelayMs = d.baseDelayMs;
      } else {
        d.baseDelayMs = d.maxDelayMs;
      }
    }
    if (!annotated.retryOn().equals(defaults.retryOn())) {
      EnumSet<RetryCondition> on = EnumSet.noneOf(RetryCondition.class);
      for (Fault f : annotated.retryOn()) {
        if (f != Fault.UNCLASSIFIED) { // unclassified failures follow the conservative rule by risk, not retryOn
          on.add(f == Fault.T6 ? RetryCondition.T6_AFTER_COMPRESS : RetryCondition.valueOf(f.name()));
        }
      }
      d.retryOn = on;
    }
  }

  private RetrySpec toSpec(RetryDraft d, ToolDescriptor tool, List<YamlNode> toolLayers, ConfigReader quiet,
      ConfigReader refusals) {
    if (tool.risk() == Risk.R3) {
      for (YamlNode layer : toolLayers) {
        YamlNode s = quiet.section(layer, "retry");
        if (s == null) {
          continue;
        }
        YamlNode attempts = s.get("max_attempts_per_step");
        Long n = attempts == null ? null : quiet.integer(s, "max_attempts_per_step", 1, 100, "");
        if (n != null && n > 1) {
          refusals.problem(attempts, tool.name() + " is R3 (irreversible) and is never retried automatically; "
              + "remove max_attempts_per_step here (or make the tool idempotent and declare it R1)");
        }
        YamlNode on = s.get("retry_on");
        if (on != null && !on.items().isEmpty()) {
          refusals.problem(on, tool.name() + " is R3 (irreversible) and is never retried automatically; remove retry_on here");
        }
      }
      return RetrySpec.NONE;
    }
    EnumSet<Fault> faults = EnumSet.noneOf(Fault.class);
    for (RetryCondition c : d.retryOn) {
      if (d.neverRetryOn.contains(c)) {
        continue;
      }
      switch (c) {
        case T3_READONLY:
        case T3:
          // §4.3's should_retry: a timeout is retried where the resend cannot repeat an effect — a read, an
          // R1 write under its key (the provider deduplicates), an R2 write once its reconcile found it
          // absent (the retry gate reconciles first). An R1 write without a key (idempotency off) is not.
          if (tool.risk() != Risk.R1 || idempotency.enabled()) {
            faults.add(Fault.T3);
          }
          break;
        default:
          faults.add(c.fault());
      }
    }
    for (RetryCondition never : d.neverRetryOn) {
      if (never != RetryCondition.T3_READONLY && never != RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY
          && never != RetryCondition.T6_AFTER_COMPRESS) {
        faults.remove(never.fault());
      }
    }
    faults.remove(Fault.T7);
    faults.remove(Fault.T8);
    faults.remove(Fault.UNCLASSIFIED);
    return new RetrySpec(d.maxAttemptsPerStep, d.baseDelayMs, Math.max(d.baseDelayMs, d.maxDelayMs), faults);
  }

  private static YamlNode toolSection(Map<String, YamlNode> sections, ToolDescriptor tool) {
    if (sections.isEmpty()) {
      return null;
    }
    YamlNode s = sections.get(tool.toolClass() + "." + tool.method());
    if (s == null) {
      s = sections.get(tool.name());
    }
    return s != null && s.kind == YamlNode.Kind.MAP ? s : null;
  }

  private static EnumSet<DegradeLevel> copyLevels(java.util.Set<DegradeLevel> s) {
    return s == null || s.isEmpty() ? EnumSet.noneOf(DegradeLevel.class) : EnumSet.copyOf(s);
  }

  private ConfigReader quietReader() {
    // the file was validated on load: a second reading finds nothing new, so its problems are not kept
    return new ConfigReader(source, new ArrayList<>());
  }

  @Override
  public String toString() {
    return "HfrConfig[" + source + ", version " + version + ", " + tools.size() + " tool overrides, " + tenants.size()
        + " tenants]";
  }
}
