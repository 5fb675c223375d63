package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CallAwaitingApprovalException;
import dev.hfr.runtime.CallRefusedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.conversation.ModelAnswers;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxAnswerException;
import dev.hfr.runtime.inbox.InboxFilter;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.ItemKind;
import dev.hfr.runtime.inbox.ItemState;
import dev.hfr.runtime.inbox.SqliteInboxStore;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person in the loop: an e-mail (R3) whose answer was dropped goes to the inbox; a person answers there; the
 * model's next call of the same e-mail in its conversation gets that answer — the recorded result, one send after
 * "it did not happen", or "a person closed it" — and approvals never block a thread. All against a real mail service
 * on 127.0.0.1 that counts what it sent.
 */
class InboxRecallTest {

  private final Fixtures f = new Fixtures();
  private final ShopService shop = newShop();

  private static ShopService newShop() {
    try {
      return new ShopService();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterEach
  void stop() {
    shop.close();
  }

  private static TaskScope conversation(Hfr hfr, String id) {
    return hfr.openTask(TaskSpec.builder("acme", id).build());
  }

  /** The model's call of send(to), as a scripted model makes it: again and again after errors. */
  private String send(Hfr hfr, ToolDescriptor tool, String to) {
    return hfr.execute(tool, new ShopTools.SendMail(shop, to));
  }

  private int mailsTo(String to) {
    return shop.mailsByTo.getOrDefault(to, 0);
  }

  @Nested
  @DisplayName("an escalated e-mail")
  class Escalations {

    @Test
    @DisplayName("is filed once with its evidence and redacted arguments; a re-call before any answer sends nothing and files nothing")
    void filedOnce() {
      Hfr hfr = f.engine();
      shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
      try (TaskScope task = conversation(hfr, "conv-1")) {
        catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "ana@example.com"));
        OutcomeUnknownException again =
            catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "ana@example.com"));
        assertThat(again.outcome().reason()).isEqualTo(Reason.OUTCOME_UNKNOWN_RECALL.code());
      }
      List<InboxItem> waiting = hfr.inbox().list();
      assertThat(waiting).hasSize(1);
      InboxItem item = waiting.get(0);
      assertThat(item.kind()).isEqualTo(ItemKind.ESCALATION);
      assertThat(item.tool()).isEqualTo("Mail.send");
      assertThat(item.taskId()).isEqualTo("conv-1");
      assertThat(item.ledgerKey()).isNotNull();
      assertThat(item.argsPreview()).startsWith("to=").doesNotContain("ana@example.com");
      assertThat(item.evidence()).contains("\"ledgerState\":\"UNKNOWN\"").doesNotContain("ana@example.com");
      assertThat(mailsTo("ana@example.com")).isEqualTo(1);
      assertThat(hfr.inbox().waiting()).isEqualTo(1);
    }

    @Test
    @DisplayName("'it happened' with the provider's reference: the re-call gets that reference as a replay, nothing is sent again")
    void happenedIsReplayed() {
      Hfr hfr = f.engine();
      shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
      List<InboxItem> heard = new ArrayList<>();
      hfr.inbox().onAnswered(heard::add);
      try (TaskScope task = conversation(hfr, "conv-2")) {
        catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "bo@example.com"));
        InboxItem item = hfr.inbox().list().get(0);

        hfr.inbox().answer(item.id(), Answer.HAPPENED, "ops@acme", "the provider's log shows it sent", "msg-7781");

        assertThat(f.ledger.find("acme", item.ledgerKey()).orElseThrow().state()).isEqualTo(LedgerState.RECONCILED_COMMITTED);
        assertThat(send(hfr, ShopTools.SEND_MAIL, "bo@example.com")).isEqualTo("msg-7781");
        assertThat(task.lastOutcome().replayed()).isTrue();
        assertThat(heard).extracting(InboxItem::id).containsExactly(item.id());
      }
      assertThat(mailsTo("bo@example.com")).isEqualTo(1);
      InboxItem answered = hfr.inbox().list(InboxFilter.ALL).get(0);
      assertThat(answered.state()).isEqualTo(ItemState.ANSWERED);
      assertThat(answered.answer().by()).isEqualTo("ops@acme");
      assertThat(answered.answer().at()).isEqualTo(java.time.Instant.ofEpochMilli(f.time.epochMillis()));
      DecisionEvent logged = f.sink.events.stream().filter(e -> "inbox.happened".equals(e.rule())).findFirst().orElseThrow();
      assertThat(logged.reason()).isEqualTo(Reason.RECONCILED_COMMITTED);
      assertThat(logged.ledgerState()).isEqualTo("RECONCILED_COMMITTED");
    }

    @Test
    @DisplayName("'it did not happen': the re-call sends it exactly once, and the one after that is a replay")
    void didNotHappenSendsOnce() {
      Hfr hfr = f.engine();
      shop.inject("/mail", ShopService.Fault.DROP);
      try (TaskScope task = conversation(hfr, "conv-3")) {
        catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "cy@example.com"));
        InboxItem item = hfr.inbox().list().get(0);

        hfr.inbox().answer(item.id(), Answer.DID_NOT_HAPPEN, "ops@acme", "not in the provider's log");

        assertThat(send(hfr, ShopTools.SEND_MAIL, "cy@example.com")).isEqualTo("sent to cy@example.com");
        assertThat(send(hfr, ShopTools.SEND_MAIL, "cy@example.com")).isEqualTo("sent to cy@example.com");
        assertThat(task.lastOutcome().replayed()).isTrue();
      }
      assertThat(mailsTo("cy@example.com")).isEqualTo(1);
    }

    @Test
    @DisplayName("'leave it': the re-call is told a person closed it, sends nothing and asks nobody again")
    void leaveCloses() {
      Hfr hfr = f.engine();
      shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
      try (TaskScope task = conversation(hfr, "conv-4")) {
        catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "di@example.com"));
        hfr.inbox().answer(hfr.inbox().list().get(0).id(), Answer.LEAVE, "ops@acme", "customer was told by phone");

        ToolCallException closed = catchThrowableOfType(ToolCallException.class,
            () -> send(hfr, ShopTools.SEND_MAIL, "di@example.com"));
        assertThat(closed.outcome().reason()).isEqualTo(Reason.CLOSED_BY_PERSON.code());
        assertThat(closed.outcome().personAnswer()).contains("customer was told by phone");
        assertThat(ModelAnswers.render(closed.outcome())).contains("\"call_again\":false");
      }
      assertThat(mailsTo("di@example.com")).isEqualTo(1);
      assertThat(hfr.inbox().waiting()).isZero();
    }

    @Test
    @DisplayName("'undo it' on an order whose outcome nobody could tell: the re-call cancels it through the tool's compensate method, once, and sends nothing")
    void undoCompensates() {
      Hfr hfr = f.engine();
      // the order is placed and its answer lost; the reconcile query's answer is lost too: nobody can tell
      shop.inject("/orders", ShopService.Fault.COMMIT_THEN_DROP);
      for (int query = 0; query < 20; query++) {
        shop.inject("/orders", ShopService.Fault.DROP); // every reconcile query's answer is lost too, however often it asks
      }
      try (TaskScope task = conversation(hfr, "conv-undo")) {
        ToolCallException unknown = catchThrowableOfType(ToolCallException.class,
            () -> hfr.execute(ShopTools.CREATE_ORDER, new ShopTools.CreateOrder(shop, "ref-9")));
        assertThat(unknown).as("the order's outcome is unknown").isNotNull();
        InboxItem item = hfr.inbox().list().get(0);
        assertThat(item.reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());

        hfr.inbox().answer(item.id(), Answer.UNDO, "ops@acme", "the customer cancelled by phone");

        for (int i = 0; i < 2; i++) {
          ToolCallException undone = catchThrowableOfType(ToolCallException.class,
              () -> hfr.execute(ShopTools.CREATE_ORDER, new ShopTools.CreateOrder(shop, "ref-9")));
          assertThat(undone.outcome().reason()).isEqualTo(Reason.COMPENSATED.code());
          assertThat(undone.outcome().personAnswer()).contains("undone").contains("the customer cancelled by phone");
          assertThat(ModelAnswers.render(undone.outcome())).contains("\"call_again\":false");
        }
        assertThat(f.ledger.find("acme", item.ledgerKey()).orElseThrow().state()).isEqualTo(LedgerState.COMPENSATED);
      }
      assertThat(shop.ordersByRef).containsEntry("ref-9", 1);
      assertThat(shop.cancelsByRef).containsEntry("ref-9", 1);
      assertThat(hfr.inbox().waiting()).as("nobody asked again").isZero();
    }

    @Test
    @DisplayName("a second answer, an unknown item and an answer that does not fit are refused with what to do instead")
    void badAnswersRefused() {
      Hfr hfr = f.engine();
      shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
      try (TaskScope task = conversation(hfr, "conv-5")) {
        catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "ed@example.com"));
      }
      String id = hfr.inbox().list().get(0).id();
      assertThatThrownBy(() -> hfr.inbox().answer(id, Answer.APPROVE, "ops@acme", ""))
          .isInstanceOf(InboxAnswerException.class).hasMessageContaining("happened, did_not_happen, undo or leave");
      hfr.inbox().answer(id, Answer.HAPPENED, "ops@acme", "");
      assertThatThrownBy(() -> hfr.inbox().answer(id, Answer.DID_NOT_HAPPEN, "eve@acme", ""))
          .isInstanceOf(InboxAnswerException.class).hasMessageContaining("it happened by ops@acme");
      assertThatThrownBy(() -> hfr.inbox().answer("no-such-item", Answer.LEAVE, "ops@acme", ""))
          .isInstanceOf(InboxAnswerException.class).hasMessageContaining("no inbox item no-such-item");
    }
  }

  @Nested
  @DisplayName("with the embedded ledger")
  class Restart {

    @TempDir
    Path dir;

    private Hfr engine() {
      return Hfr.builder().ledgerPath(dir).clock(f.time).sleeper(f.time).decisionSink(f.sink).build();
    }

    @Test
    @DisplayName("the item and its answer survive restarts, and the model's re-call after one gets the answer")
    void survivesRestart() {
      try (Hfr first = engine(); TaskScope task = conversation(first, "conv-r")) {
        shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
        catchThrowableOfType(OutcomeUnknownException.class, () -> send(first, ShopTools.SEND_MAIL, "fay@example.com"));
      }
      assertThat(dir.resolve("inbox.db")).exists();
      String id;
      try (Hfr second = engine()) {
        InboxItem item = second.inbox().list().get(0);
        id = item.id();
        second.inbox().answer(id, Answer.HAPPENED, "ops@acme", "seen in the provider", "msg-1");
      }
      try (Hfr third = engine(); TaskScope task = conversation(third, "conv-r")) {
        assertThat(third.inbox().get(id).orElseThrow().answer().answer()).isEqualTo(Answer.HAPPENED);
        assertThat(send(third, ShopTools.SEND_MAIL, "fay@example.com")).isEqualTo("msg-1");
      }
      assertThat(mailsTo("fay@example.com")).isEqualTo(1);
    }
  }

  @Nested
  @DisplayName("an approval")
  class Approvals {

    private final ToolDescriptor approved = ToolDescriptor.builder("com.acme.Mail", "sendNewsletter", Risk.R3)
        .parameters("to").resultType(String.class).requiresApproval(true).build();

    private InboxItem waitingApproval(Hfr hfr) {
      return hfr.inbox().list().stream().filter(i -> i.kind() == ItemKind.APPROVAL).findFirst().orElseThrow();
    }

    @Test
    @DisplayName("answers 'waiting for a person' at once, sends nothing, and the re-call after approval sends exactly once")
    void approveThenRunOnce() {
      Hfr hfr = f.engine();
      try (TaskScope task = conversation(hfr, "conv-a")) {
        CallAwaitingApprovalException waiting =
            catchThrowableOfType(CallAwaitingApprovalException.class, () -> send(hfr, approved, "gus@example.com"));
        assertThat(waiting.outcome().reason()).isEqualTo(Reason.AWAITING_APPROVAL.code());
        assertThat(ModelAnswers.render(waiting.outcome())).contains("\"call_again\":true");
        InboxItem request = waitingApproval(hfr);
        assertThat(waiting.outcome().artifactRefs()).contains("inbox:" + request.id());
        assertThat(request.expiresAt()).isEqualTo(request.createdAt().plus(Hfr.DEFAULT_APPROVAL_TTL));
        assertThat(mailsTo("gus@example.com")).isZero();

        hfr.inbox().answer(request.id(), Answer.APPROVE, "lead@acme", "");

        assertThat(send(hfr, approved, "gus@example.com")).isEqualTo("sent to gus@example.com");
        assertThat(send(hfr, approved, "gus@example.com")).isEqualTo("sent to gus@example.com");
        assertThat(task.lastOutcome().replayed()).isTrue();
        assertThat(hfr.inbox().get(request.id()).orElseThrow().state()).isEqualTo(ItemState.USED);
      }
      assertThat(mailsTo("gus@example.com")).isEqualTo(1);
    }

    @Test
    @DisplayName("approving one call's arguments does not approve another's")
    void otherArgumentsDoNotMatch() {
      Hfr hfr = f.engine();
      try (TaskScope task = conversation(hfr, "conv-b")) {
        catchThrowableOfType(CallAwaitingApprovalException.class, () -> send(hfr, approved, "hal@example.com"));
        hfr.inbox().answer(waitingApproval(hfr).id(), Answer.APPROVE, "lead@acme", "");
        catchThrowableOfType(CallAwaitingApprovalException.class, () -> send(hfr, approved, "ivy@example.com"));
      }
      assertThat(mailsTo("ivy@example.com")).isZero();
      assertThat(hfr.inbox().list()).singleElement().satisfies(i -> assertThat(i.kind()).isEqualTo(ItemKind.APPROVAL));
    }

    @Test
    @DisplayName("a denial reaches the model with the person's reason, and stays a denial")
    void denialCarriesReason() {
      Hfr hfr = f.engine();
      try (TaskScope task = conversation(hfr, "conv-c")) {
        catchThrowableOfType(CallAwaitingApprovalException.class, () -> send(hfr, approved, "jo@example.com"));
        hfr.inbox().answer(waitingApproval(hfr).id(), Answer.DENY, "lead@acme", "not during the freeze");
        for (int i = 0; i < 2; i++) {
          CallRefusedException denied = catchThrowableOfType(CallRefusedException.class, () -> send(hfr, approved, "jo@example.com"));
          assertThat(denied.outcome().reason()).isEqualTo(Reason.APPROVAL_DENIED.code());
          assertThat(ModelAnswers.render(denied.outcome())).contains("\"person_answer\":\"not during the freeze\"")
              .contains("\"call_again\":false");
        }
      }
      assertThat(mailsTo("jo@example.com")).isZero();
    }

    @Test
    @DisplayName("an approval not used within its time is refused, and a new request waits")
    void expiredRefused() {
      Hfr hfr = f.builder().approvalTtl(Duration.ofHours(1)).build();
      try (TaskScope task = conversation(hfr, "conv-d")) {
        catchThrowableOfType(CallAwaitingApprovalException.class, () -> send(hfr, approved, "kim@example.com"));
        hfr.inbox().answer(waitingApproval(hfr).id(), Answer.APPROVE, "lead@acme", "");
        f.time.advance(Duration.ofMinutes(61).toNanos());
        CallRefusedException expired = catchThrowableOfType(CallRefusedException.class, () -> send(hfr, approved, "kim@example.com"));
        assertThat(expired.outcome().reason()).isEqualTo(Reason.APPROVAL_EXPIRED.code());
      }
      assertThat(mailsTo("kim@example.com")).isZero();
      assertThat(waitingApproval(hfr).state()).isEqualTo(ItemState.WAITING);
    }

    @Test
    @DisplayName("an approval is used once: a send it let through that failed does not let a second one through")
    void usedOnce() {
      Hfr hfr = f.engine();
      try (TaskScope task = conversation(hfr, "conv-e")) {
        catchThrowableOfType(CallAwaitingApprovalException.class, () -> send(hfr, approved, "lu@example.com"));
        hfr.inbox().answer(waitingApproval(hfr).id(), Answer.APPROVE, "lead@acme", "");
        shop.inject("/mail", ShopService.Fault.BAD_REQUEST);
        catchThrowableOfType(ToolCallException.class, () -> send(hfr, approved, "lu@example.com"));
        InboxItem first = hfr.inbox().list(new InboxFilter(null, null, null, ItemState.USED)).get(0);
        CallAwaitingApprovalException again =
            catchThrowableOfType(CallAwaitingApprovalException.class, () -> send(hfr, approved, "lu@example.com"));
        assertThat(again.outcome().artifactRefs()).doesNotContain("inbox:" + first.id());
      }
      assertThat(shop.requests("/mail")).as("one send under the one approval").isEqualTo(1);
      assertThat(waitingApproval(hfr).state()).isEqualTo(ItemState.WAITING);
    }
  }

  @Test
  @DisplayName("inbox(false): escalations reach the escalation handler only, and hfr.inbox() says the inbox is off")
  void inboxOff() {
    Hfr hfr = f.builder().inbox(false).build();
    shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
    try (TaskScope task = conversation(hfr, "conv-off")) {
      catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "ned@example.com"));
    }
    assertThat(f.escalations.size()).isEqualTo(1);
    assertThatThrownBy(hfr::inbox).isInstanceOf(IllegalStateException.class).hasMessageContaining("inbox(false)");
  }

  @Test
  @DisplayName("inboxStore(...): the items go to the store given, which the engine leaves open")
  void storeOfYourOwn(@TempDir Path dir) {
    try (SqliteInboxStore store = SqliteInboxStore.open(dir.resolve("shared-inbox.db"))) {
      try (Hfr hfr = f.builder().inboxStore(store).build(); TaskScope task = conversation(hfr, "conv-own")) {
        shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
        catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "oda@example.com"));
      }
      assertThat(store.list(InboxFilter.WAITING, 10)).singleElement()
          .satisfies(i -> assertThat(i.taskId()).isEqualTo("conv-own"));
    }
  }

  @Test
  @DisplayName("an inbox that cannot take the item: the escalation handler still hears of it, and the call says it reached no inbox")
  void storeDown(@TempDir Path dir) {
    SqliteInboxStore store = SqliteInboxStore.open(dir.resolve("inbox.db"));
    store.close(); // every statement now fails
    Hfr hfr = f.builder().inboxStore(store).build();
    shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
    try (TaskScope task = conversation(hfr, "conv-down")) {
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> send(hfr, ShopTools.SEND_MAIL, "pe@example.com"));
      assertThat(e.outcome().reason()).isEqualTo(Reason.ESCALATION_FAILED.code());
    }
    assertThat(f.escalations.size()).isEqualTo(1);
  }

  @Test
  @DisplayName("the meters count what waits and how long the oldest has waited")
  void meters() {
    Hfr hfr = f.engine();
    shop.inject("/mail", ShopService.Fault.COMMIT_THEN_DROP);
    try (TaskScope task = conversation(hfr, "conv-m")) {
      catchThrowableOfType(OutcomeUnknownException.class, () -> send(hfr, ShopTools.SEND_MAIL, "mo@example.com"));
    }
    f.time.advance(Duration.ofSeconds(90).toNanos());
    assertThat(f.registry.get("harness.inbox.waiting").gauge().value()).isEqualTo(1.0);
    assertThat(f.registry.get("harness.inbox.oldest.age").gauge().value()).isEqualTo(90.0);
  }
}
