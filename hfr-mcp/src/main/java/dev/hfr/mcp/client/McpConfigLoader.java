package dev.hfr.mcp.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.mcp.internal.YamlTree;
import dev.hfr.runtime.config.HfrConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the {@code mcp} section of the configuration (the §5.2 YAML's per-server and per-tool overrides
 * for MCP tools) and checks every key and value. Every problem is reported, not only the first, each with
 * file, line, column and key, as {@link HfrConfigException} does for the {@code hfr} section:
 *
 * <pre>{@code
 * mcp.yaml:7:17 mcp.servers.tracker.tools.create_issue.risk: must be one of R0, R1, R2, R3, was "R5"
 * }</pre>
 *
 * <p>The file holds one root key, {@code mcp}. It is a file of its own because the runtime's loader
 * accepts only the keys whose effect it implements ({@code hfr.*}).
 */
public final class McpConfigLoader {

  static final List<String> ROOT_KEYS = List.of("mcp");
  static final List<String> MCP_KEYS = List.of("servers");
  static final List<String> SERVER_KEYS = List.of("trusted", "default_risk", "tools");
  static final List<String> TOOL_KEYS = List.of("risk", "reconcile", "approval", "criticality", "trusted", "degrade_to");
  static final List<String> RUNG_KEYS = List.of("tool", "level", "arguments");
  private static final List<String> LEVELS = List.of("L0", "L1", "L2", "L3", "L4");
  static final List<String> RECONCILE_KEYS = List.of("tool", "arguments", "found_at");
  private static final List<String> RISKS = List.of("R0", "R1", "R2", "R3");
  private static final List<String> CRITICALITIES = List.of("low", "medium", "high");
  /** Server names become the class part of tool names ({@code server.tool}), so no dots. */
  private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private final String source;
  /** The server whose section is being read: a rung without a server part names a tool of this one. */
  private String serverName;
  private final List<HfrConfigException.Problem> problems = new ArrayList<>();

  private McpConfigLoader(String source) {
    this.source = source;
  }

  /**
   * Reads and checks {@code file}.
   *
   * @throws HfrConfigException naming file, line, column and key of every problem
   * @throws UncheckedIOException when the file cannot be read
   */
  public static McpClientConfig load(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the MCP configuration " + file, e);
    }
    return parse(text, file.getFileName().toString());
  }

  /**
   * Reads and checks {@code yaml}; {@code sourceName} names it in errors.
   *
   * @throws HfrConfigException naming file, line, column and key of every problem
   */
  public static McpClientConfig parse(String yaml, String sourceName) {
    McpConfigLoader loader = new McpConfigLoader(sourceName);
    YamlTree root;
    try {
      root = YamlTree.read(yaml);
    } catch (JsonProcessingException e) {
      var at = e.getLocation();
      throw new HfrConfigException(List.of(new HfrConfigException.Problem(sourceName,
          at == null ? 0 : at.getLineNr(), at == null ? 0 : at.getColumnNr(), "(root)",
          "not valid YAML: " + e.getOriginalMessage())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    McpClientConfig config = loader.root(root);
    if (!loader.problems.isEmpty()) {
      throw new HfrConfigException(loader.problems);
    }
    return config;
  }

  private McpClientConfig root(YamlTree root) {
    if (root.kind == YamlTree.Kind.NULL) {
      return McpClientConfig.EMPTY;
    }
    if (!isMap(root)) {
      return McpClientConfig.EMPTY;
    }
    checkKeys(root, ROOT_KEYS);
    YamlTree mcp = section(root, "mcp");
    if (mcp == null) {
      return McpClientConfig.EMPTY;
    }
    checkKeys(mcp, MCP_KEYS);
    YamlTree servers = section(mcp, "servers");
    Map<String, McpServerSettings> out = new LinkedHashMap<>();
    if (servers != null) {
      for (Map.Entry<String, YamlTree> e : servers.entries().entrySet()) {
        serverName = e.getKey();
        if (!SERVER_NAME.matcher(e.getKey()).matches()) {
          keyProblem(e.getValue(), "a server name may hold only letters, digits, '_' and '-' (it names the server's"
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

  private McpServerSettings server(YamlTree node) {
    if (node.kind == YamlTree.Kind.NULL) {
      return McpServerSettings.UNCONFIGURED;
    }
    if (!isMap(node)) {
      return null;
    }
    checkKeys(node, SERVER_KEYS);
    Boolean trusted = bool(node.get("trusted"));
    Risk defaultRisk = risk(node.get("default_risk"));
    Map<String, McpToolSettings> tools = new LinkedHashMap<>();
    YamlTree toolsNode = section(node, "tools");
    if (toolsNode != null) {
      for (Map.Entry<String, YamlTree> e : toolsNode.entries().entrySet()) {
        McpToolSettings t = tool(e.getValue());
        if (t != null) {
          tools.put(e.getKey(), t);
        }
      }
    }
    return new McpServerSettings(trusted != null && trusted, defaultRisk != null ? defaultRisk : Risk.R3, tools);
  }

  private McpToolSettings tool(YamlTree node) {
    if (node.kind == YamlTree.Kind.NULL || !isMap(node)) {
      return null;
    }
    checkKeys(node, TOOL_KEYS);
    Risk risk = risk(node.get("risk"));
    McpReconcile reconcile = reconcile(section(node, "reconcile"));
    Boolean approval = bool(node.get("approval"));
    Boolean trusted = bool(node.get("trusted"));
    YamlTree critNode = node.get("criticality");
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
  private List<McpRung> rungs(YamlTree node) {
    if (node == null || node.kind == YamlTree.Kind.NULL) {
      return List.of();
    }
    if (node.kind != YamlTree.Kind.LIST) {
      problem(node, "must be a list of rungs ({tool: <server>.<tool>, level: L2}), was " + node.describe());
      return List.of();
    }
    List<McpRung> out = new ArrayList<>();
    for (YamlTree item : node.items()) {
      if (!isMap(item)) {
        continue;
      }
      checkKeys(item, RUNG_KEYS);
      YamlTree toolNode = item.get("tool");
      YamlTree levelNode = item.get("level");
      if (toolNode == null || levelNode == null) {
        problem(item, "a rung needs `tool` (<server>.<tool>, or a tool of the same server) and `level` (L0..L4)");
        continue;
      }
      String target = text(toolNode);
      String level = choice(levelNode, LEVELS);
      Map<String, String> arguments = new LinkedHashMap<>();
      YamlTree args = section(item, "arguments");
      if (args != null) {
        for (Map.Entry<String, YamlTree> e : args.entries().entrySet()) {
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

  private McpReconcile reconcile(YamlTree node) {
    if (node == null) {
      return null;
    }
    checkKeys(node, RECONCILE_KEYS);
    YamlTree toolNode = node.get("tool");
    String tool = null;
    if (toolNode == null) {
      problem(node, "reconcile needs `tool`: the read-only tool of the same server that finds the write");
    } else {
      tool = text(toolNode);
    }
    Map<String, String> arguments = new LinkedHashMap<>();
    YamlTree args = section(node, "arguments");
    if (args != null) {
      for (Map.Entry<String, YamlTree> e : args.entries().entrySet()) {
        String from = text(e.getValue());
        if (from != null) {
          arguments.put(e.getKey(), from);
        }
      }
    }
    YamlTree foundNode = node.get("found_at");
    String foundAt = foundNode == null ? "" : text(foundNode);
    if (foundAt != null && !foundAt.isEmpty() && !foundAt.startsWith("/")) {
      problem(foundNode, "must be a JSON pointer into the reconcile answer's structured content, starting with '/'"
          + " (e.g. /items), was " + foundNode.describe());
      foundAt = null;
    }
    return tool == null || foundAt == null ? null : new McpReconcile(tool, arguments, foundAt);
  }

  // ---- values --------------------------------------------------------------------------------------

  private Risk risk(YamlTree n) {
    String r = n == null ? null : choice(n, RISKS);
    return r == null ? null : Risk.valueOf(r);
  }

  private String choice(YamlTree n, List<String> allowed) {
    if (n.kind == YamlTree.Kind.SCALAR) {
      for (String a : allowed) {
        if (a.equalsIgnoreCase(n.text)) {
          return a;
        }
      }
    }
    problem(n, "must be one of " + String.join(", ", allowed) + ", was " + n.describe());
    return null;
  }

  private Boolean bool(YamlTree n) {
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

  private String text(YamlTree n) {
    if (n.kind == YamlTree.Kind.SCALAR && n.token == JsonToken.VALUE_STRING && !n.text.isBlank()) {
      return n.text;
    }
    problem(n, "must be a name, was " + n.describe());
    return null;
  }

  private YamlTree section(YamlTree map, String key) {
    YamlTree n = map.get(key);
    if (n == null || n.kind == YamlTree.Kind.NULL) {
      return null;
    }
    return isMap(n) ? n : null;
  }

  private boolean isMap(YamlTree n) {
    if (n.kind == YamlTree.Kind.MAP) {
      return true;
    }
    problem(n, "must be a mapping of keys to values, was " + n.describe());
    return false;
  }

  private void checkKeys(YamlTree map, List<String> known) {
    for (Map.Entry<String, YamlTree> e : map.entries().entrySet()) {
      if (!known.contains(e.getKey())) {
        keyProblem(e.getValue(), "unknown key (allowed here: " + String.join(", ", known) + ")");
      }
    }
  }

  private void problem(YamlTree at, String why) {
    problems.add(new HfrConfigException.Problem(source, at.line, at.column, at.path.isEmpty() ? "(root)" : at.path, why));
  }

  private void keyProblem(YamlTree at, String why) {
    problems.add(new HfrConfigException.Problem(source, at.keyLine, at.keyColumn, at.path, why));
  }
}
