package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.StepScope;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.KeyInUseException;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * One owner per write, through the engine: only the call that created a write's record, or took it over
 * under its own lease, sends; everything else is answered from the ledger or refused as {@code
 * key_in_use} — never {@code controller_failure} — and every exit path releases the lease it held.
 */
@DisplayName("One owner per write, through the engine")
class WriteOwnershipTest {

  private final Fixtures f = new Fixtures();
  private final ToolDescriptor order = Fixtures.queryableWrite();

  private String keyOf(String task, String sku) {
    return IdempotencyKeys.key("acme", task, order.name(), List.of(sku), 0);
  }

  @Test
  @DisplayName("a PREPARED record another live holder leases ends key_in_use naming the holder and its time left, not controller_failure")
  void liveHolderIsKeyInUse() {
    String key = keyOf("t", "sku-1");
    f.ledger.prepare("acme", key, order.name(), IdempotencyKeys.argsHash(List.of("sku-1")));
    Lease other = f.ledger.acquireLease("acme", key, "other-worker", Duration.ofMinutes(5)).orElseThrow();
    Hfr hfr = f.engine();
    ScriptedTool<String> call = new ScriptedTool<String>("sku-1").returns("order-1");

    ToolCallException e;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(order, call));
    }

    assertThat(e.outcome().reason()).isEqualTo(Reason.KEY_IN_USE.code());
    assertThat(e.getCause()).isInstanceOf(KeyInUseException.class).hasMessageContaining("other-worker").hasMessageContaining(" ms");
    assertThat(((KeyInUseException) e.getCause()).holder()).isEqualTo(other);
    assertThat(call.methodCalls).as("never sent").isZero();
    assertThat(f.ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.PREPARED);
    assertThat(f.registry.find("harness.controller.failures").counters()).allMatch(c -> c.count() == 0);
  }

  @Test
  @DisplayName("a committed record is answered from the ledger (through reconcile) even while a dead holder's lease is live")
  void committedIsAnsweredWithoutALease() {
    String key = keyOf("t", "sku-2");
    f.ledger.prepare("acme", key, order.name(), IdempotencyKeys.argsHash(List.of("sku-2")));
    f.ledger.transition("acme", key, LedgerState.PREPARED, LedgerState.COMMITTED, IdempotencyKeys.resultHash("order-2"), 0);
    // A commit ends its writer's lease; a holder that leased the committed key afterwards (a compensation) died.
    Lease dead = f.ledger.acquireLease("acme", key, "dead-worker", Duration.ofMinutes(5)).orElseThrow();
    Hfr hfr = f.engine();
    ScriptedTool<String> call = new ScriptedTool<String>("sku-2").returns("order-again").reconcileFinds("order-2");

    String result;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      result = hfr.execute(order, call);
    }

    assertThat(result).isEqualTo("order-2");
    assertThat(call.methodCalls).as("never sent").isZero();
    assertThat(f.ledger.currentLease("acme", key)).contains(dead);
  }

  @Test
  @DisplayName("a FAILED record is taken over under a lease, prepared again, and ends COMMITTED when the resend succeeds")
  void failedRecordIsTakenOverAndSettled() {
    String key = keyOf("t", "sku-3");
    f.ledger.prepare("acme", key, order.name(), IdempotencyKeys.argsHash(List.of("sku-3")));
    f.ledger.transition("acme", key, LedgerState.PREPARED, LedgerState.FAILED, null, 0);
    Hfr hfr = f.engine();
    ScriptedTool<String> call = new ScriptedTool<String>("sku-3").returns("order-3");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      assertThat(hfr.execute(order, call)).isEqualTo("order-3");
    }

    assertThat(call.methodCalls).isEqualTo(1);
    assertThat(f.ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    assertThat(f.ledger.currentLease("acme", key)).as("released").isEmpty();
  }

  @Test
  @DisplayName("a call whose lease lapsed and was taken over mid-call ends key_in_use, and its late checkpoint is refused")
  void lapsedLeaseEndsKeyInUse() {
    Hfr hfr = f.builder().leaseTtl(Duration.ofSeconds(1)).build();
    String key = keyOf("t", "sku-4");
    ScriptedTool<String> call = new ScriptedTool<String>("sku-4") {
      @Override
      public String proceed(String idempotencyKey) throws Exception {
        f.time.advance(Duration.ofSeconds(30).toNanos()); // a stop-the-world pause longer than the lease
        f.ledger.acquireLease("acme", key, "new-holder", Duration.ofMinutes(1)).orElseThrow();
        return super.proceed(idempotencyKey);
      }
    }.returns("order-4");

    ToolCallException e;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(order, call));
    }

    assertThat(e.outcome().reason()).isEqualTo(Reason.KEY_IN_USE.code());
    assertThat(f.ledger.find("acme", key).orElseThrow().state()).as("the new holder reconciles it").isEqualTo(LedgerState.PREPARED);
    assertThat(f.ledger.currentLease("acme", key).orElseThrow().owner()).isEqualTo("new-holder");
  }

  @Test
  @DisplayName("a controller failure releases the lease the call held")
  void controllerFailureReleasesTheLease() {
    Hfr hfr = f.builder().ledger(new FailingTransitionsLedger(f.ledger)).build();
    ScriptedTool<String> call = new ScriptedTool<String>("sku-5").returns("order-5");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(order, call));
      assertThat(e.outcome().reason()).isEqualTo(Reason.CONTROLLER_FAILURE.code());
    }

    assertThat(f.ledger.currentLease("acme", keyOf("t", "sku-5"))).isEmpty();
  }

  @Test
  @DisplayName("keys number logical writes of (tool, arguments): a re-run with an extra read and two writes swapped finds "
      + "both records, and an equal write repeated in the task is the same write, answered from the ledger")
  void occurrenceKeysSurviveReplanning() {
    Hfr hfr = f.engine();
    ToolDescriptor search = Fixtures.read("search");
    ScriptedTool<String> a1 = new ScriptedTool<String>("sku-a").returns("order-a");
    ScriptedTool<String> b1 = new ScriptedTool<String>("sku-b").returns("order-b");
    ScriptedTool<String> a2 = new ScriptedTool<String>("sku-a").returns("order-a-again");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "plan").build())) {
      hfr.execute(order, a1);
      hfr.execute(order, b1);
      // The same order again (a model calling the tool again): the same write, not a second one.
      assertThat(hfr.execute(order, a2)).isEqualTo("order-a");
    }

    ScriptedTool<String> b = new ScriptedTool<String>("sku-b").returns("dup-b").reconcileFinds("order-b");
    ScriptedTool<String> a = new ScriptedTool<String>("sku-a").returns("dup-a").reconcileFinds("order-a");
    ScriptedTool<String> aa = new ScriptedTool<String>("sku-a").returns("dup-a2").reconcileFinds("order-a");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "plan").build())) {
      hfr.execute(search, new ScriptedTool<String>("anything").returns("3 results"));
      hfr.execute(order, b);
      hfr.execute(order, a);
      assertThat(hfr.execute(order, aa)).isEqualTo("order-a");
    }

    assertThat(a2.methodCalls + b.methodCalls + a.methodCalls + aa.methodCalls).as("writes sent again").isZero();
    assertThat(List.of(keyOf("plan", "sku-a"), keyOf("plan", "sku-b")))
        .allSatisfy(k -> assertThat(f.ledger.find("acme", k).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED));
    assertThat(f.ledger.size()).as("no record beyond the two writes").isEqualTo(2);
  }

  @Test
  @DisplayName("a step id the agent names replaces the occurrence: the same step id finds the same record")
  void explicitStepIds() {
    Hfr hfr = f.engine();
    ScriptedTool<String> first = new ScriptedTool<String>("sku-s").returns("order-s");
    ScriptedTool<String> again = new ScriptedTool<String>("sku-s").returns("dup-s").reconcileFinds("order-s");
    ScriptedTool<String> other = new ScriptedTool<String>("sku-s").returns("order-s-2");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "steps").build())) {
      try (StepScope s = task.step("buy-1")) {
        hfr.execute(order, first);
      }
      try (StepScope s = task.step("buy-1")) {
        hfr.execute(order, again);
      }
      try (StepScope s = task.step("buy-2")) {
        hfr.execute(order, other);
      }
    }

    assertThat(again.methodCalls).isZero();
    assertThat(other.methodCalls).isEqualTo(1);
    assertThat(f.ledger.find("acme", IdempotencyKeys.keyForStep("acme", "steps", "buy-1", order.name(), List.of("sku-s")))).isPresent();
    assertThat(f.ledger.size()).isEqualTo(2);
  }

  @Test
  @DisplayName("a record written by version 1 (keyed by the global step) is found under its own key and not sent again")
  void legacyStepKeysAreRead() {
    String legacy = IdempotencyKeys.legacyStepKey("acme", "old", 2, order.name(), List.of("sku-old"));
    f.ledger.prepare("acme", legacy, order.name(), IdempotencyKeys.argsHash(List.of("sku-old")));
    f.ledger.transition("acme", legacy, LedgerState.PREPARED, LedgerState.COMMITTED, IdempotencyKeys.resultHash("order-old"), 0);
    Hfr hfr = f.engine();
    ToolDescriptor search = Fixtures.read("search");
    ScriptedTool<String> replay = new ScriptedTool<String>("sku-old").returns("dup").reconcileFinds("order-old");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "old").build())) {
      hfr.execute(search, new ScriptedTool<String>("q").returns("r")); // step 1, as in the old run
      assertThat(hfr.execute(order, replay)).isEqualTo("order-old"); // step 2
    }

    assertThat(replay.methodCalls).isZero();
    assertThat(f.ledger.find("acme", keyOf("old", "sku-old"))).as("no second record under the new key").isEmpty();
  }

  @Test
  @DisplayName("two threads of one engine compensating the same write at once: the compensation runs once")
  void concurrentCompensationsRunOnce() throws Exception {
    Hfr hfr = f.engine();
    ToolDescriptor undoable = ToolDescriptor.builder("com.acme.Orders", "createOrder", dev.hfr.annotations.Risk.R2)
        .parameters("sku").reconcile("findOrder").compensate("cancelOrder").resultType(String.class).build();
    java.util.concurrent.atomic.AtomicInteger cancels = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    class Order extends ScriptedTool<String> {
      Order() {
        super("sku-c");
        returns("order-c");
      }

      @Override
      public void compensate() throws Exception {
        cancels.incrementAndGet();
        inside.countDown();
        release.await(5, java.util.concurrent.TimeUnit.SECONDS);
      }
    }
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "undo").build())) {
      hfr.execute(undoable, new Order());
    }

    java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      var first = two.submit(() -> hfr.compensate("acme", "undo", 0, undoable, new Order()));
      assertThat(inside.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      var second = two.submit(() -> hfr.compensate("acme", "undo", 0, undoable, new Order()));
      Throwable refused = catchThrowableOfType(java.util.concurrent.ExecutionException.class,
          () -> second.get(5, java.util.concurrent.TimeUnit.SECONDS)).getCause();
      release.countDown();
      first.get(5, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(refused).isInstanceOf(dev.hfr.runtime.CompensationException.class)
          .satisfies(e -> assertThat(((dev.hfr.runtime.CompensationException) e).reason()).isEqualTo(Reason.KEY_IN_USE));
    } finally {
      release.countDown();
      two.shutdownNow();
    }
    assertThat(cancels).hasValue(1);
  }

  @Test
  @DisplayName("a call that runs three times its lease keeps its key: the heartbeat renews it, and a second caller waits for its outcome")
  void heartbeatKeepsALongCallsKey() throws Exception {
    dev.hfr.runtime.ledger.InMemoryLedger ledger = new dev.hfr.runtime.ledger.InMemoryLedger(); // system time: the heartbeat is real
    Hfr hfr = Hfr.builder().ledger(ledger).decisionSink(e -> { }).leaseTtl(Duration.ofMillis(600)).build();
    java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch sending = new java.util.concurrent.CountDownLatch(1);
    class SlowOrder extends ScriptedTool<String> {
      SlowOrder() {
        super("sku-slow");
      }

      @Override
      public String proceed(String key) throws Exception {
        sent.incrementAndGet();
        sending.countDown();
        Thread.sleep(1_800); // three lease TTLs
        return "order-slow";
      }

      @Override
      public java.util.Optional<String> reconcile() {
        return sent.get() > 0 ? java.util.Optional.of("order-slow") : java.util.Optional.empty();
      }
    }
    java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.concurrent.Callable<String> run = () -> {
        try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "slow").build())) {
          return hfr.execute(order, new SlowOrder());
        }
      };
      var first = two.submit(run);
      assertThat(sending.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      var second = two.submit(run);

      assertThat(first.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("order-slow");
      assertThat(second.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("order-slow");
    } finally {
      two.shutdownNow();
      hfr.close();
    }
    assertThat(sent).as("sent once; the waiter was answered from the ledger").hasValue(1);
    assertThat(ledger.find("acme", keyOf("slow", "sku-slow")).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
  }
}
