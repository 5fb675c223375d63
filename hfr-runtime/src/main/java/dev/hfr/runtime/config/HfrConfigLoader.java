package dev.hfr.runtime.config;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.runtime.internal.modules.ModuleRequirements;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and validates an HFR configuration file (format: {@code docs/CONFIG.md}). Validation is complete
 * on load: every unknown key (with a "did you mean"), every value of the wrong type or out of range and
 * every unsafe override is reported at once, each with its file, line, column and key, in one
 * {@link HfrConfigException}. Keys left out keep the paper's defaults.
 *
 * <p>A value may take {@code ${NAME}} or {@code ${NAME:default}} from the environment, else from the system
 * properties (a JDBC URL, a password); one without a value or a default is an error at its file and line. Error
 * messages never show the value of a key that looks secret, nor a URL's password.
 */
public final class HfrConfigLoader {

  /** The largest configuration accepted (1 MiB): refused before it is parsed, so a wrong file fails at once. */
  static final int MAX_FILE_BYTES = 1 << 20;

  private HfrConfigLoader() {}

  private static HfrConfigException.Problem tooLarge(String source, String size) {
    return new HfrConfigException.Problem(source, 0, 0, "(file)", "the file is " + size + "; an HFR configuration is at most "
        + MAX_FILE_BYTES + " bytes (a few kilobytes is typical): is it the right file?");
  }

  /**
   * Reads a file.
   *
   * @throws HfrConfigException when the file cannot be read or is not a valid configuration
   */
  public static HfrConfig load(Path file) {
    String text;
    try {
      long size = Files.size(file);
      if (size > MAX_FILE_BYTES) {
        throw new HfrConfigException(List.of(tooLarge(file.toString(), size + " bytes")));
      }
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new HfrConfigException(List.of(new HfrConfigException.Problem(file.toString(), 0, 0, "hfr",
          "cannot read the file: " + e)));
    }
    return parse(text, file.toString());
  }

  /**
   * Reads a configuration held in a string.
   *
   * @param yaml the YAML text
   * @param sourceName the name errors give the text, e.g. {@code hfr.yaml}
   * @throws HfrConfigException when the text is not a valid configuration
   */
  public static HfrConfig parse(String yaml, String sourceName) {
    return parse(yaml, sourceName, Placeholders.ENVIRONMENT);
  }

  /** {@link #parse(String, String)} with {@code ${NAME}} placeholders looked up in {@code variables}. */
  static HfrConfig parse(String yaml, String sourceName, java.util.function.UnaryOperator<String> variables) {
    ModuleRequirements.check(ModuleRequirements.CONFIG);
    String source = sourceName == null ? "hfr.yaml" : sourceName;
    if (yaml != null && yaml.length() > MAX_FILE_BYTES) {
      throw new HfrConfigException(List.of(tooLarge(source, yaml.length() + " characters")));
    }
    List<HfrConfigException.Problem> problems = new ArrayList<>();
    YamlNode root = YamlNode.read(yaml == null ? "" : yaml, source, problems, variables);
    if (root == null) {
      throw new HfrConfigException(problems);
    }
    ConfigReader r = new ConfigReader(source, problems);
    if (root.kind != YamlNode.Kind.MAP) {
      r.problem(root, "a configuration is a mapping with a top-level `hfr:` key, was " + root.describe());
      throw new HfrConfigException(problems);
    }
    r.checkKeys(root, ConfigReader.ROOT_KEYS);
    YamlNode hfr = r.section(root, "hfr");
    if (hfr == null) {
      if (root.get("hfr") == null) {
        problems.add(new HfrConfigException.Problem(source, root.line, root.column, "hfr",
            "missing the top-level `hfr:` section that holds the configuration"));
      }
      throw new HfrConfigException(problems); // an empty or malformed `hfr:` was reported by section()
    }
    Map<String, ConfigSection<?>> modules = ConfigSections.registered();
    List<String> accepted = new ArrayList<>(ConfigReader.HFR_KEYS);
    accepted.addAll(modules.keySet());
    r.checkKeys(hfr, accepted);
    HfrConfig defaults = HfrConfig.defaults();

    String version = defaults.version();
    YamlNode versionNode = hfr.get("version");
    if (versionNode != null) {
      if (versionNode.kind == YamlNode.Kind.SCALAR && HfrConfig.SUPPORTED_VERSIONS.contains(versionNode.text.trim())) {
        version = versionNode.text.trim();
      } else {
        r.problem(versionNode, "unsupported version " + versionNode.describe() + "; this runtime reads "
            + HfrConfig.SUPPORTED_VERSIONS + " (write version: \"1.0\")");
      }
    }

    RetryDraft retry = RetryDraft.of(defaults.retry());
    YamlNode retrySection = r.section(hfr, "retry");
    if (retrySection != null) {
      r.readRetry(retrySection, retry, false);
      r.checkDelays(retry, retrySection);
    }
    YamlNode s = r.section(hfr, "degradation");
    DegradationSettings degradation = s != null ? r.readDegradation(s, defaults.degradation()) : defaults.degradation();
    s = r.section(hfr, "idempotency");
    IdempotencySettings idempotency = s != null ? r.readIdempotency(s, defaults.idempotency()) : defaults.idempotency();
    s = r.section(hfr, "verification");
    VerificationSettings verification = s != null ? r.readVerification(s, defaults.verification()) : defaults.verification();
    s = r.section(hfr, "circuit_breaker");
    BreakerSettings breaker = s != null ? r.readBreaker(s, defaults.circuitBreaker()) : defaults.circuitBreaker();
    s = r.section(hfr, "telemetry");
    TelemetrySettings telemetry = s != null ? r.readTelemetry(s, defaults.telemetry()) : defaults.telemetry();
    s = r.section(hfr, "fleet");
    FleetSettings fleet = s != null ? r.readFleet(s, defaults.fleet()) : defaults.fleet();
    s = r.section(hfr, "limits");
    TaskLimitSettings limits = s != null ? r.readLimits(s, defaults.limits()) : defaults.limits();

    Map<String, YamlNode> tools = new LinkedHashMap<>();
    YamlNode toolsSection = r.section(hfr, "tools");
    if (toolsSection != null) {
      readTools(r, toolsSection, retry, tools);
    }
    Map<String, YamlNode> tenants = new LinkedHashMap<>();
    YamlNode tenantsSection = r.section(hfr, "tenants");
    if (tenantsSection != null) {
      for (Map.Entry<String, YamlNode> e : tenantsSection.entries().entrySet()) {
        YamlNode tenant = e.getValue();
        if (tenant.isNull()) {
          tenants.put(e.getKey(), tenant);
          continue;
        }
        if (tenant.kind != YamlNode.Kind.MAP) {
          r.problem(tenant, "a tenant's section must be a mapping (retry, limits, circuit_breaker, tools), was "
              + tenant.describe());
          continue;
        }
        r.checkKeys(tenant, ConfigReader.TENANT_KEYS);
        r.timeoutMs(tenant);
        RetryDraft tenantRetry = retry.copy();
        YamlNode tr = r.section(tenant, "retry");
        if (tr != null) {
          r.readRetry(tr, tenantRetry, ConfigReader.TENANT_RETRY_KEYS);
          r.checkDelays(tenantRetry, tr);
        }
        YamlNode tl = r.section(tenant, "limits");
        if (tl != null) {
          r.readLimits(tl, limits);
        }
        YamlNode tb = r.section(tenant, "circuit_breaker");
        if (tb != null) {
          r.readBreaker(tb, breaker);
        }
        YamlNode tt = r.section(tenant, "tools");
        if (tt != null) {
          readTools(r, tt, tenantRetry, new LinkedHashMap<>());
        }
        tenants.put(e.getKey(), tenant);
      }
    }
    // the sections modules register: each key accepted here has its module's reader
    Map<String, Object> sections = new LinkedHashMap<>();
    ConfigProblems reporter = new ConfigProblems(r);
    for (ConfigSection<?> module : modules.values()) {
      YamlNode node = r.section(hfr, module.key());
      if (node != null) {
        Object value = module.read(node, reporter);
        if (value != null) {
          sections.put(module.key(), value);
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new HfrConfigException(problems);
    }
    return new HfrConfig(source, version, retry.settingsUnchecked(), degradation, idempotency, verification, breaker,
        telemetry, limits, fleet, tools, tenants, sections);
  }

  private static void readTools(ConfigReader r, YamlNode section, RetryDraft base, Map<String, YamlNode> into) {
    for (Map.Entry<String, YamlNode> e : section.entries().entrySet()) {
      String name = e.getKey();
      YamlNode tool = e.getValue();
      int dot = name.lastIndexOf('.');
      if (dot <= 0 || dot == name.length() - 1) {
        r.problem(tool, "a tool is named SimpleClass.method (or fully.qualified.Class.method), e.g. "
            + "\"ShopTools.search\"; was " + name);
        continue;
      }
      if (tool.kind != YamlNode.Kind.MAP) {
        r.problem(tool, "a tool's section must be a mapping (" + String.join(", ", ConfigReader.TOOL_KEYS) + "), was "
            + tool.describe());
        continue;
      }
      r.checkKeys(tool, ConfigReader.TOOL_KEYS);
      r.timeoutMs(tool);
      Criticality.Level criticality = r.criticality(tool, "criticality");
      YamlNode retry = r.section(tool, "retry");
      if (retry != null) {
        RetryDraft d = base.copy();
        r.readRetry(retry, d, true);
        r.checkDelays(d, retry);
      }
      YamlNode verification = r.section(tool, "verification");
      if (verification != null) {
        r.checkKeys(verification, ConfigReader.TOOL_VERIFICATION_KEYS);
        r.verifyLevel(verification, "level");
        r.decimal(verification, "human_spot_check_rate", 0, 1, "the share of accepted results a human samples");
      }
      YamlNode breaker = r.section(tool, "circuit_breaker");
      if (breaker != null) {
        r.readBreaker(breaker, BreakerSettings.DEFAULTS);
      }
      YamlNode degradation = r.section(tool, "degradation");
      if (degradation != null) {
        r.checkKeys(degradation, ConfigReader.TOOL_DEGRADATION_KEYS);
        EnumSet<DegradeLevel> levels = r.levels(degradation, "allow_auto_degrade");
        if (levels != null) {
          r.checkAutoLevels(degradation.get("allow_auto_degrade"), criticality, levels);
        }
        r.decimal(degradation, "quality_floor", 0, 1, "the task owner's minimum quality for a degraded result");
      }
      into.put(name, tool);
    }
  }
}
