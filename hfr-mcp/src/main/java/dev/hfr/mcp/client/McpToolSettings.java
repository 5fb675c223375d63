package dev.hfr.mcp.client;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import java.util.List;
import java.util.Optional;

/**
 * What the configuration says about one tool of one MCP server ({@code mcp.servers.<server>.tools.<tool>}).
 * Every field is optional: an absent one falls back to the server's settings, then to the defaults.
 *
 * @param risk the risk the operator vouches for, or {@code null}: on an untrusted server a hint can still
 *     raise it (never lower it)
 * @param reconcile how to ask the server whether a write of this tool committed, or {@code null}
 * @param approval whether each call waits for the approval gate, or {@code null}
 * @param criticality the tool's criticality, or {@code null} (MEDIUM)
 * @param trusted whether this tool's hints are believed, or {@code null} (the server's setting)
 * @param degradeTo the tool's degradation ladder, in order (empty: none)
 */
public record McpToolSettings(Risk risk, McpReconcile reconcile, Boolean approval, Criticality.Level criticality,
    Boolean trusted, List<McpRung> degradeTo) {

  /** A tool nobody configured. */
  public static final McpToolSettings NONE = new McpToolSettings(null, null, null, null, null);

  public McpToolSettings {
    degradeTo = degradeTo == null ? List.of() : List.copyOf(degradeTo);
  }

  /** Settings without a degradation ladder. */
  public McpToolSettings(Risk risk, McpReconcile reconcile, Boolean approval, Criticality.Level criticality,
      Boolean trusted) {
    this(risk, reconcile, approval, criticality, trusted, List.of());
  }

  public Optional<McpReconcile> reconcileTool() {
    return Optional.ofNullable(reconcile);
  }
}
