package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.config.HfrConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mcp section: every key read, every bad value named by file, line, column and key. */
class McpConfigLoaderTest {

  @Test
  void readsEveryKeyOfAServerAndItsTools() {
    McpClientConfig c = McpConfigLoader.parse("""
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
        """, "mcp.yaml");
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
    McpClientConfig c = McpConfigLoader.parse("""
        mcp:
          servers:
            tracker:
              tools:
                search_issues:
                  risk: R0
                  degrade_to:
                    - {tool: archive.search_archive, level: L2, arguments: {text: query}}
                    - {tool: list_issues, level: L3}
        """, "mcp.yaml");
    assertThat(c.server("tracker").tool("search_issues").degradeTo()).containsExactly(
        new McpRung("archive", "search_archive", DegradeLevel.L2, Map.of("text", "query")),
        new McpRung("tracker", "list_issues", DegradeLevel.L3, Map.of()));
  }

  @Test
  void badRungsAreNamedByLineAndKey() {
    assertThatThrownBy(() -> McpConfigLoader.parse("""
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
        """, "mcp.yaml"))
        .isInstanceOf(HfrConfigException.class)
        .hasMessageContaining("mcp.yaml:7:23 mcp.servers.tracker.tools.close_all.degrade_to: an R3 tool is never degraded")
        .hasMessageContaining("mcp.servers.tracker.tools.search_issues.degrade_to[0].level: must be one of L0, L1, L2, L3, L4, was \"L9\"")
        .hasMessageContaining("mcp.servers.tracker.tools.search_issues.degrade_to[1]: a rung needs `tool`")
        .hasMessageContaining("mcp.servers.tracker.tools.search_issues.degrade_to[2].colour: unknown key")
        .hasMessageContaining("mcp.servers.tracker.tools.label_issue.degrade_to: must be a list of rungs");
  }

  @Test
  void anUnconfiguredServerIsUntrustedAndR3() {
    McpServerSettings s = McpClientConfig.EMPTY.server("anything");
    assertThat(s.trusted()).isFalse();
    assertThat(s.defaultRisk()).isEqualTo(Risk.R3);
  }

  @Test
  void aBadRiskNamesFileLineColumnAndKey() {
    assertThatThrownBy(() -> McpConfigLoader.parse("""
        mcp:
          servers:
            tracker:
              tools:
                create_issue:
                  risk: R5
        """, "mcp.yaml"))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.source()).isEqualTo("mcp.yaml");
          assertThat(e.line()).isEqualTo(6);
          assertThat(e.key()).isEqualTo("mcp.servers.tracker.tools.create_issue.risk");
          assertThat(e.getMessage()).contains("must be one of R0, R1, R2, R3, was \"R5\"");
        });
  }

  @Test
  void everyProblemIsReportedNotOnlyTheFirst() {
    assertThatThrownBy(() -> McpConfigLoader.parse("""
        mcp:
          servers:
            tracker:
              trusted: yes please
              tools:
                create_issue:
                  criticality: urgent
                  retries: 3
        """, "mcp.yaml"))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> assertThat(e.problems())
            .extracting(HfrConfigException.Problem::key)
            .containsExactly("mcp.servers.tracker.trusted", "mcp.servers.tracker.tools.create_issue.retries",
                "mcp.servers.tracker.tools.create_issue.criticality"));
  }

  @Test
  void r2WithoutAReconcileToolIsRefusedBecauseItWouldActAsR3() {
    assertThatThrownBy(() -> McpConfigLoader.parse("""
        mcp:
          servers:
            tracker:
              tools:
                create_issue:
                  risk: R2
        """, "mcp.yaml"))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.key()).isEqualTo("mcp.servers.tracker.tools.create_issue.risk");
          assertThat(e.getMessage()).contains("R2 needs a reconcile tool");
        });
  }

  @Test
  void aReconcileToolOnAnotherRiskIsRefused() {
    assertThatThrownBy(() -> McpConfigLoader.parse("""
        mcp:
          servers:
            tracker:
              tools:
                close_all:
                  risk: R3
                  reconcile: {tool: search_issues}
        """, "mcp.yaml"))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> assertThat(e.getMessage()).contains("only applies to an R2 tool"));
  }

  @Test
  void aFoundAtThatIsNotAPointerIsRefused() {
    assertThatThrownBy(() -> McpConfigLoader.parse("""
        mcp:
          servers:
            tracker:
              tools:
                create_issue:
                  risk: R2
                  reconcile: {tool: search_issues, found_at: items}
        """, "mcp.yaml"))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> assertThat(e.key())
            .isEqualTo("mcp.servers.tracker.tools.create_issue.reconcile.found_at"));
  }

  @Test
  void aServerNameWithADotIsRefused() {
    assertThatThrownBy(() -> McpConfigLoader.parse("""
        mcp:
          servers:
            tracker.prod: {trusted: true}
        """, "mcp.yaml"))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.line()).isEqualTo(3);
          assertThat(e.getMessage()).contains("a server name may hold only");
        });
  }

  @Test
  void aFileIsNamedByItsFileName(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("agent-mcp.yaml");
    Files.writeString(file, "mcp:\n  servrs: {}\n");
    assertThatThrownBy(() -> McpConfigLoader.load(file))
        .isInstanceOfSatisfying(HfrConfigException.class, e -> {
          assertThat(e.getMessage()).startsWith("agent-mcp.yaml:2:3 mcp.servrs: unknown key");
        });
  }
}
