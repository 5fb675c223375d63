package dev.hfr.mcp.client;

import dev.hfr.mcp.testing.McpConfigs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigException;
import dev.hfr.runtime.config.HfrConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mcp section: every key read, every bad value named by file, line, column and key. */
class McpConfigSectionTest {

  @Test
  void readsEveryKeyOfAServerAndItsTools() {
    McpClientConfig c = McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              trusted: true
              default_risk: R2
              tools:
                create_issue:
                  risk: R2
                  reconcile:
                    tool: search_issues
                    arguments: {query: title}
                    found_at: /items
                  approval: true
                  criticality: high
                  trusted: false
        """);
    McpServerSettings s = c.server("tracker");
    assertThat(s.trusted()).isTrue();
    assertThat(s.defaultRisk()).isEqualTo(Risk.R2);
    McpToolSettings t = s.tool("create_issue");
    assertThat(t.risk()).isEqualTo(Risk.R2);
    assertThat(t.reconcile()).isEqualTo(new McpReconcile("search_issues", Map.of("query", "title"), "/items"));
    assertThat(t.approval()).isTrue();
    assertThat(t.criticality()).isEqualTo(Criticality.Level.HIGH);
    assertThat(t.trusted()).isFalse();
  }

  @Test
  void readsTheRungsOfAToolOnThisAndOtherServers() {
    McpClientConfig c = McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              tools:
                search_issues:
                  risk: R0
                  degrade_to:
                    - {tool: archive.search_archive, level: L2, arguments: {text: query}}
                    - {tool: list_issues, level: L3}
        """);
    assertThat(c.server("tracker").tool("search_issues").degradeTo()).containsExactly(
        new McpRung("archive", "search_archive", DegradeLevel.L2, Map.of("text", "query")),
        new McpRung("tracker", "list_issues", DegradeLevel.L3, Map.of()));
  }

  @Test
  void badRungsAreNamedByLineAndKey() {
    assertThatThrownBy(() -> McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              tools:
                close_all:
                  risk: R3
                  degrade_to: [{tool: archive.noop, level: L2}]
                search_issues:
                  degrade_to:
                    - {tool: archive.search_archive, level: L9}
                    - {tool: archive.search_archive}
                    - {tool: archive.search_archive, level: L2, colour: red}
                label_issue:
                  degrade_to: archive.search_archive
        """))
        .isInstanceOf(HfrConfigException.class)
        .hasMessageContaining("hfr.yaml:8:25 hfr.mcp.servers.tracker.tools.close_all.degrade_to: an R3 tool is never degraded")
        .hasMessageContaining("hfr.mcp.servers.tracker.tools.search_issues.degrade_to[0].level: must be one of L0, L1, L2, L3, L4, was \"L9\"")
        .hasMessageContaining("hfr.mcp.servers.tracker.tools.search_issues.degrade_to[1]: a rung needs `tool`")
        .hasMessageContaining("hfr.mcp.servers.tracker.tools.search_issues.degrade_to[2].colour: unknown key")
        .hasMessageContaining("hfr.mcp.servers.tracker.tools.label_issue.degrade_to: must be a list of rungs");
  }

  @Test
  void anUnconfiguredServerIsUntrustedAndR3() {
    McpServerSettings s = McpClientConfig.EMPTY.server("anything");
    assertThat(s.trusted()).isFalse();
    assertThat(s.defaultRisk()).isEqualTo(Risk.R3);
  }

  @Test
  void aBadRiskNamesFileLineColumnAndKey() {
    assertThatThrownBy(() -> McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              tools:
                create_issue:
                  risk: R5
        """))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.source()).isEqualTo("hfr.yaml");
          assertThat(e.line()).isEqualTo(7);
          assertThat(e.key()).isEqualTo("hfr.mcp.servers.tracker.tools.create_issue.risk");
          assertThat(e.getMessage()).contains("must be one of R0, R1, R2, R3, was \"R5\"");
        });
  }

  @Test
  void everyProblemIsReportedNotOnlyTheFirst() {
    assertThatThrownBy(() -> McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              trusted: yes please
              tools:
                create_issue:
                  criticality: urgent
                  retries: 3
        """))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> assertThat(e.problems())
            .extracting(HfrConfigException.Problem::key)
            .containsExactly("hfr.mcp.servers.tracker.trusted", "hfr.mcp.servers.tracker.tools.create_issue.retries",
                "hfr.mcp.servers.tracker.tools.create_issue.criticality"));
  }

  @Test
  void r2WithoutAReconcileToolIsRefusedBecauseItWouldActAsR3() {
    assertThatThrownBy(() -> McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              tools:
                create_issue:
                  risk: R2
        """))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.key()).isEqualTo("hfr.mcp.servers.tracker.tools.create_issue.risk");
          assertThat(e.getMessage()).contains("R2 needs a reconcile tool");
        });
  }

  @Test
  void aReconcileToolOnAnotherRiskIsRefused() {
    assertThatThrownBy(() -> McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              tools:
                close_all:
                  risk: R3
                  reconcile: {tool: search_issues}
        """))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> assertThat(e.getMessage()).contains("only applies to an R2 tool"));
  }

  @Test
  void aFoundAtThatIsNotAPointerIsRefused() {
    assertThatThrownBy(() -> McpConfigs.parse("""
        mcp:
          servers:
            tracker:
              tools:
                create_issue:
                  risk: R2
                  reconcile: {tool: search_issues, found_at: items}
        """))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> assertThat(e.key())
            .isEqualTo("hfr.mcp.servers.tracker.tools.create_issue.reconcile.found_at"));
  }

  @Test
  void aServerNameWithADotIsRefused() {
    assertThatThrownBy(() -> McpConfigs.parse("""
        mcp:
          servers:
            tracker.prod: {trusted: true}
        """))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.line()).isEqualTo(4);
          assertThat(e.getMessage()).contains("a server name may hold only");
        });
  }

  @Test
  void theSectionIsReadFromHfrYamlWithTheRestOfTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("hfr.yaml");
    Files.writeString(file, """
        hfr:
          retry: {base_delay_ms: 50}
          mcp:
            servers:
              tracker: {trusted: true}
        """);
    HfrConfig config = HfrConfigLoader.load(file);
    assertThat(config.retry().baseDelayMs()).isEqualTo(50);
    assertThat(McpClientConfig.from(config).server("tracker").trusted()).isTrue();
    assertThat(McpClientConfig.from(HfrConfig.defaults())).isSameAs(McpClientConfig.EMPTY);
  }

  @Test
  void aBadKeyInTheSectionIsNamedWithTheFilesOtherProblems(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("agent.yaml");
    Files.writeString(file, "hfr:\n  retry: {base_delay_ms: -5}\n  mcp:\n    servrs: {}\n");
    assertThatThrownBy(() -> HfrConfigLoader.load(file))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.problems()).extracting(HfrConfigException.Problem::key).contains("hfr.retry.base_delay_ms");
          assertThat(e.getMessage()).contains(file + ":4:5 hfr.mcp.servrs: unknown key; did you mean `servers`?");
        });
  }
}
