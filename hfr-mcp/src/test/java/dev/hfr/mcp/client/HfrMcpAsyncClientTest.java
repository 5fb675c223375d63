package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every tools/call of the SDK's asynchronous client through the engine's asynchronous path, against the SDK's
 * own server on loopback with injected faults: the same recovery as the blocking client.
 */
class HfrMcpAsyncClientTest {

  @TempDir Path dir;
  McpClientHarness h;
  HfrMcpAsyncClient client;

  @BeforeEach
  void start() {
    h = new McpClientHarness(dir);
    client = h.async();
  }

  @AfterEach
  void stop() throws Exception {
    h.close();
  }

  /** Longer than a request may take ({@link McpClientHarness#HANG}), so a hang fails as the request's own timeout. */
  private static final long WAIT_SECONDS = McpClientHarness.HANG.toSeconds() * 2;

  private static McpSchema.CallToolResult await(CompletableFuture<McpSchema.CallToolResult> call) throws Exception {
    return call.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @Test
  void risksAreMappedAsForTheBlockingClient() {
    assertThat(client.risk("search_issues").effective()).isEqualTo(Risk.R0);
    assertThat(client.risk("create_issue").effective()).isEqualTo(Risk.R2);
    assertThat(client.risk("close_all").effective()).isEqualTo(Risk.R3);
    assertThat(client.descriptor("create_issue").name()).isEqualTo("tracker.create_issue");
  }

  @Test
  void aCleanCallCompletesWithTheServersResult() throws Exception {
    McpSchema.CallToolResult r = await(client.callTool("create_issue", Map.of("title", "clean")));
    assertThat(r.isError()).isNotEqualTo(Boolean.TRUE);
    assertThat(h.tracker.created("clean")).isEqualTo(1);
  }

  @Test
  void a429IsRetriedAfterItsRetryAfterOnTheEnginesTimer() throws Exception {
    h.faults.next("search_issues", new McpFault.RateLimited(1));
    CompletableFuture<McpSchema.CallToolResult> call = client.callTool("search_issues", Map.of("query", "x"));
    // the caller's thread is free at once: the backoff is a timer, not a sleeping thread
    assertThat(call).isNotDone();
    await(call);
    DecisionEvent retry = h.eventsOf("tracker.search_issues").get(0);
    assertThat(retry.fault()).isEqualTo(Fault.T2);
    assertThat(retry.action()).isEqualTo(Action.RETRY);
    assertThat(retry.delayMillis()).isGreaterThanOrEqualTo(1000);
  }

  @Test
  void aCreateWhoseAnswerIsLostIsReconciledNotResent() throws Exception {
    h.faults.next("create_issue", new McpFault.DropAfterCommit());
    McpSchema.CallToolResult r = await(client.callTool("create_issue", Map.of("title", "dropped")));
    assertThat(h.server.dropped()).isEqualTo(1);
    assertThat(h.tracker.created("dropped")).isEqualTo(1);
    assertThat(r.structuredContent()).isNotNull();
    assertThat(h.eventsOf("tracker.create_issue")).extracting(DecisionEvent::action).contains(Action.RECONCILE);
  }

  @Test
  void aDestructiveToolIsNeverResentAfterAnUnknownOutcome() {
    h.faults.next("close_all", new McpFault.DropAfterCommit());
    CompletableFuture<McpSchema.CallToolResult> call = client.callTool("close_all", Map.of());
    assertThat(call).failsWithin(WAIT_SECONDS, TimeUnit.SECONDS).withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause().isInstanceOfSatisfying(ToolCallException.class, e -> {
          assertThat(e.outcome().retryable()).isFalse();
          assertThat(e.outcome().sideEffect()).isTrue();
        });
    assertThat(h.tracker.closeCalls()).isEqualTo(1);
  }

  @Test
  void anIsErrorResultIsClassifiedFromItsText() throws Exception {
    h.faults.next("search_issues", new McpFault.ErrorResult("Rate limit exceeded, please slow down"));
    await(client.callTool("search_issues", Map.of("query", "x")));
    assertThat(h.eventsOf("tracker.search_issues").get(0).fault()).isEqualTo(Fault.T2);
  }

  @Test
  void invalidParamsIsAContractFaultAndNotRetried() {
    h.faults.next("search_issues", new McpFault.RpcError(McpSchema.ErrorCodes.INVALID_PARAMS, "query must be a string"));
    CompletableFuture<McpSchema.CallToolResult> call = client.callTool("search_issues", Map.of("query", "x"));
    assertThat(call).failsWithin(WAIT_SECONDS, TimeUnit.SECONDS).withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause().isInstanceOfSatisfying(ToolCallException.class,
            e -> assertThat(e.outcome().errorType()).isEqualTo(Fault.T5));
    assertThat(h.eventsOf("tracker.search_issues")).hasSize(1);
    assertThat(h.tracker.searchCalls()).as("the search was never sent again").isZero();
  }

  @Test
  void anExpiredSessionIsReconnectedOnceWithinTheSameAttempt() throws Exception {
    h.faults.next("create_issue", new McpFault.SessionExpired());
    await(client.callTool("create_issue", Map.of("title", "session")));
    assertThat(h.tracker.created("session")).isEqualTo(1);
    // The 404 never reaches HFR: the client re-initializes and sends the request again within the attempt. Now and
    // then the SDK's transport resets the connection that second send rides on; HFR sees that reset (T3), reconciles
    // the write, finds it absent and sends it once more: still one issue, counted above.
    assertThat(h.eventsOf("tracker.create_issue")).as("no decision about the 404")
        .allMatch(e -> e.fault() == null || e.fault() == Fault.T3);
  }

  @Test
  void anIdempotentWriteIsResentUnderOneKey() throws Exception {
    h.faults.next("label_issue", new McpFault.DropAfterCommit());
    await(client.callTool("label_issue", Map.of("title", "t", "label", "bug")));
    assertThat(h.tracker.labelCalls()).isEqualTo(2);
    assertThat(h.eventsOf("tracker.label_issue").get(0).action()).isEqualTo(Action.RETRY);
  }

  @Test
  void anUnknownToolIsListedAgainThenFailsAsAContractFault() {
    CompletableFuture<McpSchema.CallToolResult> call = client.callTool("no_such_tool", Map.of());
    assertThat(call).failsWithin(WAIT_SECONDS, TimeUnit.SECONDS).withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .havingCause().isInstanceOfSatisfying(ToolCallException.class,
            e -> assertThat(e.outcome().errorType()).isEqualTo(Fault.T5));
  }

  @Test
  void failuresReachTheCallerAsTheExecutionContractNotAsCompletionWrappers() {
    h.faults.next("close_all", new McpFault.Unavailable());
    Throwable thrown = client.callTool("close_all", Map.of()).handle((r, t) -> t).join();
    Throwable cause = thrown instanceof CompletionException ? thrown.getCause() : thrown;
    assertThat(cause).isInstanceOf(ToolCallException.class);
    assertThat(((ToolCallException) cause).outcome().errorType()).isEqualTo(Fault.T1);
  }

  @Test
  void aDestructiveCallWhoseAnswerWasLostCompletesWithACallEscalatedException() {
    h.faults.next("close_all", new McpFault.DropAfterCommit());
    assertThatThrownBy(() -> h.async().callTool("close_all", Map.of()).join())
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(CallEscalatedException.class);
    assertThat(h.tracker.closeCalls()).isEqualTo(1);
  }
}
