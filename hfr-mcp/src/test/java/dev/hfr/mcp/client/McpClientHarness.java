package dev.hfr.mcp.client;

import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.LoopbackTracker;
import dev.hfr.mcp.testing.McpConfigs;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@link LoopbackTracker} with what the client tests read besides: the engine's decision events and
 * meters (seeded jitter), and an asynchronous client of the same server on demand.
 */
final class McpClientHarness implements AutoCloseable {

  /** How long a request of a test that is not about timeouts may take before it counts as hung. */
  static final Duration HANG = Duration.ofSeconds(60);

  final List<DecisionEvent> events = new CopyOnWriteArrayList<>();
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final LoopbackTracker loopback;
  final IssueTracker tracker;
  final FaultPlan faults;
  final FaultyMcpServer server;
  final EmbeddedFileLedger ledger;
  final Hfr hfr;
  final HfrMcpClient client;
  private final String config;
  private HfrMcpAsyncClient async;

  McpClientHarness(Path dir, McpSchema.ToolAnnotations createHints, String config, Duration requestTimeout) {
    Warmup.once();
    this.config = config;
    loopback = new LoopbackTracker(dir, createHints, config, requestTimeout,
        engine -> engine.decisionSink(events::add).meterRegistry(meters).seed(7));
    tracker = loopback.tracker();
    faults = loopback.faults();
    server = loopback.server();
    ledger = loopback.ledger();
    hfr = loopback.hfr();
    client = loopback.client();
  }

  /**
   * The tracker as its operator configures it, each request bounded by {@link #HANG}: in these tests a request
   * timeout only detects a hang. A shorter one raced the answer on a loaded machine (an INVALID_PARAMS answer
   * that came after 10 s was a timed-out read, rightly resent, and the test saw the resend's result); tests
   * of timeouts set their own.
   */
  McpClientHarness(Path dir) {
    this(dir, IssueTracker.HONEST_CREATE, LoopbackTracker.CONFIG, HANG);
  }

  /** An asynchronous HFR client of the same server and engine, built on first use. */
  HfrMcpAsyncClient async() {
    if (async == null) {
      async = HfrMcpAsyncClient.builder(hfr, "tracker", loopback.asyncSpec()).config(McpConfigs.parse(config)).build();
    }
    return async;
  }

  List<DecisionEvent> eventsOf(String tool) {
    return events.stream().filter(e -> e.tool().equals(tool)).toList();
  }

  @Override
  public void close() throws java.io.IOException {
    if (async != null) {
      async.close();
    }
    loopback.close();
  }
}
