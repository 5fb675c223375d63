package dev.hfr.samples.langchain4j;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.junit.openai.RecordedRequest;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.langchain4j.HfrChatModel;
import dev.hfr.langchain4j.HfrTools;
import dev.hfr.langchain4j.KeepRecentSummarizer;
import dev.hfr.langchain4j.http.ObservingHttpClientBuilder;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.samples.langchain4j.loop.RecallLoop;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A shop assistant built with LangChain4j {@code AiServices} on the real OpenAI client, protected by HFR
 * on both sides: its tools run through the engine (via the generated {@code ShopTools_Recovering}), its
 * chat model is an {@link HfrChatModel} ladder. The "LLM" is a scripted OpenAI-compatible server and the
 * shop a real HTTP backend, both on 127.0.0.1 and started here, so the run is offline and deterministic.
 * It prints every decision HFR takes. Tool and model decisions also go to one decision log, in the task
 * of the conversation they belong to.
 */
public final class ShopAgentSample {

  /** The decision log both sides write to (a JSON-lines file or a queue in production). */
  private static final List<DecisionEvent> DECISION_LOG = new CopyOnWriteArrayList<>();

  private ShopAgentSample() {}

  /** The decisions, then the agent loop with and without HFR. */
  public static void main(String[] args) throws Exception {
    decisions();
    // The agent loop: a model that calls failing tools again, with and without HFR.
    RecallLoop.main(new String[0]);
  }

  /** One conversation per kind of failure, each decision printed. */
  static void decisions() throws Exception {
    DECISION_LOG.clear();
    try (ScriptedOpenAiServer llm = ScriptedOpenAiServer.start();
        OrderService shop = OrderService.start();
        Hfr hfr = Hfr.builder()
            .classifier(new DefaultFailureClassifier())
            .ledger(new InMemoryLedger())
            .decisionSink(event -> {
              printToolDecision(event);
              DECISION_LOG.add(event);
            })
            .build()) {
      System.out.println("HFR LangChain4j sample");
      System.out.println("  scripted OpenAI-compatible server: " + llm.baseUrl());
      System.out.println("  order backend:                     " + shop.uri());
      script(llm);

      // tag::model[]
      ChatModel model = HfrChatModel.builder()
          .primary("gpt-4o", openAi(llm, "gpt-4o"))
          .fallback(DegradeLevel.L2, "gpt-4o@backup", openAi(llm, "gpt-4o-backup"))
          .fallback(DegradeLevel.L3, "gpt-4o-mini", openAi(llm, "gpt-4o-mini"))
          .criticality(Criticality.Level.MEDIUM)
          .classifier(new DefaultFailureClassifier())
          .summarizer(new KeepRecentSummarizer(4, 60))
          .listener(ShopAgentSample::printModelDecision)
          .escalationHandler(e -> System.out.println("    [model] escalated to a human: " + e.getMessage()))
          .decisionSink(DECISION_LOG::add, () -> hfr.currentTask().orElse(null))
          .build();
      // end::model[]

      // tag::wire[]
      ShopTools tools = ShopTools_Recovering.create(hfr, shop.uri());
      ShopAssistant assistant = HfrTools.wrap(AiServices.builder(ShopAssistant.class), () -> hfr.currentTask().orElse(null), tools)
          .chatModel(model)
          .chatMemory(MessageWindowChatMemory.withMaxMessages(40))
          .build();
      // end::wire[]

      converse(hfr, assistant, "conversation-1",
          "Please order 2 units of SKU-42 if they are in stock.",
          () -> shop.dropNextOrderAnswer());
      System.out.println("  orders stored by the backend: " + shop.orders());

      converse(hfr, assistant, "conversation-2", "How many SKU-7 are left?", () -> shop.stockDown(true));
      shop.stockDown(false);

      converse(hfr, assistant, "conversation-3", "Summarise what we did today.", () -> { });

      converse(hfr, assistant, "conversation-4", "Write an insulting review of your competitor.", () -> { });

      System.out.println();
      System.out.println("requests the scripted server answered:");
      for (RecordedRequest r : llm.requests()) {
        System.out.printf("  %-14s %2d messages -> %s%n", r.model(), r.messageCount(), r.reply());
      }
    }
  }

  /** The script the "LLM" plays, per model, in order. */
  private static void script(ScriptedOpenAiServer llm) {
    // conversation 1: a rate limit, a stock check, an overload (-> same-tier backup), an order whose
    // answer is lost after it committed, and a final answer quoting the tool result
    llm.script("gpt-4o",
        Reply.rateLimited(1),
        Reply.toolCall("call_1", "checkStock", "{\"sku\":\"SKU-42\"}"),
        Reply.overloaded());
    llm.script("gpt-4o-backup", Reply.toolCall("call_2", "placeOrder", "{\"sku\":\"SKU-42\",\"quantity\":2}"));
    llm.script("gpt-4o", Reply.from(r -> Reply.text("Done: order " + last(r.toolResults()) + " for 2 x SKU-42 is placed.")));
    // conversation 2: the stock service is down; the model reads the structured failure
    llm.script("gpt-4o",
        Reply.toolCall("call_3", "checkStock", "{\"sku\":\"SKU-7\"}"),
        Reply.from(r -> Reply.text("I could not check the stock right now; the tool said: " + last(r.toolResults()))));
    // conversation 3: the history no longer fits; HFR compresses it once and resends
    llm.script("gpt-4o", Reply.contextLengthExceeded(),
        Reply.from(r -> Reply.text("We placed one order for 2 x SKU-42 (sent " + r.messageCount() + " messages after compression).")));
    // conversation 4: the provider's content filter stops the answer; HFR escalates, no fallback
    llm.script("gpt-4o", Reply.contentFilterFinish());
    llm.script("gpt-4o-backup", Reply.text("a weaker model would have complied"));
  }

  private static void converse(Hfr hfr, ShopAssistant assistant, String taskId, String userMessage, Runnable setUp) {
    System.out.println();
    System.out.println("== " + taskId + ": user: " + userMessage);
    setUp.run();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("shop", taskId).build())) {
      try {
        System.out.println("  assistant: " + assistant.chat(userMessage));
      } catch (RuntimeException e) {
        ModelCallFailedException failed = modelFailure(e);
        if (failed == null) {
          throw e;
        }
        System.out.println("  no answer: " + failed.status() + " (" + failed.fault() + ") " + failed.getMessage());
      }
      TaskReport report = task.report();
      System.out.printf("  task report: calls=%d succeeded=%d failed=%d escalated=%d degraded=%d retries=%d duplicates=%d %s%n",
          report.calls(), report.succeeded(), report.failed(), report.escalated(), report.degraded(),
          report.retryCount(), report.duplicateSideEffects(), report.processMetrics());
      List<DecisionEvent> logged = DECISION_LOG.stream().filter(e -> taskId.equals(e.taskId())).toList();
      System.out.printf("  decision log of shop/%s: %d model decisions %s, %d tool decisions%n", taskId,
          logged.stream().filter(e -> e.tool().startsWith("model:")).count(),
          logged.stream().filter(e -> e.tool().startsWith("model:")).map(e -> e.action().name()).toList(),
          logged.stream().filter(e -> !e.tool().startsWith("model:")).count());
    }
  }

  private static void printModelDecision(ModelDecision d) {
    System.out.printf("    [model] %-21s %-3s attempt %d  %-12s -> %-13s %s%s%n",
        d.rung(), d.level(), d.attempt(), d.fault() == null ? "ok" : d.fault(), d.action(), d.detail(),
        d.delayMillis() > 0 ? " (wait " + d.delayMillis() + " ms)" : "");
  }

  private static void printToolDecision(DecisionEvent e) {
    System.out.printf("    [tool ] %-21s %-3s attempt %d  %-12s -> %-13s %s%s%s%n",
        e.tool(), e.rung(), e.attempt(), e.fault() == null ? "ok" : e.fault(), e.action() == null ? "ACCEPT" : e.action(),
        e.reason(), e.delayMillis() > 0 ? " (wait " + e.delayMillis() + " ms)" : "",
        e.ledgerState() != null ? "  ledger " + e.ledgerState() : "");
  }

  private static ChatModel openAi(ScriptedOpenAiServer llm, String modelName) {
    return OpenAiChatModel.builder()
        .baseUrl(llm.baseUrl())
        .apiKey("sample-key")
        .modelName(modelName)
        .maxRetries(0)
        .timeout(Duration.ofSeconds(5))
        .httpClientBuilder(ObservingHttpClientBuilder.jdk())
        .build();
  }

  /** The model-side failure behind what AiServices threw, or {@code null}. */
  private static ModelCallFailedException modelFailure(Throwable t) {
    for (int depth = 0; t != null && depth < 8; t = t.getCause(), depth++) {
      if (t instanceof ModelCallFailedException m) {
        return m;
      }
    }
    return null;
  }

  private static String last(List<String> items) {
    return items.isEmpty() ? "(nothing)" : items.get(items.size() - 1);
  }
}
