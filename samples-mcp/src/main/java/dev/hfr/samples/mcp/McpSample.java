package dev.hfr.samples.mcp;

import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpHttpTransports;
import dev.hfr.mcp.client.McpToolRisk;
import dev.hfr.mcp.server.McpToolExporter;
import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An MCP server — HFR's server side exposing {@link TrackerTools}, plus one legacy tool that lies with
 * {@code readOnlyHint} on a write — on 127.0.0.1 with injected faults (commit-then-drop, 429 with
 * Retry-After, {@code isError} answers, 503, expired sessions), and an agent-side MCP client through HFR.
 * It shows one decision per fault, then 500 faulty creates through HFR beside a plain SDK client that
 * retries failed calls, and the duplicates the server counted for each.
 *
 * <pre>mvn -q -pl samples-mcp -am package -Prun-sample -DskipTests</pre>
 */
public final class McpSample {

  static final int BULK_CALLS = 500;
  static final long SEED = 42;

  private final Map<String, AtomicInteger> tickets = new ConcurrentHashMap<>();
  private volatile boolean narrate = true;

  public static void main(String[] args) throws Exception {
    new McpSample().run();
    // The agent loop: a model that calls failing MCP tools again, with and without HFR.
    dev.hfr.samples.mcp.loop.McpLoop.main(new String[0]);
    // Everything is closed, but the SDK 2.1.0 servlet transport's session sweeper is a non-daemon thread
    // that outlives the server: end the JVM explicitly (the pom runs the sample in a JVM of its own).
    System.exit(0);
  }

  private void run() throws Exception {
    Path work = Files.createTempDirectory("hfr-mcp-sample");
    TrackerTools tracker;
    try (EmbeddedFileLedger serverLedger = EmbeddedFileLedger.open(work.resolve("server-ledger"));
         Hfr serverHfr = Hfr.builder().ledger(serverLedger).build()) {
      tracker = TrackerTools_Recovering.create(serverHfr);
      // tag::export[]
      List<McpServerFeatures.SyncToolSpecification> tools = new ArrayList<>(
          McpToolExporter.builder(serverHfr).tools(tracker).build().specifications());
      // end::export[]
      tools.add(lyingCreateTicket());
      FaultPlan faults = new FaultPlan();
      try (FaultyMcpServer server = FaultyMcpServer.start(faults, tools)) {
        System.out.println("HFR x MCP sample: an MCP server (HFR's server side, the SDK's streamable HTTP on "
            + server.url() + FaultyMcpServer.ENDPOINT + ") with injected faults, and an agent-side client through HFR.");
        runClient(work, server, faults, tracker);
      }
    }
  }

  private void runClient(Path work, FaultyMcpServer server, FaultPlan faults, TrackerTools tracker) throws Exception {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    HfrConfig config = HfrConfigLoader.parse(resource("hfr.yaml"), "hfr.yaml");   // engine settings and hfr.mcp
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(work.resolve("agent-ledger"));
         Hfr hfr = Hfr.builder().ledger(ledger).meterRegistry(meters).decisionSink(this::narrate)
             .config(config).seed(SEED).build();
         HfrMcpClient client = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(
                 McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
                 .requestTimeout(Duration.ofSeconds(10)).initializationTimeout(Duration.ofSeconds(30)))
             .config(config)
             .build()) {
      System.out.println();
      System.out.println("Tools as the agent sees them (server hints are untrusted; hfr.yaml's mcp section vouches for some):");
      for (McpSchema.Tool t : client.tools()) {
        McpToolRisk r = client.risk(t.name());
        System.out.printf("  %-13s hints say %s -> recovered as %s (%s)%n", t.name(), r.hinted(), r.effective(), r.basis());
      }

      step("1. createIssue; the server commits, then the connection drops before the answer leaves");
      faults.next("createIssue", new McpFault.DropAfterCommit());
      call(hfr, client, "createIssue", Map.of("title", "Disk full on db-1"));
      System.out.println("   issues titled 'Disk full on db-1' on the server: " + tracker.created("Disk full on db-1"));

      step("2. searchIssues; the server answers HTTP 429 with Retry-After: 1");
      faults.next("searchIssues", new McpFault.RateLimited(1));
      call(hfr, client, "searchIssues", Map.of("query", "Disk full on db-1"));

      step("3. searchIssues; the server answers isError: \"Rate limit exceeded, slow down\"");
      faults.next("searchIssues", new McpFault.ErrorResult("Rate limit exceeded, slow down"));
      call(hfr, client, "searchIssues", Map.of("query", "Disk full on db-1"));

      step("4. createIssue; the server forgot the session (404): reconnect once, nothing ran");
      faults.next("createIssue", new McpFault.SessionExpired());
      call(hfr, client, "createIssue", Map.of("title", "Cert expires in 3 days"));

      step("5. closeAll (destructive); the connection drops after the server ran it");
      faults.next("closeAll", new McpFault.DropAfterCommit());
      call(hfr, client, "closeAll", Map.of());
      System.out.println("   closeAll ran on the server " + tracker.closes() + " time(s)");

      step("6. create_ticket, a legacy tool that claims readOnlyHint but writes; the connection drops after it wrote");
      faults.next("create_ticket", new McpFault.DropAfterCommit());
      call(hfr, client, "create_ticket", Map.of("title", "VPN down"));
      System.out.println("   tickets titled 'VPN down' on the server: " + tickets.getOrDefault("VPN down", new AtomicInteger()).get());

      narrate = false;
      step(BULK_CALLS + " creates, a third hit by a fault (drop after commit, 503, 429, expired session, isError overloaded)");
      tracker.reset();
      plan(faults);
      Outcome with = bulkWithHfr(hfr, client);
      faults.clearRandom();
      long withDuplicates = tracker.duplicates();
      long withDropped = server.dropped();
      tracker.reset();
      plan(faults);
      Outcome without = bulkWithoutHfr(server);
      faults.clearRandom();
      System.out.printf("   %-38s %9s %9s %11s %7s%n", "", "committed", "failed", "duplicates", "drops");
      System.out.printf("   %-38s %9d %9d %11d %7d%n", "through HFR", with.ok, with.failed, withDuplicates, withDropped);
      System.out.printf("   %-38s %9d %9d %11d %7d%n", "plain SDK client, up to 3 attempts", without.ok, without.failed,
          tracker.duplicates(), server.dropped() - withDropped);

      System.out.println();
      System.out.println("Meters of the agent side (harness.*, tool tracker.createIssue):");
      meters.getMeters().stream()
          .filter(m -> m instanceof Counter && "tracker.createIssue".equals(m.getId().getTag("tool")))
          .sorted((a, b) -> a.getId().toString().compareTo(b.getId().toString()))
          .forEach(m -> System.out.printf("   %s %s = %.0f%n", m.getId().getName(), m.getId().getTags().stream()
              .filter(t -> !t.getKey().equals("tool")).map(t -> t.getKey() + "=" + t.getValue()).toList(),
              ((Counter) m).count()));
    }
  }

  record Outcome(int ok, int failed) {}

  private static void plan(FaultPlan faults) {
    faults.random("createIssue", SEED, 0.33, new McpFault.DropAfterCommit(), new McpFault.Unavailable(),
        new McpFault.RateLimited(0), new McpFault.SessionExpired(),
        new McpFault.ErrorResult("The service is overloaded, try again later"));
    faults.random("searchIssues", SEED + 1, 0.10, new McpFault.Unavailable());
  }

  private static Outcome bulkWithHfr(Hfr hfr, HfrMcpClient client) {
    int ok = 0;
    int failed = 0;
    for (int i = 0; i < BULK_CALLS; i++) {
      TaskScope task = hfr.openTask(TaskSpec.builder("acme", "bulk-" + i).build());
      try {
        client.callTool("createIssue", Map.of("title", "bulk-" + i));
        ok++;
      } catch (ToolCallException e) {
        failed++;
      } finally {
        task.close();
      }
    }
    return new Outcome(ok, failed);
  }

  private static Outcome bulkWithoutHfr(FaultyMcpServer server) {
    int ok = 0;
    int failed = 0;
    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.url())
        .endpoint(FaultyMcpServer.ENDPOINT).build()).requestTimeout(Duration.ofSeconds(10)).build();
    client.initialize();
    for (int i = 0; i < BULK_CALLS; i++) {
      boolean done = false;
      for (int attempt = 1; attempt <= 3 && !done; attempt++) {
        try {
          done = !Boolean.TRUE.equals(client.callTool(
              new McpSchema.CallToolRequest("createIssue", Map.of("title", "bulk-" + i), null)).isError());
        } catch (RuntimeException e) {
          done = false;
        }
      }
      if (done) {
        ok++;
      } else {
        failed++;
      }
    }
    client.close();
    return new Outcome(ok, failed);
  }

  private static void call(Hfr hfr, HfrMcpClient client, String tool, Map<String, Object> args) {
    TaskScope task = hfr.openTask(TaskSpec.builder("acme", "sample-" + tool + "-" + System.nanoTime()).build());
    try {
      McpSchema.CallToolResult r = client.callTool(tool, args);
      System.out.println("   -> accepted: " + text(r));
    } catch (ToolCallException e) {
      System.out.println("   -> " + e.outcome().status().name().toLowerCase(java.util.Locale.ROOT) + ": "
          + e.outcome().reason() + " (fault " + e.outcome().errorType() + ", retryable " + e.outcome().retryable()
          + ", side_effect " + e.outcome().sideEffect() + ", verification_required " + e.outcome().verificationRequired() + ")");
    } finally {
      task.close();
    }
  }

  private void narrate(DecisionEvent e) {
    if (!narrate) {
      return;
    }
    System.out.printf("   decision: attempt %d %s%s -> %s (%s)%s%n", e.attempt(),
        e.fault() == null ? "ok" : e.fault().name(), e.rule() == null ? "" : " [" + e.rule() + "]",
        e.action(), e.reason().code(), e.delayMillis() > 0 ? ", wait " + e.delayMillis() + " ms" : "");
  }

  private static void step(String title) {
    System.out.println();
    System.out.println(title);
  }

  private static String text(McpSchema.CallToolResult r) {
    if (r.content() != null && !r.content().isEmpty() && r.content().get(0) instanceof McpSchema.TextContent t) {
      String s = t.text();
      return s.length() > 160 ? s.substring(0, 160) + "..." : s;
    }
    return String.valueOf(r.structuredContent());
  }

  /** A tool registered straight with the SDK, not through HFR, whose hints claim read-only: it writes. */
  private McpServerFeatures.SyncToolSpecification lyingCreateTicket() {
    McpSchema.Tool tool = McpSchema.Tool.builder("create_ticket", Map.of("type", "object",
            "properties", Map.of("title", Map.of("type", "string")), "required", List.of("title")))
        .description("Opens a ticket (its hints lie: it is not read-only)")
        .annotations(new McpSchema.ToolAnnotations("Open a ticket", true, false, true, null, null))
        .build();
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> {
          String title = String.valueOf(request.arguments().get("title"));
          tickets.computeIfAbsent(title, t -> new AtomicInteger()).incrementAndGet();
          return McpSchema.CallToolResult.builder().addTextContent("ticket opened: " + title).build();
        })
        .build();
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = McpSample.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IOException(name + " is missing from the sample's resources");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
