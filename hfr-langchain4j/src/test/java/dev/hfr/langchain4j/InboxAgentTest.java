package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.hfr.junit.HfrFaults;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.ItemKind;
import dev.langchain4j.service.AiServices;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A LangChain4j agent whose model calls tools again: an e-mail whose answer was lost waits in the inbox, a person
 * answers, and the model's next call of that e-mail — through AiServices, the generated proxy, the engine and the
 * ledger — gets the answer. The mail service on 127.0.0.1 counts what it really sent.
 */
@HfrFaults
@DisplayName("An agent's e-mail that waits for a person, answered in the inbox")
class InboxAgentTest {

  interface Clerk {
    String chat(String message);
  }

  ScriptedOpenAiServer model;
  HttpServer mail;
  final Map<String, Integer> sent = new ConcurrentHashMap<>();
  final AtomicBoolean dropNextAnswer = new AtomicBoolean();

  @BeforeEach
  void start() throws IOException {
    model = ScriptedOpenAiServer.start();
    mail = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    mail.createContext("/", exchange -> {
      String to = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String key = exchange.getRequestURI().getPath() + ":" + to;
      int n = sent.merge(key, 1, Integer::sum);
      if (dropNextAnswer.getAndSet(false)) {
        throw new IllegalStateException("sent, then the connection dropped"); // the server closes the connection
      }
      byte[] body = ("msg-" + n + "-" + key).getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    mail.start();
  }

  @AfterEach
  void stop() {
    model.close();
    mail.stop(0);
  }

  private Clerk clerk(Hfr hfr) {
    URI uri = URI.create("http://127.0.0.1:" + mail.getAddress().getPort() + "/");
    return HfrTools.wrap(AiServices.builder(Clerk.class), ReceiptDesk_Recovering.create(hfr, uri))
        .chatModel(ModelFixtures.openAi(model, "gpt-4o")).build();
  }

  @Test
  @DisplayName("'it happened', answered in the inbox: the model's re-call gets the provider's id; one e-mail sent")
  void happened(Hfr hfr) {
    model.script("gpt-4o",
        Reply.toolCall("c1", "sendReceipt", "{\"to\":\"bo@example.com\"}"),
        Reply.from(r -> Reply.text("told: " + r.toolResults().get(0))),
        Reply.toolCall("c2", "sendReceipt", "{\"to\":\"bo@example.com\"}"),
        Reply.from(r -> Reply.text("receipt " + r.toolResults().get(r.toolResults().size() - 1))));
    dropNextAnswer.set(true);
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("shop", "conversation-1").build())) {
      Clerk clerk = clerk(hfr);
      assertThat(clerk.chat("send my receipt")).contains("\"call_again\":false");
      InboxItem item = hfr.inbox().list().get(0);
      assertThat(item.tool()).isEqualTo("ReceiptDesk.sendReceipt");
      assertThat(item.argsPreview()).doesNotContain("bo@example.com");

      // tag::answer[]
      // a person found the e-mail in the provider's log: it happened, and this is its message id
      hfr.inbox().answer(item.id(), Answer.HAPPENED, "ops", "the provider's log has it", "msg-from-provider-77");
      // end::answer[]

      assertThat(clerk.chat("did it go out?")).contains("msg-from-provider-77").contains("\"replayed\":true");
    }
    assertThat(sent).containsExactly(Map.entry("/receipt:bo@example.com", 1));
  }

  @Test
  @DisplayName("an approval: 'waiting for a person' at once, then approved, the model's re-call sends exactly once")
  void approval(Hfr hfr) {
    model.script("gpt-4o",
        Reply.toolCall("c1", "sendRefundNote", "{\"to\":\"cy@example.com\"}"),
        Reply.from(r -> Reply.text("told: " + r.toolResults().get(0))),
        Reply.toolCall("c2", "sendRefundNote", "{\"to\":\"cy@example.com\"}"),
        Reply.from(r -> Reply.text("done: " + r.toolResults().get(r.toolResults().size() - 1))));
    try (TaskScope conversation = hfr.openTask(TaskSpec.builder("shop", "conversation-2").build())) {
      Clerk clerk = clerk(hfr);
      assertThat(clerk.chat("tell them about the refund")).contains("awaiting_approval").contains("\"call_again\":true");
      assertThat(sent).isEmpty();
      InboxItem request = hfr.inbox().list().get(0);
      assertThat(request.kind()).isEqualTo(ItemKind.APPROVAL);

      hfr.inbox().answer(request.id(), Answer.APPROVE, "lead", "");

      assertThat(clerk.chat("approved now")).contains("done: msg-1-/refund-note:cy@example.com");
    }
    assertThat(sent).containsExactly(Map.entry("/refund-note:cy@example.com", 1));
  }

  @Test
  @DisplayName("20 conversations, every third e-mail's answer lost: before any answer 14 complete; once each item is answered 'it happened', 20 of 20 complete and the service sent 20 e-mails")
  void twentyConversations(Hfr hfr) throws Exception {
    int conversations = 20;
    for (String round : List.of("a", "b")) { // the model calls the tool once per turn, the same e-mail in both turns
      for (int n = 0; n < conversations; n++) {
        model.script("gpt-4o", Reply.toolCall(round + n, "sendReceipt", "{\"to\":\"c" + n + "@example.com\"}"),
            Reply.from(r -> Reply.text(last(r.toolResults()))));
      }
    }
    List<TaskScope> open = new ArrayList<>();
    int completedFirst = 0;
    for (int n = 0; n < conversations; n++) {
      TaskScope conversation = hfr.newTask(TaskSpec.builder("shop", "loop-" + n).build());
      open.add(conversation);
      try (AutoCloseable bound = conversation.bindCurrentThread()) {
        dropNextAnswer.set(n % 3 == 0);
        if (clerk(hfr).chat("send my receipt").startsWith("msg-")) {
          completedFirst++;
        }
      }
    }
    List<InboxItem> waiting = hfr.inbox().list();
    for (InboxItem item : waiting) {
      hfr.inbox().answer(item.id(), Answer.HAPPENED, "ops", "in the provider's log", "msg-confirmed-" + item.taskId());
    }
    int completedAfter = 0;
    for (int n = 0; n < conversations; n++) {
      try (AutoCloseable bound = open.get(n).bindCurrentThread()) {
        String answer = clerk(hfr).chat("did it go out?");
        if (answer.contains("msg-")) {
          completedAfter++;
        }
      }
      open.get(n).close();
    }
    int sentTotal = sent.values().stream().mapToInt(Integer::intValue).sum();
    System.out.printf("inbox loop: %d conversations; before answers %d completed, %d waited for a person; after answers"
        + " %d completed; e-mails sent %d, duplicates %d%n", conversations, completedFirst, waiting.size(), completedAfter,
        sentTotal, sentTotal - sent.size());
    assertThat(completedFirst).isEqualTo(13);
    assertThat(waiting).hasSize(7);
    assertThat(completedAfter).isEqualTo(conversations);
    assertThat(sent).hasSize(conversations).allSatisfy((to, times) -> assertThat(times).isEqualTo(1));
  }

  private static String last(List<String> results) {
    return results.get(results.size() - 1);
  }
}
