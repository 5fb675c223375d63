package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Risk;
import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each per-tool key changes in a real call, and the refresh on tools/list_changed. */
class McpToolSettingsEffectTest {

  @TempDir Path dir;

  @Test
  void approvalMakesEveryCallWaitForTheGateWhichRefusesByDefault() throws Exception {
    try (McpClientHarness h = new McpClientHarness(dir, IssueTracker.HONEST_CREATE, """
        mcp:
          servers:
            tracker:
              tools:
                label_issue: {risk: R1, approval: true}
        """, Duration.ofSeconds(10))) {
      assertThatThrownBy(() -> h.client.callTool("label_issue", Map.of("title", "t", "label", "l")))
          .isInstanceOf(ToolCallException.class);
      assertThat(h.tracker.labelCalls()).isZero();
    }
  }

  @Test
  void highCriticalityEscalatesAnUnclassifiedWriteFailureInsteadOfReconcilingIt() throws Exception {
    String config = """
        mcp:
          servers:
            tracker:
              tools:
                create_issue:
                  risk: R2
                  reconcile: {tool: search_issues, arguments: {query: title}, found_at: /items}
                  criticality: %s
        """;
    try (McpClientHarness h = new McpClientHarness(dir.resolve("high"), IssueTracker.HONEST_CREATE,
        config.formatted("high"), Duration.ofSeconds(10))) {
      h.faults.next("create_issue", new McpFault.ErrorResult("something odd happened"));
      assertThatThrownBy(() -> h.client.callTool("create_issue", Map.of("title", "odd")))
          .isInstanceOf(ToolCallException.class);
      assertThat(h.eventsOf("tracker.create_issue")).extracting(DecisionEvent::action).contains(Action.ESCALATE);
    }
    try (McpClientHarness h = new McpClientHarness(dir.resolve("medium"), IssueTracker.HONEST_CREATE,
        config.formatted("medium"), Duration.ofSeconds(10))) {
      h.faults.next("create_issue", new McpFault.ErrorResult("something odd happened"));
      h.client.callTool("create_issue", Map.of("title", "odd"));
      assertThat(h.eventsOf("tracker.create_issue")).extracting(DecisionEvent::action)
          .contains(Action.RECONCILE).doesNotContain(Action.ESCALATE);
    }
  }

  @Test
  void aLyingReadOnlyHintOnAnUntrustedServerDoesNotCauseADuplicate() throws Exception {
    try (McpClientHarness h = new McpClientHarness(dir, IssueTracker.LYING_CREATE, "mcp: {}", Duration.ofSeconds(10))) {
      assertThat(h.client.risk("create_issue").hinted()).isEqualTo(Risk.R0);
      assertThat(h.client.risk("create_issue").effective()).isEqualTo(Risk.R3);
      h.faults.next("create_issue", new McpFault.DropAfterCommit());
      assertThatThrownBy(() -> h.client.callTool("create_issue", Map.of("title", "lie")))
          .isInstanceOfSatisfying(ToolCallException.class, e -> assertThat(e.outcome().verificationRequired()).isTrue());
      assertThat(h.tracker.created("lie")).isEqualTo(1);
    }
  }

  @Test
  void trustingALyingServerIsWhatResendsItsWrite() throws Exception {
    try (McpClientHarness h = new McpClientHarness(dir, IssueTracker.LYING_CREATE, """
        mcp:
          servers:
            tracker: {trusted: true}
        """, Duration.ofSeconds(10))) {
      assertThat(h.client.risk("create_issue").effective()).isEqualTo(Risk.R0);
      h.faults.next("create_issue", new McpFault.DropAfterCommit());
      h.client.callTool("create_issue", Map.of("title", "believed"));
      assertThat(h.tracker.created("believed")).isEqualTo(2);
    }
  }

  @Test
  void aToolsListChangedNotificationRefreshesTheMapping() throws Exception {
    try (McpClientHarness h = new McpClientHarness(dir)) {
      assertThat(h.client.risk("archive")).isNull();
      McpSchema.Tool archive = McpSchema.Tool.builder("archive", Map.of("type", "object"))
          .annotations(new McpSchema.ToolAnnotations(null, true, false, true, false, null)).build();
      h.server.sdkServer().addTool(McpServerFeatures.SyncToolSpecification.builder().tool(archive)
          .callHandler((ex, req) -> McpSchema.CallToolResult.builder().addTextContent("ok").build()).build());
      h.server.sdkServer().notifyToolsListChanged();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (h.client.risk("archive") == null && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(h.client.risk("archive")).isNotNull();
      assertThat(h.client.risk("archive").hinted()).isEqualTo(Risk.R0);
    }
  }
}
