package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.CommittedWrite;
import dev.hfr.runtime.Compensation;
import dev.hfr.runtime.CompensationException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.ledger.CompensationKeys;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.LedgerStorageException;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("Compensation of committed writes (§4.5 step 4, Table 6's COMPENSATED)")
class CompensationTest {

  private final Fixtures f = new Fixtures();
  private final ShopService shop = newShop();

  @AfterEach
  void stopShop() {
    shop.close();
  }

  private static ShopService newShop() {
    try {
      return new ShopService();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The state of tenant acme's ledger record under {@code key}. */
  private LedgerState stateOf(String key) {
    return f.ledger.find("acme", key).orElseThrow().state();
  }

  private double compensations(String tool, String outcome) {
    var counter = f.registry.find("harness.compensations").tag("tool", tool).tag("outcome", outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  private List<DecisionEvent> compensationEvents() {
    return f.sink.events.stream()
        .filter(e -> e.action() == Action.COMPENSATE || e.reason().code().contains("compensa")).toList();
  }

  @Nested
  @DisplayName("of one write")
  class OneWrite {

    @Test
    @DisplayName("runs the compensate method once, commits the compensation under its own key, then marks the write COMPENSATED")
    void compensatesACommittedWrite() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "checkout-1").build())) {
        assertThat(hfr.execute(ShopTools.CREATE_ORDER, order)).isEqualTo("ord-1");
        CommittedWrite write = task.committedWrites().get(0);
        assertThat(write.tool()).isEqualTo("Orders.createOrder");
        assertThat(write.state()).isEqualTo(LedgerState.COMMITTED);
        assertThat(write.compensable()).isTrue();
        String resultHash = f.ledger.find("acme", write.ledgerKey()).orElseThrow().resultHash();

        Compensation done = task.compensate(write.ledgerKey());

        assertThat(done.tool()).isEqualTo("Orders.createOrder");
        assertThat(done.compensateMethod()).isEqualTo("cancelOrder");
        assertThat(done.alreadyApplied()).isFalse();
        assertThat(done.compensationKey()).isEqualTo(CompensationKeys.of(write.ledgerKey())).isNotEqualTo(write.ledgerKey());
        assertThat(shop.cancelsByRef).containsEntry("ref-1", 1);
        LedgerRecord original = f.ledger.find("acme", write.ledgerKey()).orElseThrow();
        assertThat(original.state()).isEqualTo(LedgerState.COMPENSATED);
        assertThat(original.resultHash()).as("the committed result's evidence is kept").isEqualTo(resultHash);
        LedgerRecord compensation = f.ledger.find("acme", done.compensationKey()).orElseThrow();
        assertThat(compensation.state()).isEqualTo(LedgerState.COMMITTED);
        assertThat(compensation.tool()).isEqualTo("Orders.cancelOrder");
        assertThat(compensation.argsHash()).isEqualTo(original.argsHash());
        assertThat(task.committedWrites()).singleElement().satisfies(w -> assertThat(w.state()).isEqualTo(LedgerState.COMPENSATED));
      }
      assertThat(compensationEvents()).singleElement().satisfies(e -> {
        assertThat(e.action()).isEqualTo(Action.COMPENSATE);
        assertThat(e.reason()).isEqualTo(Reason.COMPENSATED);
        assertThat(e.tool()).isEqualTo("Orders.createOrder");
        assertThat(e.taskId()).isEqualTo("checkout-1");
        assertThat(e.step()).isEqualTo(1);
        assertThat(e.ledgerState()).isEqualTo("COMPENSATED");
      });
      assertThat(compensations("Orders.createOrder", "compensated")).isEqualTo(1.0);
      assertThat(f.registry.get("harness.decisions").tag("tool", "Orders.createOrder").tag("action", "compensate").counter().count())
          .isEqualTo(1.0);
    }

    @Test
    @DisplayName("refuses a second request for the same write, naming tool, key and COMPENSATED, and runs nothing")
    void secondRequestIsRefused() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, order);
        String key = task.committedWrites().get(0).ledgerKey();
        task.compensate(key);

        CompensationException e = catchThrowableOfType(CompensationException.class, () -> task.compensate(key));

        assertThat(e).hasMessageContaining("Orders.createOrder").hasMessageContaining(key).hasMessageContaining("COMPENSATED");
        assertThat(e.reason()).isEqualTo(Reason.NOT_COMPENSABLE);
        assertThat(e.ledgerState()).isEqualTo(LedgerState.COMPENSATED);
        assertThat(e.retryable()).isFalse();
      }
      assertThat(order.cancels).hasValue(1);
      assertThat(shop.cancelsByRef).containsEntry("ref-1", 1);
      assertThat(compensations("Orders.createOrder", "refused")).isEqualTo(1.0);
    }

    @Test
    @DisplayName("finishes an interrupted request without running the compensation again (its own key is COMMITTED)")
    void interruptedRequestIsNotAppliedTwice() {
      // The first request commits the compensation, then the ledger fails before the write is marked.
      AtomicBoolean failMarking = new AtomicBoolean(true);
      IdempotencyLedger flaky = new ForwardingLedger(f.ledger) {
        @Override
        public LedgerRecord transition(String tenant, String key, LedgerState expected, LedgerState target, String resultHash,
            long fencingToken) {
          if (target == LedgerState.COMPENSATED && failMarking.getAndSet(false)) {
            throw new LedgerStorageException("ledger volume went read-only");
          }
          return super.transition(tenant, key, expected, target, resultHash, fencingToken);
        }
      };
      Hfr hfr = f.builder().ledger(flaky).build();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, order);
        String key = task.committedWrites().get(0).ledgerKey();
        assertThat(catchThrowableOfType(LedgerStorageException.class, () -> task.compensate(key))).isNotNull();
        assertThat(stateOf(key)).isEqualTo(LedgerState.COMMITTED);
        assertThat(stateOf(CompensationKeys.of(key))).isEqualTo(LedgerState.COMMITTED);

        Compensation retried = task.compensate(key);

        assertThat(retried.alreadyApplied()).isTrue();
        assertThat(stateOf(key)).isEqualTo(LedgerState.COMPENSATED);
      }
      assertThat(order.cancels).as("the compensate method ran once").hasValue(1);
      assertThat(shop.cancelsByRef).containsEntry("ref-1", 1);
    }

    @Test
    @DisplayName("refuses a tool without a compensate method and leaves its record COMMITTED")
    void refusesWithoutCompensateMethod() {
      Hfr hfr = f.engine();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.SEND_MAIL, new ShopTools.SendMail(shop, "ann@example.com"));
        CommittedWrite mail = task.committedWrites().get(0);
        assertThat(mail.compensable()).isFalse();

        CompensationException e = catchThrowableOfType(CompensationException.class, () -> task.compensate(mail.ledgerKey()));

        assertThat(e).hasMessageContaining("Mail.send").hasMessageContaining(mail.ledgerKey()).hasMessageContaining("COMMITTED")
            .hasMessageContaining("declares no compensate method");
        assertThat(e.reason()).isEqualTo(Reason.NOT_COMPENSABLE);
        assertThat(stateOf(mail.ledgerKey())).isEqualTo(LedgerState.COMMITTED);
      }
      assertThat(compensationEvents()).singleElement().satisfies(ev -> {
        assertThat(ev.action()).isEqualTo(Action.FAIL);
        assertThat(ev.reason()).isEqualTo(Reason.NOT_COMPENSABLE);
        assertThat(ev.ledgerState()).isEqualTo("COMMITTED");
      });
      assertThat(compensations("Mail.send", "refused")).isEqualTo(1.0);
    }

    @Test
    @DisplayName("refuses a write whose outcome is UNKNOWN: it must be reconciled first, never compensated blind")
    void refusesAnUnknownWrite() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-9");
      String key;
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        // The order commits but its answer never arrives, and the look-up fails too: the record stays UNKNOWN.
        shop.inject("/orders", ShopService.Fault.COMMIT_THEN_HANG, ShopService.Fault.BAD_REQUEST);
        ToolCallException failed = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(ShopTools.CREATE_ORDER, order));
        assertThat(failed.outcome().reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());
        assertThat(task.committedWrites()).isEmpty();
        key = f.sink.events.get(0).ledgerKey();
      }
      CompensationException e = catchThrowableOfType(CompensationException.class,
          () -> hfr.compensate("acme", "t", 0, ShopTools.CREATE_ORDER, new ShopTools.CreateOrder(shop, "ref-9")));
      assertThat(e).hasMessageContaining("Orders.createOrder").hasMessageContaining(key).hasMessageContaining("UNKNOWN")
          .hasMessageContaining("reconcile it first");
      assertThat(e.ledgerState()).isEqualTo(LedgerState.UNKNOWN);
      assertThat(shop.cancelsByRef).isEmpty();
    }

    @Test
    @DisplayName("refuses a key that is not a committed write of the task")
    void refusesAForeignKey() {
      Hfr hfr = f.engine();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        CompensationException e = catchThrowableOfType(CompensationException.class, () -> task.compensate("f00d"));
        assertThat(e).hasMessageContaining("f00d").hasMessageContaining("state none").hasMessageContaining("task t");
        assertThat(e.ledgerState()).isNull();
      }
    }

    @Test
    @DisplayName("refuses while another recoverer holds the write's lease, and succeeds once it is released")
    void refusesAKeyInUse() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, order);
        String key = task.committedWrites().get(0).ledgerKey();
        Lease held = f.ledger.acquireLease("acme", key, "another-jvm", Duration.ofMinutes(1)).orElseThrow();

        CompensationException e = catchThrowableOfType(CompensationException.class, () -> task.compensate(key));

        assertThat(e.reason()).isEqualTo(Reason.KEY_IN_USE);
        assertThat(e.retryable()).isTrue();
        assertThat(order.cancels).hasValue(0);
        f.ledger.releaseLease(held);
        assertThat(task.compensate(key).alreadyApplied()).isFalse();
      }
      assertThat(order.cancels).hasValue(1);
    }
  }

  @Nested
  @DisplayName("when the compensation itself fails")
  class CompensationFails {

    @Test
    @DisplayName("a refusal that proves nothing was undone (429) marks the compensation FAILED; asking again runs it again")
    void refusedCompensationMayRunAgain() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, order);
        String key = task.committedWrites().get(0).ledgerKey();
        shop.inject("/orders/cancel", ShopService.Fault.RATE_LIMITED);

        CompensationException e = catchThrowableOfType(CompensationException.class, () -> task.compensate(key));

        assertThat(e.reason()).isEqualTo(Reason.COMPENSATION_FAILED);
        assertThat(e.retryable()).isTrue();
        assertThat(e).hasMessageContaining("T2").hasMessageContaining("stays COMMITTED");
        assertThat(stateOf(CompensationKeys.of(key))).isEqualTo(LedgerState.FAILED);
        assertThat(stateOf(key)).isEqualTo(LedgerState.COMMITTED);

        assertThat(task.compensate(key).alreadyApplied()).isFalse();
        assertThat(stateOf(key)).isEqualTo(LedgerState.COMPENSATED);
      }
      assertThat(order.cancels).hasValue(2);
      assertThat(shop.cancelsByRef).as("the refused attempt applied nothing").containsEntry("ref-1", 1);
      assertThat(compensations("Orders.createOrder", "failed")).isEqualTo(1.0);
      assertThat(compensations("Orders.createOrder", "compensated")).isEqualTo(1.0);
    }

    @Test
    @DisplayName("an unknown outcome (timeout) leaves the compensation UNKNOWN, escalates it, and never re-runs it")
    void unknownCompensationIsNeverRerun() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, order);
        String key = task.committedWrites().get(0).ledgerKey();
        shop.inject("/orders/cancel", ShopService.Fault.COMMIT_THEN_HANG);

        CompensationException first = catchThrowableOfType(CompensationException.class, () -> task.compensate(key));
        CompensationException second = catchThrowableOfType(CompensationException.class, () -> task.compensate(key));

        for (CompensationException e : List.of(first, second)) {
          assertThat(e.reason()).isEqualTo(Reason.COMPENSATION_UNKNOWN);
          assertThat(e.retryable()).isFalse();
          assertThat(e).hasMessageContaining("Orders.createOrder").hasMessageContaining(key).hasMessageContaining("not run again");
        }
        assertThat(stateOf(CompensationKeys.of(key))).isEqualTo(LedgerState.UNKNOWN);
        assertThat(stateOf(key)).isEqualTo(LedgerState.COMMITTED);
      }
      assertThat(order.cancels).as("the second request did not run it").hasValue(1);
      List<EvidenceBundle> escalated = f.escalations.drain();
      assertThat(escalated).hasSize(2).allSatisfy(b -> {
        assertThat(b.reason()).isEqualTo(Reason.COMPENSATION_UNKNOWN);
        assertThat(b.tool()).isEqualTo("Orders.createOrder");
        assertThat(b.suggestion()).contains("Orders.cancelOrder");
      });
      assertThat(escalated.get(0).lastException()).isEqualTo("java.net.http.HttpTimeoutException");
      assertThat(compensations("Orders.createOrder", "unknown")).isEqualTo(2.0);
    }
  }

  @Nested
  @DisplayName("of a whole task (saga rollback)")
  class WholeTask {

    @Test
    @DisplayName("undoes every committed write, the last first")
    void reverseOrder() {
      Hfr hfr = f.engine();
      ShopTools.Charge charge = new ShopTools.Charge(shop, "pay-1", 2900);
      ShopTools.CreateOrder first = new ShopTools.CreateOrder(shop, "ref-1");
      ShopTools.CreateOrder second = new ShopTools.CreateOrder(shop, "ref-2");
      List<Compensation> undone;
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, first);
        hfr.execute(ShopTools.CHARGE, charge);
        hfr.execute(ShopTools.CREATE_ORDER, second);
        hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("lamp").returns("hits"));
        assertThat(task.committedWrites()).extracting(CommittedWrite::step).containsExactly(1L, 2L, 3L);

        undone = task.compensateAll();

        assertThat(task.committedWrites()).allSatisfy(w -> assertThat(w.state()).isEqualTo(LedgerState.COMPENSATED));
      }
      assertThat(undone).extracting(Compensation::step).containsExactly(3L, 2L, 1L);
      assertThat(undone).extracting(Compensation::compensateMethod).containsExactly("cancelOrder", "refund", "cancelOrder");
      assertThat(shop.refundsByRef).containsEntry("pay-1", 1);
      assertThat(shop.cancelsByRef).containsEntry("ref-1", 1).containsEntry("ref-2", 1);
      assertThat(compensationEvents()).extracting(DecisionEvent::step).containsExactly(3L, 2L, 1L);
    }

    @Test
    @DisplayName("refuses before undoing anything when one write cannot be compensated")
    void refusesUpFront() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-1");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, order);
        hfr.execute(ShopTools.SEND_MAIL, new ShopTools.SendMail(shop, "ann@example.com"));

        CompensationException e = catchThrowableOfType(CompensationException.class, task::compensateAll);

        assertThat(e.tool()).isEqualTo("Mail.send");
        assertThat(task.committedWrites()).extracting(CommittedWrite::state).containsOnly(LedgerState.COMMITTED);
      }
      assertThat(order.cancels).hasValue(0);
    }

    @Test
    @DisplayName("resumes a rollback that stopped on a failed compensation, skipping what it already undid")
    void resumesAfterAFailure() {
      Hfr hfr = f.engine();
      ShopTools.CreateOrder first = new ShopTools.CreateOrder(shop, "ref-1");
      ShopTools.Charge charge = new ShopTools.Charge(shop, "pay-1", 2900);
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(ShopTools.CREATE_ORDER, first);
        hfr.execute(ShopTools.CHARGE, charge);
        shop.inject("/orders/cancel", ShopService.Fault.RATE_LIMITED);

        CompensationException e = catchThrowableOfType(CompensationException.class, task::compensateAll);
        assertThat(e.reason()).isEqualTo(Reason.COMPENSATION_FAILED);
        assertThat(task.committedWrites()).extracting(CommittedWrite::state)
            .containsExactly(LedgerState.COMMITTED, LedgerState.COMPENSATED);

        assertThat(task.compensateAll()).extracting(Compensation::tool).containsExactly("Orders.createOrder");
      }
      assertThat(charge.refunds).hasValue(1);
      assertThat(shop.refundsByRef).containsEntry("pay-1", 1);
      assertThat(shop.cancelsByRef).containsEntry("ref-1", 1);
    }
  }

  @Nested
  @DisplayName("outside the task")
  class OutsideTheTask {

    @Test
    @DisplayName("compensates after a restart on the embedded file ledger, from the call's arguments")
    void afterRestart(@TempDir Path dir) {
      LedgerOptions options = LedgerOptions.defaults().withClock(f.time).withForcePolicy(ForcePolicy.OS_BUFFERED);
      String key;
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options)) {
        Hfr first = f.builder().ledger(ledger).build();
        try (TaskScope task = first.openTask(TaskSpec.builder("acme", "order-42").build())) {
          first.execute(ShopTools.CHARGE, new ShopTools.Charge(shop, "pay-42", 1200));
          key = task.committedWrites().get(0).ledgerKey();
        }
      }
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options)) {
        Hfr restarted = f.builder().ledger(ledger).build();
        ShopTools.Charge sameCall = new ShopTools.Charge(shop, "pay-42", 1200);

        Compensation done = restarted.compensate("acme", "order-42", 0, ShopTools.CHARGE, sameCall);

        assertThat(done.ledgerKey()).isEqualTo(key);
        assertThat(done.step()).as("outside its task the call's step is not known").isEqualTo(Compensation.UNKNOWN_STEP);
        assertThat(sameCall.refunds).hasValue(1);
        CompensationException wrongArgs = catchThrowableOfType(CompensationException.class,
            () -> restarted.compensate("acme", "order-42", 0, ShopTools.CHARGE, new ShopTools.Charge(shop, "pay-42", 9999)));
        assertThat(wrongArgs).hasMessageContaining("holds no record");
        CompensationException otherTenant = catchThrowableOfType(CompensationException.class,
            () -> restarted.compensate("globex", "order-42", 0, ShopTools.CHARGE, new ShopTools.Charge(shop, "pay-42", 1200)));
        assertThat(otherTenant).hasMessageContaining("tenant globex holds no record");
      }
      try (EmbeddedFileLedger reopened = EmbeddedFileLedger.open(dir, options)) {
        assertThat(reopened.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.COMPENSATED);
        assertThat(reopened.find("acme", CompensationKeys.of(key)).orElseThrow())
            .satisfies(r -> assertThat(r.state()).isEqualTo(LedgerState.COMMITTED))
            .satisfies(r -> assertThat(r.tool()).isEqualTo("Payments.refund"));
      }
      assertThat(shop.chargesByRef).containsEntry("pay-42", 1);
      assertThat(shop.refundsByRef).containsEntry("pay-42", 1);
    }

    @Test
    @DisplayName("a compensation whose process died mid-call is escalated after the restart, never run again")
    void crashDuringCompensation(@TempDir Path dir) {
      LedgerOptions options = LedgerOptions.defaults().withClock(f.time).withForcePolicy(ForcePolicy.OS_BUFFERED);
      String key;
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options)) {
        Hfr first = f.builder().ledger(ledger).build();
        ShopTools.CreateOrder order = new ShopTools.CreateOrder(shop, "ref-5");
        try (TaskScope task = first.openTask(TaskSpec.builder("acme", "t").build())) {
          first.execute(ShopTools.CREATE_ORDER, order);
          key = task.committedWrites().get(0).ledgerKey();
          order.crashAfterCancel = true;
          assertThat(catchThrowableOfType(ShopTools.SimulatedCrash.class, () -> task.compensate(key))).isNotNull();
        }
      }
      f.time.advance(Duration.ofMinutes(6).toNanos());
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options)) {
        assertThat(ledger.find("acme", CompensationKeys.of(key)).orElseThrow().state()).isEqualTo(LedgerState.PREPARED);
        Hfr restarted = f.builder().ledger(ledger).build();   // crash resume: the compensation becomes UNKNOWN
        assertThat(ledger.find("acme", CompensationKeys.of(key)).orElseThrow().state()).isEqualTo(LedgerState.UNKNOWN);
        ShopTools.CreateOrder sameCall = new ShopTools.CreateOrder(shop, "ref-5");

        CompensationException e = catchThrowableOfType(CompensationException.class,
            () -> restarted.compensate("acme", "t", 0, ShopTools.CREATE_ORDER, sameCall));

        assertThat(e.reason()).isEqualTo(Reason.COMPENSATION_UNKNOWN);
        assertThat(e).hasMessageContaining("Orders.createOrder").hasMessageContaining(key).hasMessageContaining("COMMITTED");
        assertThat(sameCall.cancels).hasValue(0);
        assertThat(ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
      }
      assertThat(shop.cancelsByRef).containsEntry("ref-5", 1);
      assertThat(f.escalations.drain()).singleElement().satisfies(b -> assertThat(b.reason()).isEqualTo(Reason.COMPENSATION_UNKNOWN));
    }

    @Test
    @DisplayName("refuses an invocation that does not implement the compensate hook, and runs nothing")
    void invocationWithoutHook() {
      Hfr hfr = f.engine();
      ToolDescriptor pay = ToolDescriptor.builder("com.acme.Payments", "pay", dev.hfr.annotations.Risk.R1)
          .parameters("amount", "key").idempotencyKeyParameter(1).compensate("refund").resultType(String.class).build();
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
        hfr.execute(pay, new ScriptedTool<String>(100, null).returns("rcpt"));
        String key = task.committedWrites().get(0).ledgerKey();
        CompensationException e = catchThrowableOfType(CompensationException.class, () -> task.compensate(key));
        assertThat(e).hasMessageContaining("does not implement compensate()");
        assertThat(stateOf(CompensationKeys.of(key))).isEqualTo(LedgerState.FAILED);
        assertThat(stateOf(key)).isEqualTo(LedgerState.COMMITTED);
      }
    }
  }
}
