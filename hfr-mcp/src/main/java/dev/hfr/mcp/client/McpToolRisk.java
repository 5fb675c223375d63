package dev.hfr.mcp.client;

import dev.hfr.annotations.Risk;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The risk HFR recovers an MCP tool at, and why.
 *
 * <p>The hints map to risks as DESIGN §7 says: {@code readOnlyHint} → R0; {@code idempotentHint} and not
 * {@code destructiveHint} → R1; not destructive, not idempotent → R2; destructive → R3. Absent hints take
 * the MCP specification's defaults (not read-only, destructive, not idempotent), so a tool without hints is
 * R3.
 *
 * <p>Hints are untrusted unless the configuration trusts the server (or the tool): then the risk is the
 * configured one, else the server's default (R3 unless configured), and a hint only counts when it is
 * <em>more</em> conservative. A trusted tool takes the configured risk, else its hints.
 *
 * <p>An R2 tool needs a reconcile tool to ask whether a lost write committed; without one it is recovered
 * as R3 (never resent after an unknown outcome).
 *
 * @param hinted the risk the server's hints claim
 * @param effective the risk recovery uses
 * @param reconcile the reconcile tool used, or {@code null}
 * @param basis how {@code effective} was reached, for decision records and the docs' table
 */
public record McpToolRisk(Risk hinted, Risk effective, McpReconcile reconcile, String basis) {

  /** The risk of {@code tool} under {@code server}'s settings. */
  public static McpToolRisk resolve(McpSchema.Tool tool, McpServerSettings server) {
    McpToolSettings settings = server.tool(tool.name());
    Risk hinted = fromHints(tool.annotations());
    boolean trusted = settings.trusted() != null ? settings.trusted() : server.trusted();
    Risk configured = settings.risk();
    Risk risk;
    String basis;
    if (trusted) {
      risk = configured != null ? configured : hinted;
      basis = configured != null ? "configured (trusted server)" : "hints (trusted server)";
    } else {
      Risk base = configured != null ? configured : server.defaultRisk();
      risk = max(base, hinted);
      basis = (configured != null ? "configured " : "server default ") + base
          + (hinted.compareTo(base) > 0 ? ", raised by the hints to " + hinted : "; untrusted hints cannot lower it");
    }
    McpReconcile reconcile = risk == Risk.R2 ? settings.reconcile() : null;
    if (risk == Risk.R2 && reconcile == null) {
      return new McpToolRisk(hinted, Risk.R3, null, basis + "; R2 without a reconcile tool: recovered as R3");
    }
    return new McpToolRisk(hinted, risk, reconcile, basis);
  }

  /** The risk the hints claim, with the MCP specification's defaults for absent ones. */
  public static Risk fromHints(McpSchema.ToolAnnotations hints) {
    boolean readOnly = hints != null && Boolean.TRUE.equals(hints.readOnlyHint());
    boolean destructive = hints == null || hints.destructiveHint() == null || hints.destructiveHint();
    boolean idempotent = hints != null && Boolean.TRUE.equals(hints.idempotentHint());
    if (readOnly) {
      return Risk.R0;
    }
    if (destructive) {
      return Risk.R3;
    }
    return idempotent ? Risk.R1 : Risk.R2;
  }

  private static Risk max(Risk a, Risk b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
