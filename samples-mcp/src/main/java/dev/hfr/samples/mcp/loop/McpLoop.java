package dev.hfr.samples.mcp.loop;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.langchain4j.mcp.HfrMcpToolProvider;
import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpHttpTransports;
import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.McpConfigs;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.samples.mcp.loop.DeskServer.Effect;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The agent loop over MCP, with and without HFR: an agent whose "model" works through search → create_order → charge
 * → send_receipt and calls a failed tool again up to three times (as models do, whatever the answer says), over an
 * MCP server on loopback that fails 30 % of the calls (the answer dropped after the tool ran, 503, 429 with
 * Retry-After). With HFR the agent reaches the server through LangChain4j's {@link HfrMcpToolProvider}, each
 * conversation its memory id — so the model's re-call of a write is the same write, answered from the ledger;
 * without, through the plain SDK client. The server counts the duplicates.
 */
public final class McpLoop {

  /** How often a failed step is called again. */
  static final int RECALLS = 3;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> PLAN = List.of("search", "create_order", "charge", "send_receipt");

  /**
   * What one run counted.
   *
   * @param duplicates effects beyond the first per reference, per tool
   * @param completed conversations that got through every step
   * @param faults faults the server injected
   * @param breakersOpened how often a circuit breaker of the engine opened (with HFR)
   * @param unfinished for each conversation that could not get through: the step, and the last answer it got
   */
  public record Run(Map<Effect, Integer> duplicates, int completed, long faults, long breakersOpened, List<String> unfinished) {}

  /** One tool call of the scripted model: whether it succeeded, and the text the model read. */
  private record Answer(boolean ok, String text) {}

  private McpLoop() {}

  /** {@code conversations} conversations with HFR ({@code withHfr}) or with the plain SDK client. */
  public static Run run(boolean withHfr, int conversations, double faultRate, long seed) throws Exception {
    DeskServer desk = new DeskServer();
    FaultPlan faults = new FaultPlan();
    try (FaultyMcpServer server = FaultyMcpServer.start(faults, desk.tools())) {
      for (String tool : PLAN) {
        faults.random(tool, seed + tool.hashCode(), faultRate, new McpFault.DropAfterCommit(), new McpFault.Unavailable(),
            new McpFault.RateLimited(1));
      }
      List<String> unfinished = new ArrayList<>();
      int completed;
      long opened = 0;
      if (withHfr) {
        // The engine and the client read one hfr.yaml, as docs/MCP.md shows.
        // tag::client[]
        HfrConfig config = HfrConfigLoader.parse(McpConfigs.asHfrYaml(DeskServer.MCP_CONFIG), "hfr.yaml");
        try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).config(config).seed(seed).build();
             HfrMcpClient client = HfrMcpClient.builder(hfr, "desk", McpClient.sync(
                     McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
                     .requestTimeout(Duration.ofSeconds(20)).initializationTimeout(Duration.ofSeconds(60)))
                 .config(config).build()) {
          HfrMcpToolProvider tools = HfrMcpToolProvider.of(client);
          // end::client[]
          completed = converse(conversations, unfinished, (conversation, call) -> {
            ToolProviderResult offered = tools.provideTools(new ToolProviderRequest(conversation, UserMessage.from("order")));
            ToolExecutionResult r = offered.toolExecutorByName(call.name()).executeWithContext(call,
                InvocationContext.builder().chatMemoryId(conversation).build());
            return new Answer(!r.isError(), r.resultText());
          });
          opened = hfr.circuitBreakers().map(b -> b.all().stream().mapToLong(CircuitBreaker::openedCount).sum()).orElse(0L);
        }
      } else {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.url())
            .endpoint(FaultyMcpServer.ENDPOINT).build()).requestTimeout(Duration.ofSeconds(20)).build();
        try {
          client.initialize();
          completed = converse(conversations, unfinished, (conversation, call) -> {
            try {
              McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(call.name(),
                  JSON.readValue(call.arguments(), Map.class)));
              return new Answer(!Boolean.TRUE.equals(r.isError()), String.valueOf(r.structuredContent()));
            } catch (Exception e) {
              return new Answer(false, String.valueOf(e.getMessage()));
            }
          });
        } finally {
          client.closeGracefully();
        }
      }
      faults.clearRandom();
      Map<Effect, Integer> duplicates = new EnumMap<>(Effect.class);
      for (Effect e : Effect.values()) {
        duplicates.put(e, desk.duplicates(e));
      }
      return new Run(duplicates, completed, faults.injected(), opened, unfinished);
    }
  }

  /**
   * The scripted model: each conversation's plan, a failed step called again up to {@value #RECALLS} times; a
   * conversation that does not get through adds its step and last answer to {@code unfinished}.
   *
   * @return the conversations that got through every step
   */
  private static int converse(int conversations, List<String> unfinished, BiFunction<String, ToolExecutionRequest, Answer> call) {
    int completed = 0;
    for (int i = 1; i <= conversations; i++) {
      String reference = "m-" + i;
      String sku = "SKU-" + (200 + i);
      boolean done = true;
      for (String step : PLAN) {
        String arguments = switch (step) {
          case "search" -> "{\"sku\":\"" + sku + "\"}";
          case "create_order" -> "{\"reference\":\"" + reference + "\",\"sku\":\"" + sku + "\",\"quantity\":" + (1 + i % 3) + "}";
          case "charge" -> "{\"reference\":\"" + reference + "\",\"cents\":" + (1000 + i) + "}";
          default -> "{\"reference\":\"" + reference + "\",\"email\":\"buyer" + i + "@example.com\"}";
        };
        Answer answer = new Answer(false, "");
        for (int attempt = 0; attempt <= RECALLS && !answer.ok(); attempt++) {
          answer = call.apply("conversation-" + i, ToolExecutionRequest.builder().id("call-" + i + "-" + step + "-" + attempt)
              .name(step).arguments(arguments).build());
        }
        if (!answer.ok()) {
          unfinished.add(reference + " at " + step + ": " + answer.text());
          done = false;
          break;
        }
      }
      completed += done ? 1 : 0;
    }
    return completed;
  }

  /** Runs both and prints the table. */
  public static void main(String[] args) throws Exception {
    int conversations = 20;
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 42;
    Run plain = run(false, conversations, 0.3, seed);
    Run hfr = run(true, conversations, 0.3, seed);
    System.out.printf("%nThe agent loop over MCP: %d conversations, the server failing 30 %% of calls (answer dropped after"
        + " the tool ran, 503, 429 + Retry-After), the model calling a failed tool up to %d times again (seed %d):%n",
        conversations, RECALLS, seed);
    System.out.printf("   %-12s %8s %8s %9s %10s %10s%n", "", "orders", "charges", "receipts", "completed", "breakers");
    print("without HFR", plain, conversations);
    print("with HFR", hfr, conversations);
    hfr.unfinished().forEach(u -> System.out.println("   with HFR, unfinished: " + u));
  }

  private static void print(String label, Run r, int conversations) {
    System.out.printf("   %-12s %8d %8d %9d %7d/%d %10d%n", label, r.duplicates().get(Effect.ORDER), r.duplicates().get(Effect.CHARGE),
        r.duplicates().get(Effect.RECEIPT), r.completed(), conversations, r.breakersOpened());
  }
}
