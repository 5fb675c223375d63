package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.mcp.testing.McpConfigs;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client whose {@code initialize} fails closes what it opened: the stdio server's process and the SDK transport's
 * threads (non-daemon: left running, the JVM would never exit). The server here is a process that never speaks MCP,
 * so initialize times out.
 */
class FailedInitializeTest {

  /** Bounds a wait for the process and threads to end; they normally end within a second. */
  private static final Duration ENDS_WITHIN = Duration.ofSeconds(30);

  @TempDir Path dir;

  private static StdioClientTransport silentServer(String marker) {
    return new StdioClientTransport(ServerParameters.builder("sleep").args(marker).build(), McpJsonDefaults.getMapper());
  }

  @Test
  @DisplayName("a sync client whose initialize times out stops the server process and its own threads")
  void syncClient() throws Exception {
    assertStartFailsAndLeavesNothing("6017", (hfr, transport) -> HfrMcpClient.builder(hfr, "silent",
        McpClient.sync(transport).initializationTimeout(Duration.ofSeconds(2))).config(SILENT).build());
  }

  @Test
  @DisplayName("an async client whose initialize times out stops the server process and its own threads")
  void asyncClient() throws Exception {
    assertStartFailsAndLeavesNothing("6018", (hfr, transport) -> HfrMcpAsyncClient.builder(hfr, "silent",
        McpClient.async(transport).initializationTimeout(Duration.ofSeconds(2))).config(SILENT).build());
  }

  private static final McpClientConfig SILENT = McpConfigs.parse("mcp: {servers: {silent: {default_risk: R3}}}");

  /** Builds a client of a silent stdio server (its process marked by {@code marker}); the build must fail cleanly. */
  private void assertStartFailsAndLeavesNothing(String marker, BiFunction<Hfr, StdioClientTransport, ?> build)
      throws Exception {
    Set<Thread> before = liveNonDaemonThreads();
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
         Hfr hfr = Hfr.builder().ledger(ledger).build()) {
      assertThatThrownBy(() -> build.apply(hfr, silentServer(marker))).isInstanceOf(RuntimeException.class);
    }
    assertEndsWithin(() -> serverProcesses(marker).isEmpty(), "the stdio server process " + marker);
    assertEndsWithin(() -> newThreads(before).isEmpty(), "the client's threads");
  }

  private static List<ProcessHandle> serverProcesses(String marker) {
    return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
        .filter(p -> p.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false)).toList();
  }

  private static Set<Thread> liveNonDaemonThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && !t.isDaemon()).collect(Collectors.toSet());
  }

  private static Set<String> newThreads(Set<Thread> before) {
    return liveNonDaemonThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName).collect(Collectors.toSet());
  }

  /** Waits for {@code ended} (polling, since neither a process nor a thread of someone else's can be joined here). */
  private static void assertEndsWithin(BooleanSupplier ended, String what) throws InterruptedException {
    long deadline = System.nanoTime() + ENDS_WITHIN.toNanos();
    while (!ended.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(ended.getAsBoolean()).as(what + " ended").isTrue();
  }
}
