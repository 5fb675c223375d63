package dev.hfr.runtime.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.time.VirtualTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A conversation is a task: its own, needing no scope opened by hand, ended after an idle timeout. */
class ConversationTasksTest {

  private static final ToolDescriptor SEND = ToolDescriptor.builder("com.acme.Mail", "send", Risk.R1)
      .parameters("to", "key").idempotencyKeyParameter(1).resultType(String.class).build();

  @TempDir Path dir;
  private final VirtualTime time = new VirtualTime(1_700_000_000_000L);
  private final List<EndedConversation> ended = new CopyOnWriteArrayList<>();
  private final List<String> keysSent = new ArrayList<>();
  private EmbeddedFileLedger ledger;
  private Hfr hfr;
  private ConversationTasks conversations;

  @BeforeEach
  void start() {
    ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
    hfr = Hfr.builder().ledger(ledger).build();
    conversations = ConversationTasks.builder(hfr).tenant("acme").idleTimeout(Duration.ofMinutes(30)).clock(time)
        .onEnd(ended::add).build();
  }

  @AfterEach
  void stop() throws Exception {
    hfr.close();
    ledger.close();
  }

  /** One e-mail sent through the engine; the key it was sent under is recorded. */
  private String send(String to) {
    return hfr.execute(SEND, new ToolInvocation<String>() {
      @Override
      public String proceed(String key) {
        keysSent.add(key);
        return "sent to " + to;
      }

      @Override
      public int argumentCount() {
        return 2;
      }

      @Override
      public Object argument(int index) {
        return index == 0 ? to : null;
      }
    });
  }

  @Test
  @DisplayName("two conversations never share a task, and a call joins its conversation's task")
  void twoConversationsNeverShareATask() throws Exception {
    String a;
    String b;
    try (ConversationTasks.Joined joined = conversations.join("user-1")) {
      a = joined.task().spec().taskId();
      assertThat(hfr.currentTask()).containsSame(joined.task());
      send("ana@example.com");
    }
    try (ConversationTasks.Joined joined = conversations.join("user-2")) {
      b = joined.task().spec().taskId();
      send("ana@example.com");
    }
    assertThat(a).startsWith("conversation-user-1-").isNotEqualTo(b);
    assertThat(b).startsWith("conversation-user-2-");
    assertThat(conversations.task("user-1").orElseThrow().spec().tenant()).isEqualTo("acme");
    assertThat(keysSent).hasSize(2).doesNotHaveDuplicates();
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("the calls of one conversation share its task until it is idle for the timeout")
  void aConversationKeepsItsTaskWhileActive() {
    String first;
    try (ConversationTasks.Joined joined = conversations.join("user-1")) {
      first = joined.task().spec().taskId();
    }
    time.advance(Duration.ofMinutes(29).toNanos());
    try (ConversationTasks.Joined joined = conversations.join("user-1")) {
      assertThat(joined.task().spec().taskId()).isEqualTo(first);
      assertThat(joined.task().report().calls()).isZero();
    }
    time.advance(Duration.ofMinutes(29).toNanos());
    assertThat(conversations.task("user-1")).map(t -> t.spec().taskId()).contains(first);
    assertThat(ended).isEmpty();
  }

  @Test
  @DisplayName("an idle conversation ends, is closed and reported, and its reused id starts a fresh task")
  void anIdleConversationEndsAndAReusedIdStartsFresh() {
    String first;
    try (ConversationTasks.Joined joined = conversations.join("user-1")) {
      first = joined.task().spec().taskId();
      send("ana@example.com");
    }
    time.advance(Duration.ofMinutes(30).toNanos());

    assertThat(conversations.task("user-1")).isEmpty();
    String second;
    try (ConversationTasks.Joined joined = conversations.join("user-1")) {
      second = joined.task().spec().taskId();
      // The same e-mail a week later is a new write, not last conversation's ledger record.
      assertThat(send("ana@example.com")).isEqualTo("sent to ana@example.com");
    }

    assertThat(second).isNotEqualTo(first).startsWith("conversation-user-1-");
    assertThat(keysSent).hasSize(2).doesNotHaveDuplicates();
    assertThat(ended).singleElement().satisfies(e -> {
      assertThat(e.taskId()).isEqualTo(first);
      assertThat(e.conversationId()).isEqualTo("user-1");
      assertThat(e.reason()).isEqualTo(EndedConversation.Reason.IDLE);
      assertThat(e.report().calls()).isEqualTo(1);
    });
  }

  @Test
  @DisplayName("joining one conversation ends the others that are idle; a conversation with a call running is never idle")
  void idleConversationsAreSweptButRunningOnesAreNot() {
    conversations.join("idle").close();
    ConversationTasks.Joined running = conversations.join("running");
    time.advance(Duration.ofHours(2).toNanos());

    conversations.join("new").close();

    assertThat(ended).extracting(EndedConversation::conversationId).containsExactly("idle");
    assertThat(conversations.task("running")).isPresent();
    running.close();
    assertThat(conversations.endIdle()).isZero();
    time.advance(Duration.ofMinutes(30).toNanos());
    assertThat(conversations.endIdle()).isEqualTo(2);
    assertThat(conversations.size()).isZero();
  }

  @Test
  @DisplayName("end() closes the task now and hands back its report; the next call starts a new task")
  void endClosesTheTaskNow() {
    String first;
    try (ConversationTasks.Joined joined = conversations.join("c")) {
      first = joined.task().spec().taskId();
      send("bo@example.com");
    }
    assertThat(conversations.end("c")).hasValueSatisfying(r -> assertThat(r.calls()).isEqualTo(1));
    assertThat(ended).singleElement().extracting(EndedConversation::reason).isEqualTo(EndedConversation.Reason.ENDED);
    try (ConversationTasks.Joined joined = conversations.join("c")) {
      assertThat(joined.task().spec().taskId()).isNotEqualTo(first);
    }
    assertThat(conversations.end("nobody")).isEmpty();
  }

  @Test
  @DisplayName("two starts of the same conversation in the same millisecond still get distinct task ids")
  void taskIdsAreUniquePerStart() {
    AtomicInteger distinct = new AtomicInteger();
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (int i = 0; i < 50; i++) {
      if (ids.add(ConversationTasks.taskIdOf("user-1", 1_700_000_000_000L))) {
        distinct.incrementAndGet();
      }
    }
    assertThat(distinct.get()).isGreaterThanOrEqualTo(48);
    assertThat(ids).allMatch(id -> id.matches("conversation-user-1-[0-9a-z]+-[0-9a-z]{4}"));
  }

  @Test
  @DisplayName("settings are checked as they are given, and a spec must carry the task id it was given")
  void settingsAreChecked() {
    assertThatThrownBy(() -> ConversationTasks.builder(hfr).idleTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idleTimeout");
    assertThatThrownBy(() -> ConversationTasks.builder(hfr).tenant(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenant");
    ConversationTasks wrong = ConversationTasks.builder(hfr).specs((id, taskId) -> TaskSpec.builder("acme", "fixed").build())
        .build();
    assertThatThrownBy(() -> wrong.join("c")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ConversationTasks.Builder.specs");
    ConversationTasks custom = ConversationTasks.builder(hfr)
        .specs((id, taskId) -> TaskSpec.builder("tenant-" + id, taskId).deadline(Duration.ofMinutes(5)).build()).build();
    try (ConversationTasks.Joined joined = custom.join("x")) {
      TaskScope task = joined.task();
      assertThat(task.spec().tenant()).isEqualTo("tenant-x");
      assertThat(task.spec().deadline()).isEqualTo(Duration.ofMinutes(5));
    }
  }

  @Test
  @DisplayName("an engine has one default conversation tasks, shared by every adapter handed none")
  void oneDefaultPerEngine() {
    assertThat(ConversationTasks.of(hfr)).isSameAs(ConversationTasks.of(hfr)).isNotSameAs(conversations);
    try (ConversationTasks.Joined joined = ConversationTasks.of(hfr).join("c")) {
      assertThat(joined.task().spec().tenant()).isEqualTo(Hfr.DEFAULT_TENANT);
    }
  }
}
