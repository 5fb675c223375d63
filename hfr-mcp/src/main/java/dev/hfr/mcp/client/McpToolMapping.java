package dev.hfr.mcp.client;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What HFR knows about the tools of one MCP server — their risks, descriptors, reconcile tools and rungs —
 * rebuilt whenever the server's tool list changes. Shared by the sync and the async client.
 */
final class McpToolMapping {

  /** What HFR knows about one tool of the server. */
  record Entry(McpSchema.Tool tool, McpToolRisk risk) {}

  /** A rung with the server it is sent to. */
  record Rung(McpRung settings, McpWire wire) {}

  private final McpWire self;
  private final McpServerSettings settings;
  /** The clients of other servers that rungs name, by server name. */
  private final Map<String, McpWire> peers = new ConcurrentHashMap<>();
  private volatile Map<String, Entry> tools = Map.of();
  /** Descriptors by tool name, risk and rung risks: the engine keeps its per-tool state by descriptor. */
  private final Map<String, ToolDescriptor> descriptors = new ConcurrentHashMap<>();

  McpToolMapping(McpWire self, McpServerSettings settings) {
    this.self = self;
    this.settings = settings;
  }

  void addPeer(McpWire peer) {
    peers.put(peer.server(), peer);
  }

  /**
   * Checks that every rung of {@code server}'s tools names a server HFR can reach: this one or a peer.
   *
   * @throws IllegalStateException naming the tool, the rung and what to add
   */
  static void checkRungs(String server, McpServerSettings settings, java.util.Collection<McpWire> peers) {
    java.util.Set<String> reachable = new java.util.HashSet<>();
    reachable.add(server);
    peers.forEach(p -> reachable.add(p.server()));
    settings.tools().forEach((tool, s) -> {
      for (McpRung rung : s.degradeTo()) {
        if (!reachable.contains(rung.server())) {
          throw new IllegalStateException("mcp.servers." + server + ".tools." + tool + ".degrade_to names "
              + rung.qualified() + ", but no client of server \"" + rung.server() + "\" was given: add"
              + " .peer(<the HfrMcpClient or HfrMcpAsyncClient of " + rung.server() + ">) to the builder");
        }
      }
    });
  }

  private McpWire wire(String server) {
    return server.equals(self.server()) ? self : peers.get(server);
  }

  void onToolsChanged(List<McpSchema.Tool> list) {
    Map<String, Entry> next = new LinkedHashMap<>();
    for (McpSchema.Tool t : list) {
      next.put(t.name(), new Entry(t, McpToolRisk.resolve(t, settings)));
    }
    tools = Collections.unmodifiableMap(next);  // in the server's listing order
  }

  Entry entry(String tool) {
    return tools.get(tool);
  }

  McpToolRisk risk(String tool) {
    Entry e = tools.get(tool);
    return e == null ? null : e.risk();
  }

  List<McpSchema.Tool> tools() {
    List<McpSchema.Tool> out = new ArrayList<>();
    tools.values().forEach(e -> out.add(e.tool()));
    return out;
  }

  /** The descriptor of a listed tool, or {@code null}. */
  ToolDescriptor descriptor(String tool) {
    Entry e = tools.get(tool);
    return e == null ? null : descriptor(tool, e.risk());
  }

  /** The call of {@code request} as the engine runs it: descriptor, reconcile tool and rungs. */
  McpCallSpec call(McpSchema.CallToolRequest request) {
    Entry e = tools.get(request.name());
    McpToolRisk risk = e != null ? e.risk() : new McpToolRisk(Risk.R3, Risk.R3, null, "not listed by the server: R3");
    return new McpCallSpec(self, request.name(), request.arguments(), request.meta(), risk.reconcile(),
        e != null ? rungs(request.name()) : List.of(), descriptor(request.name(), risk));
  }

  private List<Rung> rungs(String tool) {
    List<Rung> out = new ArrayList<>();
    for (McpRung r : settings.tool(tool).degradeTo()) {
      out.add(new Rung(r, wire(r.server())));
    }
    return out;
  }

  private ToolDescriptor descriptor(String tool, McpToolRisk risk) {
    McpToolSettings s = settings.tool(tool);
    // a rung's risk is its server's current view of it: not listed (yet) is R3, which the ladder never takes
    List<Risk> rungRisks = new ArrayList<>();
    for (McpRung r : s.degradeTo()) {
      McpWire w = wire(r.server());
      McpToolRisk target = w == null ? null : w.risk(r.tool());
      rungRisks.add(target == null ? Risk.R3 : target.effective());
    }
    String cacheKey = tool + '\u0000' + risk.effective() + '\u0000' + (risk.reconcile() != null) + '\u0000' + rungRisks;
    return descriptors.computeIfAbsent(cacheKey, k -> {
      ToolDescriptor.Builder b = ToolDescriptor.builder("mcp." + self.server(), tool, risk.effective())
          .parameters("arguments")
          .resultType(McpSchema.CallToolResult.class);
      if (risk.effective() == Risk.R3) {
        b.retry(RetrySpec.NONE);
      }
      if (risk.reconcile() != null) {
        b.reconcile(risk.reconcile().tool());
      }
      if (s.approval() != null) {
        b.requiresApproval(s.approval());
      }
      if (s.criticality() != null) {
        b.criticality(s.criticality());
      }
      for (int i = 0; i < s.degradeTo().size(); i++) {
        McpRung r = s.degradeTo().get(i);
        b.degradeTo(r.qualified(), r.level(), rungRisks.get(i));
      }
      return b.build();
    });
  }
}
