package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.PendingTask;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.ledger.LedgerStorageException;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §5.4's task checkpoints through the engine: a task's start (with its spec) saved before its first write
 * or escalation, before an escalation (with the evidence) and at its close; {@code resumePending()} returns the tasks other engines
 * opened and never closed, with the spec to reopen them and their unfinished writes.
 */
@DisplayName("Task checkpoints and resumePending()")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class TaskCheckpointsTest {

  private final Fixtures f = new Fixtures();
  private final ShopService shop;

  TaskCheckpointsTest() throws IOException {
    shop = new ShopService();
  }

  @AfterEach
  void stopShop() {
    shop.close();
  }

  private static TaskSpec fullSpec(String taskId) {
    return TaskSpec.builder("acme", taskId)
        .criticality(Criticality.Level.HIGH)
        .deadline(Duration.ofSeconds(30))
        .qualityFloor(0.8)
        .limits(TaskLimits.builder().maxTurns(10).maxToolCalls(40).maxSameToolCalls(5).maxRetries(6).retryReserveForFinalStep(1)
            .maxWallTime(Duration.ofMinutes(1)).maxCost(2.5).maxWriteActions(4).build())
        .build();
  }

  /** One committed write of {@code task}'s (createOrder {@code ref}), made on this thread. */
  private String writeIn(Hfr hfr, TaskScope task, String ref) throws Exception {
    try (AutoCloseable bound = task.bindCurrentThread()) {
      return hfr.execute(ShopTools.CREATE_ORDER, new ShopTools.CreateOrder(shop, ref));
    }
  }

  /** One clean read in {@code task}. */
  private static void readIn(Hfr hfr, TaskScope task) throws Exception {
    try (AutoCloseable bound = task.bindCurrentThread()) {
      hfr.execute(Fixtures.read("lookup"), new ScriptedTool<String>("lamp").returns("hit"));
    }
  }

  @Test
  @DisplayName("a task another engine opened, wrote in and never closed is returned with its spec; closed tasks, read-only ones and this engine's own are not")
  void resumePendingReturnsCutOffTasks() throws Exception {
    Hfr first = f.engine();
    writeIn(first, first.newTask(fullSpec("cut-off")), "ref-1");             // never closed: its process "dies"
    writeIn(first, first.newTask(TaskSpec.builder("acme", "defaults").build()), "ref-2"); // never closed either, nothing set
    readIn(first, first.newTask(TaskSpec.builder("acme", "read-only").build())); // cut off too, but nothing to resume
    TaskScope finished = first.newTask(TaskSpec.builder("acme", "finished").build());
    writeIn(first, finished, "ref-3");
    finished.close();

    Hfr restarted = f.engine();
    writeIn(restarted, restarted.newTask(TaskSpec.builder("acme", "running-here").build()), "ref-4");
    List<PendingTask> pending = restarted.resumePending();

    assertThat(pending).extracting(PendingTask::taskId).containsExactly("cut-off", "defaults");
    PendingTask p = pending.get(0);
    TaskSpec spec = p.spec();
    assertThat(spec.tenant()).isEqualTo("acme");
    assertThat(spec.criticality()).isEqualTo(Criticality.Level.HIGH);
    assertThat(spec.deadline()).isEqualTo(Duration.ofSeconds(30));
    assertThat(spec.qualityFloor()).isEqualTo(0.8);
    assertThat(spec.limits()).hasToString(fullSpec("x").limits().toString());
    assertThat(p.phase()).isEqualTo(TaskCheckpoint.Phase.STARTED);
    assertThat(p.configVersion()).isEqualTo("defaults");
    assertThat(p.configChanged()).isFalse();
    assertThat(p.unfinishedWrites()).as("its write committed").isEmpty();
    TaskSpec plain = pending.get(1).spec();
    assertThat(plain.criticality()).isNull();
    assertThat(plain.deadline()).isNull();
    assertThat(plain.qualityFloor()).isNaN();
    assertThat(plain.limits()).isNull();
    assertThat(first.resumePending()).extracting(PendingTask::taskId)
        .as("not its own tasks (running there); another live engine's open task is listed (a task holds no lease)")
        .containsExactly("running-here");
  }

  @Test
  @DisplayName("a task is checkpointed at its first write, with the time it opened; one that only reads writes no checkpoint")
  void startSavedAtTheFirstWrite() throws Exception {
    Hfr hfr = f.engine();
    Instant opened = Instant.ofEpochMilli(f.time.epochMillis());
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "order-1").build())) {
      f.time.advance(Duration.ofSeconds(5).toNanos());
      readIn(hfr, task);
      assertThat(f.ledger.findCheckpoint("acme", "order-1")).as("reads leave nothing to resume").isEmpty();

      writeIn(hfr, task, "ref-1");

      assertThat(f.ledger.findCheckpoint("acme", "order-1")).hasValueSatisfying(cp -> {
        assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.STARTED);
        assertThat(cp.startedAt()).as("when the task opened").isEqualTo(opened);
        assertThat(cp.updatedAt()).isEqualTo(opened.plusSeconds(5));
      });
      assertThat(f.ledger.taskRecords("acme", "order-1")).hasSize(1);
    }
    assertThat(f.ledger.findCheckpoint("acme", "order-1")).hasValueSatisfying(cp ->
        assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.CLOSED));

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "lookup-only").build())) {
      readIn(hfr, task);
    }
    assertThat(f.ledger.findCheckpoint("acme", "lookup-only")).as("opened, read and closed: no ledger write").isEmpty();
  }

  @Test
  @DisplayName("checkpointTasksAtOpen(true): every task's start is saved at open, so one cut off before its first write is listed too")
  void checkpointsAtOpenOnRequest() throws Exception {
    Hfr first = f.builder().checkpointTasksAtOpen(true).build();
    first.newTask(TaskSpec.builder("acme", "opened-only").build());               // cut off before doing anything
    readIn(first, first.newTask(TaskSpec.builder("acme", "read-only").build()));  // cut off after a read
    assertThat(f.ledger.findCheckpoint("acme", "opened-only")).hasValueSatisfying(cp ->
        assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.STARTED));
    first.newTask(TaskSpec.builder("acme", "closed").build()).close();

    assertThat(f.engine().resumePending()).extracting(PendingTask::taskId).containsExactly("opened-only", "read-only");
    assertThat(f.ledger.findCheckpoint("acme", "closed")).hasValueSatisfying(cp ->
        assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.CLOSED));
  }

  @Test
  @DisplayName("a cut-off task reopened after resumePending() or a restart is closed in the ledger even if the new run only reads")
  void reopenedReadOnlyRunClosesTheTask() throws Exception {
    Hfr first = f.engine();
    writeIn(first, first.newTask(TaskSpec.builder("acme", "listed").build()), "ref-1");
    writeIn(first, first.newTask(TaskSpec.builder("acme", "redelivered").build()), "ref-2");

    Hfr restarted = f.engine(); // knows from the ledger, at start, which tasks were left open
    assertThat(restarted.resumePending()).extracting(PendingTask::taskId).containsExactly("listed", "redelivered");
    try (TaskScope task = restarted.openTask(TaskSpec.builder("acme", "listed").build())) {
      readIn(restarted, task);
    }
    try (TaskScope task = restarted.openTask(TaskSpec.builder("acme", "redelivered").build())) {
      readIn(restarted, task);
    }

    assertThat(f.engine().resumePending()).isEmpty();
    assertThat(f.ledger.findCheckpoint("acme", "listed")).hasValueSatisfying(cp ->
        assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.CLOSED));
  }

  @Test
  @DisplayName("two threads making a task's first writes at once: one start checkpoint, saved before either write's record")
  void concurrentFirstWrites() throws Exception {
    AtomicInteger starts = new AtomicInteger();
    AtomicInteger recordsBeforeStart = new AtomicInteger();
    ForwardingLedger counting = new ForwardingLedger(f.ledger) {
      @Override
      public Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint checkpoint) {
        if (checkpoint.phase() == TaskCheckpoint.Phase.STARTED) {
          starts.incrementAndGet();
          recordsBeforeStart.addAndGet(f.ledger.taskRecords(checkpoint.tenant(), checkpoint.taskId()).size());
        }
        return super.saveCheckpoint(checkpoint);
      }
    };
    Hfr hfr = f.builder().ledger(counting).build();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "parallel").limits(TaskLimits.unlimited()).build())) {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<String>> orders = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String ref = "ref-" + i;
        orders.add(pool.submit(TaskScope.wrap(() -> {
          go.await();
          return hfr.execute(ShopTools.CREATE_ORDER, new ShopTools.CreateOrder(shop, ref));
        })));
      }
      go.countDown();
      for (Future<String> order : orders) {
        assertThat(order.get(30, TimeUnit.SECONDS)).isNotBlank();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(starts).hasValue(1);
    assertThat(recordsBeforeStart).as("no write's record before the task's start").hasValue(0);
    assertThat(f.ledger.taskRecords("acme", "parallel")).hasSize(8);
    assertThat(f.ledger.findCheckpoint("acme", "parallel")).hasValueSatisfying(cp ->
        assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.CLOSED));
  }

  @Test
  @DisplayName("an escalation is checkpointed with its evidence before the handler hears of it; the close keeps it")
  void escalationCheckpointedFirst() {
    AtomicReference<Optional<TaskCheckpoint>> seenByHandler = new AtomicReference<>();
    Hfr hfr = f.builder().escalationHandler(e -> seenByHandler.set(f.ledger.findCheckpoint("acme", "mail-1"))).build();
    ToolInvocation<String> timesOut = new ToolInvocation<>() {
      @Override
      public String proceed(String key) throws Exception {
        throw Fixtures.timeout();
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return "ann@example.com";
      }
    };

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "mail-1").build())) {
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(ShopTools.SEND_MAIL, timesOut));
      assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    }

    assertThat(seenByHandler.get()).hasValueSatisfying(cp -> {
      assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.ESCALATED);
      assertThat(cp.evidence()).contains("tool=Mail.send", "risk=R3", "fault=T3", "ledger_state=UNKNOWN");
    });
    assertThat(f.ledger.findCheckpoint("acme", "mail-1")).hasValueSatisfying(cp -> {
      assertThat(cp.phase()).isEqualTo(TaskCheckpoint.Phase.CLOSED);
      assertThat(cp.evidence()).contains("tool=Mail.send");
    });
  }

  @Test
  @DisplayName("a reopened task's R3 write without a reconcile method, standing in for an unfinished one, escalates unsent")
  void reopenedIrreversibleWriteEscalates() throws Exception {
    Hfr first = f.engine();
    TaskScope cutOff = first.newTask(TaskSpec.builder("acme", "mail-2").build());
    ShopTools.SendMail dying = new ShopTools.SendMail(shop, "ann@example.com");
    dying.crashAfterSend = true;
    try (AutoCloseable bound = cutOff.bindCurrentThread()) {
      catchThrowableOfType(ShopTools.SimulatedCrash.class, () -> first.execute(ShopTools.SEND_MAIL, dying));
    }
    f.time.advance(Duration.ofMinutes(1).toNanos()); // the dead writer's lease lapses

    Hfr restarted = f.engine();
    PendingTask p = restarted.resumePending().get(0);
    assertThat(p.unfinishedWrites()).singleElement().satisfies(w -> {
      assertThat(w.tool()).isEqualTo("Mail.send");
      assertThat(w.state()).isEqualTo(LedgerState.UNKNOWN);
    });
    ShopTools.SendMail replanned = new ShopTools.SendMail(shop, "ann.smith@example.com");
    ToolCallException e;
    try (TaskScope task = restarted.openTask(p.spec())) {
      e = catchThrowableOfType(ToolCallException.class, () -> restarted.execute(ShopTools.SEND_MAIL, replanned));
    }

    assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    assertThat(e.outcome().reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());
    assertThat(replanned.sends).as("nothing can tell whether the first mail went out").hasValue(0);
    assertThat(f.sink.events).anySatisfy(d -> assertThat(d.reason()).isEqualTo(Reason.RESUMED_WRITE));
  }

  @Test
  @DisplayName("no checkpoints without idempotency, in SHADOW mode, or outside a task")
  void checkpointsOnlyWhenTheLedgerIsUsed() {
    f.engine(HfrFeatures.builder().idempotency(false).build()).newTask(TaskSpec.builder("acme", "no-idempotency").build());
    Hfr shadow = f.builder().mode(HfrMode.SHADOW).build();
    shadow.newTask(TaskSpec.builder("acme", "shadow").build());

    assertThat(f.ledger.findCheckpoint("acme", "no-idempotency")).isEmpty();
    assertThat(f.ledger.findCheckpoint("acme", "shadow")).isEmpty();
    assertThat(f.ledger.openTasks()).isEmpty();
  }

  @Test
  @DisplayName("a ledger that cannot save checkpoints does not fail the task: its calls run, it is just not listed")
  void checkpointFailureIsNotTheTasks() throws Exception {
    ForwardingLedger refusing = new ForwardingLedger(f.ledger) {
      @Override
      public Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint checkpoint) {
        throw new LedgerStorageException("PostgreSQL ledger: saving the checkpoint failed: connection refused");
      }
    };
    Hfr hfr = f.builder().ledger(refusing).build();
    String order;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "no-checkpoint").build())) {
      order = hfr.execute(ShopTools.CREATE_ORDER, new ShopTools.CreateOrder(shop, "ref-1"));
    }

    assertThat(order).isNotBlank();
    assertThat(f.ledger.taskRecords("acme", "no-checkpoint")).singleElement()
        .satisfies(r -> assertThat(r.state()).isEqualTo(LedgerState.COMMITTED));
    assertThat(f.engine().resumePending()).isEmpty();
  }
}
