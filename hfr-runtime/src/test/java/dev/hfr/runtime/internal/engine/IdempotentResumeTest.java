package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.Compensation;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash resume of idempotent writes (Table 7: an R1 write is resent with the same idempotency key; the
 * provider deduplicates on the key). The "crash" is the process dying inside the call after the service
 * committed: the engine never sees an answer, the ledger record is left PREPARED under a lease, and the
 * next engine on the same embedded ledger file starts from there.
 */
@DisplayName("Crash resume of an R1 write without a reconcile method")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class IdempotentResumeTest {

  private final Fixtures f = new Fixtures();
  private final ShopService shop;
  @TempDir
  Path dir;

  IdempotentResumeTest() throws IOException {
    shop = new ShopService();
  }

  @AfterEach
  void stopShop() {
    shop.close();
  }

  private LedgerOptions options() {
    return LedgerOptions.defaults().withClock(f.time).withForcePolicy(ForcePolicy.OS_BUFFERED);
  }

  /** Runs a first engine on the ledger file until it "dies" inside {@code call}, after the service answered. */
  private void crashInside(Consumer<Hfr> call) {
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options())) {
      Hfr first = f.builder().ledger(ledger).build();
      try (TaskScope task = first.openTask(TaskSpec.builder("acme", "order-7").build())) {
        assertThat(catchThrowableOfType(ShopTools.SimulatedCrash.class, () -> call.accept(first))).isNotNull();
      }
    }
    // The dead writer's lease runs out before anyone looks again.
    f.time.advance(Duration.ofMinutes(6).toNanos());
  }

  private List<DecisionEvent> decisions(Reason reason) {
    return f.sink.events.stream().filter(e -> e.reason() == reason).toList();
  }

  @Test
  @DisplayName("resends under the same key after a restart, charges once, and records RESEND_SAME_KEY")
  void resendsUnderTheSameKey() {
    String key = IdempotencyKeys.key("acme", "order-7", "Payments.charge", List.of("pay-7", 4200L), 0);
    ShopTools.Charge dying = new ShopTools.Charge(shop, "pay-7", 4200);
    dying.crashAfterSend = true;
    crashInside(hfr -> hfr.execute(ShopTools.CHARGE, dying));
    assertThat(shop.chargesByRef).containsEntry("pay-7", 1);

    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options())) {
      assertThat(ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.PREPARED);
      Hfr restarted = f.builder().ledger(ledger).build();   // crash resume: PREPARED -> UNKNOWN
      assertThat(ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.UNKNOWN);

      ShopTools.Charge rerun = new ShopTools.Charge(shop, "pay-7", 4200);
      String receipt;
      ToolOutcome outcome;
      try (TaskScope task = restarted.openTask(TaskSpec.builder("acme", "order-7").build())) {
        receipt = restarted.execute(ShopTools.CHARGE, rerun);
        outcome = task.lastOutcome();
      }

      assertThat(receipt).isEqualTo(shop.paymentsByKey.get(key));
      assertThat(rerun.keysSent).containsExactly(key);
      assertThat(dying.keysSent).containsExactly(key);
      assertThat(outcome.status()).isEqualTo(ToolOutcome.Status.SUCCESS);
      assertThat(outcome.reason()).isEqualTo(Reason.RECONCILED_COMMITTED.code());
      assertThat(ledger.find("acme", key).orElseThrow()).satisfies(r -> {
        assertThat(r.state()).isEqualTo(LedgerState.RECONCILED_COMMITTED);
        assertThat(r.resultHash()).isEqualTo(IdempotencyKeys.resultHash(receipt));
      });
    }
    assertThat(shop.requests("/payments")).isEqualTo(2);
    assertThat(shop.chargesByRef).as("the provider deduplicated the resend").containsEntry("pay-7", 1);
    assertThat(decisions(Reason.RESEND_SAME_KEY)).singleElement().satisfies(e -> {
      assertThat(e.action()).isEqualTo(Action.RETRY);
      assertThat(e.ledgerKey()).isEqualTo(key);
      assertThat(e.ledgerState()).isEqualTo("UNKNOWN");
    });
    assertThat(f.escalations.size()).isZero();
    assertThat(f.registry.get("harness.reconcile").tag("tool", "Payments.charge").tag("outcome", "committed").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  @DisplayName("keeps resending under the same key through transient faults, then commits once")
  void resendThroughTransientFaults() {
    ShopTools.Charge dying = new ShopTools.Charge(shop, "pay-8", 100);
    dying.crashAfterSend = true;
    crashInside(hfr -> hfr.execute(ShopTools.CHARGE, dying));
    shop.inject("/payments", ShopService.Fault.RATE_LIMITED, ShopService.Fault.COMMIT_THEN_HANG);

    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options())) {
      Hfr restarted = f.builder().ledger(ledger).build();
      ShopTools.Charge rerun = new ShopTools.Charge(shop, "pay-8", 100);
      try (TaskScope task = restarted.openTask(TaskSpec.builder("acme", "order-7").build())) {
        assertThat(restarted.execute(ShopTools.CHARGE, rerun)).startsWith("rcpt-");
      }
      assertThat(rerun.keysSent).hasSize(3).containsOnly(dying.keysSent.get(0));
      String key = dying.keysSent.get(0);
      assertThat(ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.RECONCILED_COMMITTED);
    }
    assertThat(shop.chargesByRef).containsEntry("pay-8", 1);
    assertThat(f.sink.events).extracting(DecisionEvent::reason)
        .containsExactly(Reason.TIMEOUT_UNKNOWN_STATE, Reason.RESEND_SAME_KEY, Reason.RETRYABLE, Reason.RETRYABLE);
  }

  @Test
  @DisplayName("the resent write can then be compensated like any committed one")
  void resentWriteCanBeCompensated() {
    ShopTools.Charge dying = new ShopTools.Charge(shop, "pay-9", 500);
    dying.crashAfterSend = true;
    crashInside(hfr -> hfr.execute(ShopTools.CHARGE, dying));
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options())) {
      Hfr restarted = f.builder().ledger(ledger).build();
      ShopTools.Charge rerun = new ShopTools.Charge(shop, "pay-9", 500);
      try (TaskScope task = restarted.openTask(TaskSpec.builder("acme", "order-7").build())) {
        restarted.execute(ShopTools.CHARGE, rerun);
        assertThat(task.committedWrites()).singleElement()
            .satisfies(w -> assertThat(w.state()).isEqualTo(LedgerState.RECONCILED_COMMITTED));
        List<Compensation> undone = task.compensateAll();
        assertThat(undone).singleElement().satisfies(c -> assertThat(c.compensateMethod()).isEqualTo("refund"));
      }
      assertThat(ledger.find("acme", dying.keysSent.get(0)).orElseThrow().state()).isEqualTo(LedgerState.COMPENSATED);
    }
    assertThat(shop.chargesByRef).containsEntry("pay-9", 1);
    assertThat(shop.refundsByRef).containsEntry("pay-9", 1);
  }

  @Test
  @DisplayName("still never resends an R3 write of unknown outcome: it is escalated and the tool is not called")
  void irreversibleIsStillEscalated() {
    ShopTools.SendMail dying = new ShopTools.SendMail(shop, "ann@example.com");
    dying.crashAfterSend = true;
    crashInside(hfr -> hfr.execute(ShopTools.SEND_MAIL, dying));
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir, options())) {
      Hfr restarted = f.builder().ledger(ledger).build();
      ShopTools.SendMail rerun = new ShopTools.SendMail(shop, "ann@example.com");
      ToolCallException e;
      try (TaskScope task = restarted.openTask(TaskSpec.builder("acme", "order-7").build())) {
        e = catchThrowableOfType(ToolCallException.class, () -> restarted.execute(ShopTools.SEND_MAIL, rerun));
      }
      assertThat(rerun.sends).hasValue(0);
      assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
      assertThat(e.outcome().reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());
    }
    assertThat(shop.requests("/mail")).isEqualTo(1);
    assertThat(decisions(Reason.RESEND_SAME_KEY)).isEmpty();
  }

}
