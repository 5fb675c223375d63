package dev.hfr.mcp.client;

import com.fasterxml.jackson.core.JsonToken;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.config.ConfigProblems;
import dev.hfr.runtime.config.ConfigSection;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code mcp} section of {@code hfr.yaml} (the §5.2 YAML's per-server and per-tool overrides for MCP
 * tools), registered with the runtime's loader ({@code META-INF/services}): with hfr-mcp on the class path,
 * {@code HfrConfigLoader} accepts {@code hfr.mcp}, and every problem in it is reported with the file's
 * others, each with file, line, column and key:
 *
 * <pre>{@code
 * hfr.yaml:8:17 hfr.mcp.servers.tracker.tools.create_issue.risk: must be one of R0, R1, R2, R3, was "R5"
 * }</pre>
 *
 * <p>Read it with {@link McpClientConfig#from(HfrConfig)}.
 */
public final class McpConfigSection implements ConfigSection<McpClientConfig> {

  static final List<String> MCP_KEYS = List.of("servers");
  static final List<String> SERVER_KEYS = List.of("trusted", "default_risk", "tools");
  static final List<String> TOOL_KEYS = List.of("risk", "reconcile", "approval", "criticality", "trusted", "degrade_to");
  static final List<String> RUNG_KEYS = List.of("tool", "level", "arguments");
  static final List<String> RECONCILE_KEYS = List.of("tool", "arguments", "found_at");
  private static final List<String> LEVELS = List.of("L0", "L1", "L2", "L3", "L4");
  private static final List<String> RISKS = List.of("R0", "R1", "R2", "R3");
  private static final List<String> CRITICALITIES = List.of("low", "medium", "high");
  /** Server names become the class part of tool names ({@code server.tool}), so no dots. */
  private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  @Override
  public String key() {
    return "mcp";
  }

  @Override
  public Class<McpClientConfig> type() {
    return McpClientConfig.class;
  }

  @Override
  public List<String> keys() {
    List<String> keys = new ArrayList<>();
    SERVER_KEYS.forEach(k -> keys.add("servers.*." + k));
    TOOL_KEYS.forEach(k -> keys.add("servers.*.tools.*." + k));
    RECONCILE_KEYS.forEach(k -> keys.add("servers.*.tools.*.reconcile." + k));
    RUNG_KEYS.forEach(k -> keys.add("servers.*.tools.*.degrade_to[]." + k));
    return keys;
  }

  @Override
  public McpClientConfig defaults() {
    return McpClientConfig.EMPTY;
  }

  @Override
  public McpClientConfig read(YamlNode section, ConfigProblems problems) {
    return new Reader(problems).mcp(section);
  }

  /** One reading of the section: the problems it reports, the server whose entry it is in. */
  private static final class Reader {
    private final ConfigProblems problems;
    /** The server whose section is being read: a rung without a server part names a tool of this one. */
    private String serverName;

    Reader(ConfigProblems problems) {
      this.problems = problems;
    }

    private McpClientConfig mcp(YamlNode mcp) {
      problems.checkKeys(mcp, MCP_KEYS);
      YamlNode servers = problems.section(mcp, "servers");
      Map<String, McpServerSettings> out = new LinkedHashMap<>();
      if (servers != null) {
        for (Map.Entry<String, YamlNode> e : servers.entries().entrySet()) {
          serverName = e.getKey();
          if (!SERVER_NAME.matcher(e.getKey()).matches()) {
            problems.keyProblem(e.getValue(), "a server name may hold only letters, digits, '_' and '-' (it names the server's"
                + " tools as <server>.<tool> in meters and events), was \"" + e.getKey() + "\"");
            continue;
          }
          McpServerSettings s = server(e.getValue());
          if (s != null) {
            out.put(e.getKey(), s);
          }
        }
      }
      return new McpClientConfig(out);
    }

    private McpServerSettings server(YamlNode node) {
      if (node.isNull()) {
        return McpServerSettings.UNCONFIGURED;
      }
      if (!isMap(node)) {
        return null;
      }
      checkKeys(node, SERVER_KEYS);
      Boolean trusted = bool(node.get("trusted"));
      Risk defaultRisk = risk(node.get("default_risk"));
      Map<String, McpToolSettings> tools = new LinkedHashMap<>();
      YamlNode toolsNode = section(node, "tools");
      if (toolsNode != null) {
        for (Map.Entry<String, YamlNode> e : toolsNode.entries().entrySet()) {
          McpToolSettings t = tool(e.getValue());
          if (t != null) {
            tools.put(e.getKey(), t);
          }
        }
      }
      return new McpServerSettings(trusted != null && trusted, defaultRisk != null ? defaultRisk : Risk.R3, tools);
    }

    private McpToolSettings tool(YamlNode node) {
      if (node.isNull() || !isMap(node)) {
        return null;
      }
      checkKeys(node, TOOL_KEYS);
      Risk risk = risk(node.get("risk"));
      McpReconcile reconcile = reconcile(section(node, "reconcile"));
      Boolean approval = bool(node.get("approval"));
      Boolean trusted = bool(node.get("trusted"));
      YamlNode critNode = node.get("criticality");
      String crit = critNode == null ? null : choice(critNode, CRITICALITIES);
      Criticality.Level criticality = crit == null ? null : Criticality.Level.valueOf(crit.toUpperCase(Locale.ROOT));
      if (reconcile != null && risk != null && risk != Risk.R2) {
        problem(node.get("reconcile"), "a reconcile tool only applies to an R2 tool (a queryable write), but this tool"
            + " is " + risk + ": set risk: R2 or remove reconcile");
      }
      if (risk == Risk.R2 && reconcile == null && node.get("reconcile") == null) {
        problem(node.get("risk"), "R2 needs a reconcile tool to ask the server whether a lost write committed; without"
            + " one the tool is recovered as R3 anyway: add reconcile: {tool: ..., arguments: {...}} or say R3");
      }
      List<McpRung> degradeTo = rungs(node.get("degrade_to"));
      if (!degradeTo.isEmpty() && risk == Risk.R3) {
        problem(node.get("degrade_to"), "an R3 tool is never degraded (no substitute for an irreversible write):"
            + " remove degrade_to or lower the risk");
      }
      return new McpToolSettings(risk, reconcile, approval, criticality, trusted, degradeTo);
    }

    /** {@code degrade_to}: a list of rungs, each {@code {tool: <server>.<tool>, level: L0..L4, arguments: {...}}}. */
    private List<McpRung> rungs(YamlNode node) {
      if (node == null || node.isNull()) {
        return List.of();
      }
      if (node.kind() != YamlNode.Kind.LIST) {
        problem(node, "must be a list of rungs ({tool: <server>.<tool>, level: L2}), was " + node.describe());
        return List.of();
      }
      List<McpRung> out = new ArrayList<>();
      for (YamlNode item : node.items()) {
        if (!isMap(item)) {
          continue;
        }
        checkKeys(item, RUNG_KEYS);
        YamlNode toolNode = item.get("tool");
        YamlNode levelNode = item.get("level");
        if (toolNode == null || levelNode == null) {
          problem(item, "a rung needs `tool` (<server>.<tool>, or a tool of the same server) and `level` (L0..L4)");
          continue;
        }
        String target = text(toolNode);
        String level = choice(levelNode, LEVELS);
        Map<String, String> arguments = new LinkedHashMap<>();
        YamlNode args = section(item, "arguments");
        if (args != null) {
          for (Map.Entry<String, YamlNode> e : args.entries().entrySet()) {
            String from = text(e.getValue());
            if (from != null) {
              arguments.put(e.getKey(), from);
            }
          }
        }
        if (target == null || level == null) {
          continue;
        }
        int dot = target.indexOf('.');
        String server = dot < 0 ? serverName : target.substring(0, dot);
        String tool = target.substring(dot + 1);
        if (!SERVER_NAME.matcher(server).matches() || tool.isEmpty()) {
          problem(toolNode, "must name a tool as <server>.<tool> (or a tool of this server), was " + toolNode.describe());
          continue;
        }
        out.add(new McpRung(server, tool, DegradeLevel.valueOf(level), arguments));
      }
      return out;
    }

    private McpReconcile reconcile(YamlNode node) {
      if (node == null) {
        return null;
      }
      checkKeys(node, RECONCILE_KEYS);
      YamlNode toolNode = node.get("tool");
      String tool = null;
      if (toolNode == null) {
        problem(node, "reconcile needs `tool`: the read-only tool of the same server that finds the write");
      } else {
        tool = text(toolNode);
      }
      Map<String, String> arguments = new LinkedHashMap<>();
      YamlNode args = section(node, "arguments");
      if (args != null) {
        for (Map.Entry<String, YamlNode> e : args.entries().entrySet()) {
          String from = text(e.getValue());
          if (from != null) {
            arguments.put(e.getKey(), from);
          }
        }
      }
      YamlNode foundNode = node.get("found_at");
      String foundAt = foundNode == null ? "" : text(foundNode);
      if (foundAt != null && !foundAt.isEmpty() && !foundAt.startsWith("/")) {
        problem(foundNode, "must be a JSON pointer into the reconcile answer's structured content, starting with '/'"
            + " (e.g. /items), was " + foundNode.describe());
        foundAt = null;
      }
      return tool == null || foundAt == null ? null : new McpReconcile(tool, arguments, foundAt);
    }

    // ---- values --------------------------------------------------------------------------------------

    private Risk risk(YamlNode n) {
      String r = n == null ? null : choice(n, RISKS);
      return r == null ? null : Risk.valueOf(r);
    }

    private String choice(YamlNode n, List<String> allowed) {
      if (n.kind() == YamlNode.Kind.SCALAR) {
        for (String a : allowed) {
          if (a.equalsIgnoreCase(n.text())) {
            return a;
          }
        }
      }
      problem(n, "must be one of " + String.join(", ", allowed) + ", was " + n.describe());
      return null;
    }

    private Boolean bool(YamlNode n) {
      if (n == null) {
        return null;
      }
      if (n.token() == JsonToken.VALUE_TRUE) {
        return true;
      }
      if (n.token() == JsonToken.VALUE_FALSE) {
        return false;
      }
      problem(n, "must be true or false, was " + n.describe());
      return null;
    }

    private String text(YamlNode n) {
      if (n.kind() == YamlNode.Kind.SCALAR && n.token() == JsonToken.VALUE_STRING && !n.text().isBlank()) {
        return n.text();
      }
      problem(n, "must be a name, was " + n.describe());
      return null;
    }

    private YamlNode section(YamlNode map, String key) {
      YamlNode n = map.get(key);
      if (n == null || n.isNull()) {
        return null;
      }
      return isMap(n) ? n : null;
    }

    private boolean isMap(YamlNode n) {
      if (n.kind() == YamlNode.Kind.MAP) {
        return true;
      }
      problem(n, "must be a mapping of keys to values, was " + n.describe());
      return false;
    }

    private void checkKeys(YamlNode map, List<String> known) {
      problems.checkKeys(map, known);
    }

    private void problem(YamlNode at, String why) {
      problems.problem(at, why);
    }
  }
}
