package dev.hfr.langchain4j.docs;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.langchain4j.ConversationTasks;
import dev.hfr.langchain4j.HfrChatModel;
import dev.hfr.langchain4j.HfrStreamingChatModel;
import dev.hfr.langchain4j.HfrTools;
import dev.hfr.langchain4j.KeepRecentSummarizer;
import dev.hfr.langchain4j.http.ObservingHttpClientBuilder;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.telemetry.JsonLinesDecisionSink;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;

/**
 * docs/LANGCHAIN4J.md's examples, compiled by the build so every type and method the page names is real; the
 * application's parts they name (an audit log, a pager, the models) are parameters or the interfaces below.
 */
final class GuideSnippets {

  /** The page's assistant. */
  interface ShopAssistant {
    String chat(@MemoryId String user, @UserMessage String m);
  }

  /** Where the page's example records ended conversations. */
  interface Audit {
    void record(String taskId, TaskReport report);
  }

  /** Who the page's example pages. */
  interface Pager {
    void page(ModelCallFailedException escalated);
  }

  private GuideSnippets() {}

  static ShopAssistant wiring(URI backendUri, ChatModel model) {
    // tag::wiring[]
    Hfr hfr = Hfr.builder().build();                         // embedded ledger, decisions to System.Logger dev.hfr.decisions
    ShopTools tools = ShopTools_Recovering.create(hfr, backendUri);

    ShopAssistant assistant = HfrTools.wrap(AiServices.builder(ShopAssistant.class), tools)
        .chatModel(model)
        .build();
    // end::wiring[]
    return assistant;
  }

  static void conversations(Hfr hfr, ShopTools tools, ChatModel model, Audit audit) {
    // tag::conversations[]
    ConversationTasks conversations = ConversationTasks.of(dev.hfr.runtime.conversation.ConversationTasks.builder(hfr)
        .tenant("acme")
        .idleTimeout(Duration.ofMinutes(30))
        .onEnd(ended -> audit.record(ended.taskId(), ended.report()))
        .build());
    ShopAssistant assistant = HfrTools.wrap(AiServices.builder(ShopAssistant.class), conversations, tools)
        .chatModel(model)
        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
        .build();                                   // interface ShopAssistant { String chat(@MemoryId String user, @UserMessage String m); }

    assistant.chat("alice", "Order 2 units of SKU-42");              // any thread, any number at once
    TaskReport report = conversations.task("alice").orElseThrow().report();
    conversations.end("alice");                                      // or let the idle timeout end it
    // end::conversations[]
  }

  static void ownTask(Hfr hfr, ShopAssistant assistant) {
    // tag::own-task[]
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "request-42").build())) {
      String answer = assistant.chat("alice", "Order 2 units of SKU-42");
      TaskReport report = task.report();
    }
    // end::own-task[]
  }

  static ChatModel ladder(String key, ChatModel sameTier, ChatModel cheaper, Logger log, Pager pager) {
    // tag::ladder[]
    ChatModel primary = OpenAiChatModel.builder().modelName("gpt-4o").maxRetries(0)
        .httpClientBuilder(ObservingHttpClientBuilder.jdk())   // keeps Retry-After of a 429
        .apiKey(key).build();
    // sameTier: the same model at another provider; cheaper: gpt-4o-mini

    ChatModel model = HfrChatModel.builder()
        .primary("gpt-4o", primary)
        .fallback(DegradeLevel.L2, "gpt-4o@azure", sameTier)
        .fallback(DegradeLevel.L3, "gpt-4o-mini", cheaper)
        .criticality(Criticality.Level.MEDIUM)
        .classifier(new DefaultFailureClassifier())
        .summarizer(new KeepRecentSummarizer(6, 80))          // or your own ContextSummarizer
        .listener(decision -> log.info("{}", decision))
        .escalationHandler(e -> pager.page(e))
        .build();
    // end::ladder[]
    return model;
  }

  static void decisionsInTheTask(ChatModel primary, ConversationTasks conversations, ShopAssistant assistant)
      throws Exception {
    // tag::decisions[]
    Hfr hfr = Hfr.builder().decisionSink(JsonLinesDecisionSink.open(Path.of("hfr-decisions.jsonl"))).build();

    ChatModel model = HfrChatModel.builder()
        .primary("gpt-4o", primary)
        .decisionSink(hfr)                                         // HfrStreamingChatModel has the same method
        .build();

    try (AutoCloseable bound = conversations.bind("alice")) {      // the model call sees alice's task
      assistant.chat("alice", "Order 2 units of SKU-42");
    }
    // end::decisions[]
  }

  static StreamingChatModel streaming(String key, StreamingChatModel sameTierStreaming, Logger log) {
    // tag::streaming[]
    StreamingChatModel streaming = HfrStreamingChatModel.builder()
        .primary("gpt-4o", OpenAiStreamingChatModel.builder().modelName("gpt-4o")
            .httpClientBuilder(ObservingHttpClientBuilder.jdk()).apiKey(key).build())
        .fallback(DegradeLevel.L2, "gpt-4o@azure", sameTierStreaming)
        .criticality(Criticality.Level.MEDIUM)
        .classifier(new DefaultFailureClassifier())
        .listener(decision -> log.info("{}", decision))
        .build();
    // end::streaming[]
    return streaming;
  }

  static ShopAssistant toolCallIds(Hfr hfr, URI api, ChatModel model) {
    // tag::tool-call-ids[]
    ShopAssistant assistant = HfrTools.wrap(AiServices.builder(ShopAssistant.class),
            ConversationTasks.of(hfr, "acme").keyedByToolCallIds(), new ShopTools_Recovering(hfr, api))
        .chatModel(model).build();
    // charge(account, cents) called as call_abc: key = SHA-256(tenant, task, step "tool-call:call_abc", tool, args)
    // end::tool-call-ids[]
    return assistant;
  }
}
