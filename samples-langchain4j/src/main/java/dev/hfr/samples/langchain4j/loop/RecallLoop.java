package dev.hfr.samples.langchain4j.loop;

import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.langchain4j.HfrTools;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.samples.langchain4j.loop.FlakyShop.Effect;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The agent loop, with and without HFR: {@code conversations} conversations of an AiServices agent whose model calls
 * a failing tool again (up to three times), over services that fail {@code faultRate} of their requests; the
 * services count the duplicates. With HFR the agent is wired as docs/LANGCHAIN4J.md says — {@code HfrTools.wrap} and
 * a memory id per conversation, nothing else: each conversation is a task, so the model's re-call of a write is
 * answered from the ledger instead of being sent again.
 */
public final class RecallLoop {

  /** The agent: one conversation per memory id. */
  interface Assistant {
    String chat(@MemoryId String conversation, @UserMessage String message);
  }

  /**
   * What one run counted.
   *
   * @param duplicates effects beyond the first per reference, per service
   * @param completed conversations that ended with every step done
   * @param faults faults the services injected
   * @param breakersOpened how often a circuit breaker of the engine opened (with HFR; 0 without)
   * @param unfinished the model's last answer in each conversation it could not complete: what it told the user
   */
  public record Run(Map<Effect, Integer> duplicates, int completed, int faults, long breakersOpened, List<String> unfinished) {}

  private RecallLoop() {}

  /** {@code conversations} conversations through HFR ({@code withHfr}) or through plain LangChain4j tools. */
  public static Run run(boolean withHfr, int conversations, double faultRate, long seed) throws Exception {
    try (ScriptedOpenAiServer llm = ScriptedOpenAiServer.start().answerEveryRequest(RecallingModel.NAME, RecallingModel::reply);
         FlakyShop shop = FlakyShop.start(faultRate, seed);
         Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(DecisionSink.discarding()).seed(seed).build()) {
      AiServices<Assistant> agent = AiServices.builder(Assistant.class)
          .chatModel(OpenAiChatModel.builder().baseUrl(llm.baseUrl()).apiKey("sample-key").modelName(RecallingModel.NAME)
              .maxRetries(0).timeout(Duration.ofSeconds(10)).build())
          .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(60));
      Assistant assistant = withHfr
          ? HfrTools.wrap(agent, LoopTools_Recovering.create(hfr, shop.uri())).build()
          : agent.tools(new LoopTools(shop.uri())).build();
      int completed = 0;
      List<String> unfinished = new ArrayList<>();
      for (int i = 1; i <= conversations; i++) {
        String answer = assistant.chat("conversation-" + i, RecallingModel.order("r-", i));
        if (answer.startsWith("Done")) {
          completed++;
        } else {
          unfinished.add(answer);
        }
      }
      Map<Effect, Integer> duplicates = new EnumMap<>(Effect.class);
      for (Effect e : Effect.values()) {
        duplicates.put(e, shop.duplicates(e));
      }
      long opened = withHfr
          ? hfr.circuitBreakers().map(b -> b.all().stream().mapToLong(CircuitBreaker::openedCount).sum()).orElse(0L) : 0;
      return new Run(duplicates, completed, shop.faults(), opened, unfinished);
    }
  }

  /** Runs both and prints the table. */
  public static void main(String[] args) throws Exception {
    int conversations = 20;
    double faultRate = 0.3;
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 42;
    Run plain = run(false, conversations, faultRate, seed);
    Run hfr = run(true, conversations, faultRate, seed);
    System.out.printf("%nThe agent loop: %d conversations, services failing %.0f %% of requests (answer dropped after the"
        + " effect, 503, 429 + Retry-After), the model calling a failed tool up to %d times again (seed %d):%n",
        conversations, faultRate * 100, RecallingModel.RECALLS, seed);
    System.out.printf("  %-12s %8s %8s %9s %10s %10s%n", "", "orders", "charges", "receipts", "completed", "breakers");
    print("without HFR", plain, conversations);
    print("with HFR", hfr, conversations);
    System.out.println("  (duplicates counted by the services; breakers: how often one opened)");
    hfr.unfinished().forEach(answer -> System.out.println("  with HFR, unfinished: " + answer));
  }

  private static void print(String label, Run r, int conversations) {
    System.out.printf("  %-12s %8d %8d %9d %7d/%d %10d%n", label, r.duplicates().get(Effect.ORDER), r.duplicates().get(Effect.CHARGE),
        r.duplicates().get(Effect.RECEIPT), r.completed(), conversations, r.breakersOpened());
  }
}
