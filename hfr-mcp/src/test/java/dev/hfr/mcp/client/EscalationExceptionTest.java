package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.ToolOutcome;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An escalation reaches the MCP client's caller as a {@link CallEscalatedException}, sync and async alike. */
class EscalationExceptionTest {

  @TempDir Path dir;
  McpClientHarness h;

  @BeforeEach
  void start() {
    h = new McpClientHarness(dir);
  }

  @AfterEach
  void stop() throws Exception {
    h.close();
  }

  @Test
  @DisplayName("a destructive call whose answer was lost after it ran is escalated: CallEscalatedException, not resent")
  void syncClient() {
    h.faults.next("close_all", new McpFault.DropAfterCommit());
    assertThatThrownBy(() -> h.client.callTool("close_all", Map.of()))
        .isInstanceOfSatisfying(CallEscalatedException.class,
            e -> assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED));
    assertThat(h.tracker.closeCalls()).isEqualTo(1);
  }

  @Test
  @DisplayName("the asynchronous client completes the call exceptionally with a CallEscalatedException")
  void asyncClient() {
    h.faults.next("close_all", new McpFault.DropAfterCommit());
    assertThatThrownBy(() -> h.async().callTool("close_all", Map.of()).join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(CallEscalatedException.class);
    assertThat(h.tracker.closeCalls()).isEqualTo(1);
  }
}
