package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Risk;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DESIGN §7's mapping of hints to risks, and the rule that untrusted hints only make recovery more careful. */
class McpToolRiskTest {

  static McpSchema.ToolAnnotations hints(Boolean readOnly, Boolean destructive, Boolean idempotent) {
    return new McpSchema.ToolAnnotations(null, readOnly, destructive, idempotent, null, null);
  }

  static McpSchema.Tool tool(String name, McpSchema.ToolAnnotations hints) {
    return McpSchema.Tool.builder(name, Map.of("type", "object")).annotations(hints).build();
  }

  static McpServerSettings trusted() {
    return new McpServerSettings(true, Risk.R3, Map.of());
  }

  @Test
  void hintsMapToRisksAsTheDesignSays() {
    assertThat(McpToolRisk.fromHints(hints(true, null, null))).isEqualTo(Risk.R0);
    assertThat(McpToolRisk.fromHints(hints(false, false, true))).isEqualTo(Risk.R1);
    assertThat(McpToolRisk.fromHints(hints(false, false, false))).isEqualTo(Risk.R2);
    assertThat(McpToolRisk.fromHints(hints(false, true, false))).isEqualTo(Risk.R3);
  }

  @Test
  void absentHintsTakeTheSpecificationsDefaultsDestructiveNotIdempotent() {
    assertThat(McpToolRisk.fromHints(null)).isEqualTo(Risk.R3);
    assertThat(McpToolRisk.fromHints(hints(null, null, true))).isEqualTo(Risk.R3);
  }

  @Test
  void anUntrustedReadOnlyHintDoesNotLowerTheServersDefault() {
    McpToolRisk r = McpToolRisk.resolve(tool("create_issue", hints(true, false, true)), McpServerSettings.UNCONFIGURED);
    assertThat(r.hinted()).isEqualTo(Risk.R0);
    assertThat(r.effective()).isEqualTo(Risk.R3);
  }

  @Test
  void anUntrustedDestructiveHintRaisesAConfiguredRisk() {
    McpServerSettings s = new McpServerSettings(false, Risk.R3, Map.of("search",
        new McpToolSettings(Risk.R0, null, null, null, null)));
    assertThat(McpToolRisk.resolve(tool("search", hints(false, true, false)), s).effective()).isEqualTo(Risk.R3);
    assertThat(McpToolRisk.resolve(tool("search", hints(true, false, false)), s).effective()).isEqualTo(Risk.R0);
  }

  @Test
  void theServersDefaultRiskAppliesToToolsNobodyConfigured() {
    McpServerSettings s = new McpServerSettings(false, Risk.R1, Map.of());
    assertThat(McpToolRisk.resolve(tool("label", hints(false, false, true)), s).effective()).isEqualTo(Risk.R1);
    assertThat(McpToolRisk.resolve(tool("read", hints(true, false, true)), s).effective()).isEqualTo(Risk.R1);
  }

  @Test
  void aTrustedServersHintsAreBelieved() {
    assertThat(McpToolRisk.resolve(tool("read", hints(true, false, false)), trusted()).effective()).isEqualTo(Risk.R0);
    assertThat(McpToolRisk.resolve(tool("label", hints(false, false, true)), trusted()).effective()).isEqualTo(Risk.R1);
  }

  @Test
  void aToolCanBeTrustedOnAnUntrustedServerAndTheOtherWayRound() {
    McpServerSettings untrusted = new McpServerSettings(false, Risk.R3, Map.of("read",
        new McpToolSettings(null, null, null, null, true)));
    assertThat(McpToolRisk.resolve(tool("read", hints(true, false, false)), untrusted).effective()).isEqualTo(Risk.R0);
    McpServerSettings trustedButNotThis = new McpServerSettings(true, Risk.R3, Map.of("read",
        new McpToolSettings(null, null, null, null, false)));
    assertThat(McpToolRisk.resolve(tool("read", hints(true, false, false)), trustedButNotThis).effective()).isEqualTo(Risk.R3);
  }

  @Test
  void r2WithAReconcileToolIsR2AndWithoutOneRecoveredAsR3() {
    McpReconcile rec = new McpReconcile("search", Map.of("q", "title"), "/items");
    McpServerSettings s = new McpServerSettings(false, Risk.R3, Map.of("create",
        new McpToolSettings(Risk.R2, rec, null, null, null)));
    McpToolRisk r = McpToolRisk.resolve(tool("create", hints(false, false, false)), s);
    assertThat(r.effective()).isEqualTo(Risk.R2);
    assertThat(r.reconcile()).isEqualTo(rec);
    McpToolRisk trustedR2 = McpToolRisk.resolve(tool("create", hints(false, false, false)), trusted());
    assertThat(trustedR2.effective()).isEqualTo(Risk.R3);
    assertThat(trustedR2.basis()).contains("R2 without a reconcile tool");
  }
}
