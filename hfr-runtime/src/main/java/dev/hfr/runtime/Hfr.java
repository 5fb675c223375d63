package dev.hfr.runtime;

import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.approval.ApprovalGate;
import dev.hfr.runtime.breaker.BreakerTransitionLog;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.breaker.CircuitBreakerListener;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.TaskLimitTracker;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.config.FleetSettings;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.IdempotencySettings;
import dev.hfr.runtime.config.RetrySettings;
import dev.hfr.runtime.config.TelemetrySettings;
import dev.hfr.runtime.internal.context.TaskContext;
import dev.hfr.runtime.degrade.ContextCompressor;
import dev.hfr.runtime.internal.engine.AttemptTimeout;
import dev.hfr.runtime.internal.engine.BackoffScheduler;
import dev.hfr.runtime.observation.CallListener;
import dev.hfr.runtime.internal.engine.Compensator;
import dev.hfr.runtime.internal.engine.ConfigPolicies;
import dev.hfr.runtime.internal.engine.Controller;
import dev.hfr.runtime.internal.engine.CrashResume;
import dev.hfr.runtime.internal.engine.DecisionRecorder;
import dev.hfr.runtime.internal.engine.DefaultPolicies;
import dev.hfr.runtime.internal.engine.EngineParts;
import dev.hfr.runtime.internal.engine.FailureHandling;
import dev.hfr.runtime.internal.engine.ImplicitTasks;
import dev.hfr.runtime.internal.engine.Oversight;
import dev.hfr.runtime.policy.PolicySource;
import dev.hfr.runtime.registry.ToolRegistry;
import dev.hfr.runtime.internal.engine.TaskCheckpoints;
import dev.hfr.runtime.internal.engine.TaskState;
import dev.hfr.runtime.internal.engine.ToolRuntimes;
import dev.hfr.runtime.internal.engine.WriteLedger;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.fleet.PostgresFleet;
import dev.hfr.runtime.inbox.Inbox;
import dev.hfr.runtime.inbox.InboxStore;
import dev.hfr.runtime.inbox.PostgresInboxStore;
import dev.hfr.runtime.inbox.SqliteInboxStore;
import dev.hfr.runtime.inbox.internal.InboxBook;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerLockedException;
import dev.hfr.runtime.ledger.LedgerUnavailableException;
import dev.hfr.runtime.ledger.PostgresLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.Ledgers;
import dev.hfr.runtime.observation.ToolCallObservationConvention;
import dev.hfr.runtime.observation.ToolCallObservations;
import dev.hfr.runtime.internal.modules.ModuleRequirements;
import dev.hfr.runtime.internal.retry.Backoff;
import dev.hfr.runtime.internal.retry.FixedDelayBackoff;
import dev.hfr.runtime.internal.retry.FullJitterBackoff;
import dev.hfr.runtime.internal.retry.RetryGate;
import dev.hfr.runtime.telemetry.CallTiming;
import dev.hfr.runtime.telemetry.CompensationMeters;
import dev.hfr.runtime.telemetry.DecisionLog;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.internal.telemetry.RedactingDecisionSink;
import dev.hfr.runtime.internal.time.Nanos;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import dev.hfr.runtime.verify.ResultVerification;
import dev.hfr.runtime.verify.VerificationHook;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/**
 * The HFR engine: what generated proxies call for every tool call. It classifies failures, decides under
 * budgets, deadline, breaker and side-effect risk what to do — retry, reconcile, compress, degrade,
 * replan, escalate or fail — protects writes with the idempotency ledger, accepts results only after
 * verification, and records every decision.
 *
 * <pre>{@code
 * Hfr hfr = Hfr.builder().meterRegistry(registry).build();      // defaults for everything else
 * Orders orders = Orders_Recovering.create(hfr, httpClient);     // a generated proxy
 * try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "order-42").build())) {
 *   orders.createOrder("sku-1", 2);
 * }
 * }</pre>
 *
 * <p>Modes: {@link HfrMode#ENFORCE} (the default), {@link HfrMode#SHADOW} (decide and record, act as
 * before) and {@link HfrMode#OFF} (the kill switch), switchable at run time with {@link #mode(HfrMode)}.
 *
 * <p>Thread-safe. Time comes only from the injected {@link Clock} and {@link Sleeper}, randomness from the
 * injected generator, so the whole engine runs on {@link dev.hfr.runtime.time.VirtualTime}.
 */
public final class Hfr implements RecoveryEngine, AutoCloseable {

  /** The tenant of calls made outside any task scope. */
  public static final String DEFAULT_TENANT = "default";

  /**
   * The default write lease: 20 s. Short, so a restarted process takes a dead one's keys over within 20 s;
   * safe with several processes, because a heartbeat renews the lease every third of it while its call runs.
   */
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(20);

  /** How long an approval request, and then its approval, stays valid by default: 24 hours. */
  public static final Duration DEFAULT_APPROVAL_TTL = Duration.ofHours(24);

  private final Controller controller;
  /** Undoes committed writes; package-private for the task scopes, which undo their own through it. */
  final Compensator compensator;
  private final PolicySource policies;
  private final HfrFeatures features;
  private final Clock clock;
  private final IdempotencyLedger ledger;
  private final HfrMeters meters;
  private final List<AutoCloseable> owned;
  private final String owner;
  /** The one-call tasks of calls made outside any scope, created only when such a call needs one. */
  private final ImplicitTasks implicitTasks;
  private final CircuitBreakers breakers;
  private final TenantRetryBudgets tenantBudgets;
  /** Task checkpoints (§5.4): start, escalation, close. */
  private final TaskCheckpoints checkpoints;
  /** Approval and escalation: where every escalation of a task goes, its checkpoint saved first. */
  private final Oversight oversight;
  /**
   * Tasks the ledger held as open when this engine started or {@link #pendingTasks()} last listed them: one
   * of them reopened here is checkpointed at open, so its close is saved even if the new run only reads.
   */
  private final Set<String> cutOffTasks = ConcurrentHashMap.newKeySet();
  /** Whether {@link #cutOffTasks} ever held one: an open reads this flag, not the set's size (a sum of counters). */
  private volatile boolean anyCutOffTasks;
  /** {@link Builder#checkpointTasksAtOpen}. */
  private final boolean checkpointAtOpen;
  /** The configuration's version and source, saved with each task's spec to see drift on resume. */
  private final String configVersion;
  /** One Observation per call, or {@code null} without an ObservationRegistry: then the engine does none of it. */
  private final ToolCallObservations observations;
  /** Where the engine's decisions go, for adapters that record their own decisions beside them. */
  private final DecisionSink decisionSink;
  /** Where the engine's escalations go, for adapters that escalate calls of their own (the model ladders). */
  private final EscalationHandler escalationHandler;
  private volatile HfrMode mode;
  /** The inbox's rules (engine and people), or {@code null} when the inbox is off. */
  private final InboxBook inboxBook;
  /** {@link #inbox()}. */
  private final Inbox inbox;

  private Hfr(Builder b, IdempotencyLedger ledger, DecisionSink sink, PostgresFleet fleet, List<AutoCloseable> owned) {
    this.owned = owned;
    this.decisionSink = sink;
    this.escalationHandler = b.escalationHandler;
    this.features = b.features;
    this.clock = b.clock;
    this.mode = b.mode;
    this.owner = "hfr-" + UUID.randomUUID();
    this.ledger = ledger;
    this.meters = new HfrMeters(b.meterRegistry);
    if (ledger instanceof PostgresLedger pg) {
      Gauge.builder("harness.ledger.available", pg, l -> l.available() ? 1 : 0)
          .description("1 while the PostgreSQL ledger's database answers, 0 while writes are refused (ledger_unavailable)")
          .register(b.meterRegistry);
      FunctionCounter.builder("harness.ledger.outages", pg, PostgresLedger::outages)
          .description("Times the PostgreSQL ledger lost its database or started without it")
          .register(b.meterRegistry);
    }
    ConfigPolicies configured = b.config != null ? new ConfigPolicies(b.config, features.attemptsOverride()) : null;
    this.policies = b.policies != null ? b.policies
        : configured != null ? configured : new DefaultPolicies(features.attemptsOverride());
    int implicitMaxRetries = features.budgets() ? policies.taskLimits(DEFAULT_TENANT).maxRetries() : -1;
    this.implicitTasks = new ImplicitTasks(DEFAULT_TENANT, owner, implicitMaxRetries);
    TenantRetryBudgets.Builder budgets = TenantRetryBudgets.builder(clock);
    CircuitBreakers.Builder breakerRegistry = CircuitBreakers.builder(clock).seed(b.seed);
    if (fleet != null) {
      budgets.supply(fleet.retryTokens());
    }
    breakerRegistry.listener(BreakerTransitionLog.around(fleet != null ? fleet.breakerListener() : CircuitBreakerListener.NONE));
    TenantRetryBudgets tenantBudgets = b.tenantBudgets != null ? b.tenantBudgets
        : configured != null ? configured.tenantBudgets(budgets) : budgets.build();
    RetryGate.Builder gate = RetryGate.builder().sameFaultLimit(b.sameFaultLimit != null ? b.sameFaultLimit
        : b.config != null ? b.config.retry().sameFaultLimit() : RetrySettings.DEFAULT_SAME_FAULT_LIMIT);
    if (features.budgets()) {
      gate.tenantBudgets(tenantBudgets);
    }
    CircuitBreakers breakers = !features.circuitBreaker() ? null
        : b.circuitBreakers != null ? b.circuitBreakers
        : configured != null ? breakerRegistry.defaults(configured.breakerDefaults()).build()
        : breakerRegistry.build();
    if (fleet != null && breakers != null) {
      owned.add(fleet.watch(breakers));
    }
    this.breakers = breakers;
    this.tenantBudgets = tenantBudgets;
    this.observations = b.observationRegistry == null || b.observationRegistry.isNoop() ? null
        : new ToolCallObservations(b.observationRegistry, b.observationConvention);
    Bulkheads bulkheads = features.circuitBreaker() ? b.bulkheads : null;
    Backoff backoff = features.backoff() == HfrFeatures.Backoff.FIXED ? FixedDelayBackoff.INSTANCE : FullJitterBackoff.INSTANCE;
    AttemptTimeout timeouts = new AttemptTimeout(clock, AttemptTimeout.DEFAULT_GRACE_NANOS);
    owned.add(timeouts);
    FunctionCounter.builder("harness.attempt.interrupts.ignored", timeouts, AttemptTimeout::ignoredInterrupts)
        .description("Timed-out calls still running 500 ms after their interrupt: tools that ignore interruption")
        .baseUnit("calls")
        .register(b.meterRegistry);
    FunctionCounter.builder("harness.attempt.abandoned", timeouts, AttemptTimeout::abandoned)
        .description("Attempts given up on at their timeout because their tool ignores interruption; each left a thread running")
        .baseUnit("calls")
        .register(b.meterRegistry);
    Gauge.builder("harness.attempt.abandoned.running", timeouts, AttemptTimeout::abandonedRunning)
        .description("Abandoned attempts whose threads have not returned yet: the threads leaked right now")
        .baseUnit("threads")
        .register(b.meterRegistry);
    // idempotency.enabled: false leaves writes unkeyed (no ledger record); the processor's rules still hold.
    boolean keysWrites = b.config == null || b.config.idempotency().enabled();
    this.configVersion = b.config == null ? "defaults" : b.config.version() + "@" + b.config.source();
    this.checkpointAtOpen = b.checkpointTasksAtOpen;
    this.checkpoints = keysWrites && features.idempotency()
        ? new TaskCheckpoints(ledger, owner, clock, spec -> SpecText.of(spec, configVersion)) : TaskCheckpoints.NONE;
    this.inboxBook = b.inboxEnabled ? openInbox(b, ledger, sink, owned) : null;
    this.inbox = inboxBook;
    if (inbox != null) {
      registerInboxMeters(b.meterRegistry, inbox);
    }
    this.oversight = new Oversight(b.approvalGate, b.escalationHandler, b.stackTraces, checkpoints, inboxBook);
    this.compensator = new Compensator(clock, ledger, b.classifier, sink, b.escalationHandler,
        new CompensationMeters(b.meterRegistry), meters, b.leaseTtl, owner, timeouts);
    EngineParts parts = new EngineParts(clock, features,
        new ToolRuntimes(meters, breakers, bulkheads, policies, b.callTiming, clock, features.budgets() ? tenantBudgets : null),
        new FailureHandling(b.classifier, gate.build(), backoff, b.random, b.maxRetryAfter, b.compressor),
        new ResultVerification(b.hooks),
        new WriteLedger(ledger, b.leaseTtl, owner, clock, b.sleeper, keysWrites, inboxBook),
        oversight,
        new DecisionRecorder(meters, sink, clock, telemetry(b.config).sampleRate(),
            observations != null ? observations : CallListener.NONE),
        timeouts, compensator);
    this.controller = new Controller(parts, b.sleeper, b.scheduler != null ? BackoffScheduler.using(b.scheduler) : ownScheduler());
  }

  /**
   * The inbox's store: the builder's, else beside the ledger — {@code inbox.db} in the embedded ledger's directory, a
   * table on the PostgreSQL ledger's database, or in memory for a ledger that keeps nothing.
   */
  private static InboxBook openInbox(Builder b, IdempotencyLedger ledger, DecisionSink sink, List<AutoCloseable> owned) {
    InboxStore store = b.inboxStore;
    boolean owns = store == null;
    if (store == null) {
      if (ledger instanceof EmbeddedFileLedger embedded) {
        store = SqliteInboxStore.open(embedded.directory().resolve(SqliteInboxStore.FILE_NAME));
      } else if (ledger instanceof PostgresLedger pg) {
        store = PostgresInboxStore.create(pg.dataSource());
      } else {
        store = SqliteInboxStore.inMemory();
      }
    }
    InboxBook book = new InboxBook(store, ledger, sink, b.clock, b.approvalTtl, owns);
    owned.add(book);
    return book;
  }

  /** {@code harness.inbox.waiting} and {@code harness.inbox.oldest.age}, read from the store when scraped. */
  private static void registerInboxMeters(MeterRegistry registry, Inbox inbox) {
    Gauge.builder("harness.inbox.waiting", inbox, i -> safely(() -> (double) i.waiting()))
        .description("Inbox items (escalations and approval requests) waiting for a person")
        .baseUnit("items")
        .register(registry);
    Gauge.builder("harness.inbox.oldest.age", inbox, i -> safely(() -> i.oldestAge().toMillis() / 1000.0))
        .description("How long the oldest inbox item has waited for a person (0 when none waits)")
        .baseUnit("seconds")
        .register(registry);
  }

  /** A gauge's reading, NaN when the store does not answer (a scrape must not fail). */
  private static double safely(java.util.function.DoubleSupplier reading) {
    try {
      return reading.getAsDouble();
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  /**
   * What waits for a person — escalations and approval requests — and their answers, in the ledger's store: list,
   * get, answer, {@code onAnswered}. See {@link Inbox}.
   *
   * @throws IllegalStateException when the engine was built with {@code Builder.inbox(false)}
   */
  public Inbox inbox() {
    if (inbox == null) {
      throw new IllegalStateException("this engine was built without its inbox (Hfr.builder().inbox(false)):"
          + " escalations go to the escalation handler only");
    }
    return inbox;
  }

  /** The {@code telemetry} section of {@code config}, or its defaults without one. */
  private static TelemetrySettings telemetry(HfrConfig config) {
    return config != null ? config.telemetry() : TelemetrySettings.DEFAULTS;
  }

  /** The engine's own backoff timer thread, stopped by {@link #close()}. */
  private BackoffScheduler ownScheduler() {
    BackoffScheduler own = BackoffScheduler.ownThread();
    owned.add(own);
    return own;
  }

  /** Starts a builder; every setting has a default. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public <R> R execute(ToolDescriptor tool, ToolInvocation<R> invocation) {
    HfrMode m = mode;
    if (m == HfrMode.OFF) {
      return direct(invocation);
    }
    TaskState task = currentState();
    if (observations != null) {
      return observations.observe(tool, task == null ? null : task.tenant(), task == null ? null : task.taskId(),
          m == HfrMode.SHADOW, () -> run(m, tool, invocation, task));
    }
    return run(m, tool, invocation, task);
  }

  private <R> R run(HfrMode m, ToolDescriptor tool, ToolInvocation<R> invocation, TaskState task) {
    if (m == HfrMode.SHADOW) {
      return controller.shadow(tool, invocation, task, implicitTasks);
    }
    // Outside a scope the engine creates the one-call task itself, and only if the call needs it.
    return task != null ? controller.execute(tool, invocation, task) : controller.executeOutsideTask(tool, invocation, implicitTasks);
  }

  /**
   * Runs an asynchronous tool's call (what generated proxies of methods returning {@code CompletionStage<R>}
   * or {@code CompletableFuture<R>} call): the same recovery as {@link #execute}, holding no thread while
   * it waits — an attempt continues on the thread that completes it, a backoff is a timer on the
   * {@link Builder#scheduler scheduler}.
   */
  @Override
  public <R> CompletableFuture<R> executeAsync(ToolDescriptor tool, AsyncToolInvocation<R> invocation) {
    HfrMode m = mode;
    if (m == HfrMode.OFF) {
      return Controller.direct(invocation);
    }
    TaskState task = currentState();
    if (observations != null) {
      // The span opens here and closes when the future completes; each stretch of the call's steps, on whichever
      // thread, runs with the Observation current, so its decisions become events of it.
      return observations.observeAsync(tool, task == null ? null : task.tenant(), task == null ? null : task.taskId(),
          m == HfrMode.SHADOW, scope -> m == HfrMode.SHADOW ? controller.shadowAsync(tool, invocation, task, implicitTasks)
              : controller.executeAsync(tool, invocation, task, implicitTasks, scope));
    }
    if (m == HfrMode.SHADOW) {
      return controller.shadowAsync(tool, invocation, task, implicitTasks);
    }
    return controller.executeAsync(tool, invocation, task, implicitTasks);
  }

  /**
   * Opens a task on the current thread; calls on this thread join it until it is closed, and so does work
   * this thread hands to other threads through {@link TaskScope#wrap} or context-propagation.
   *
   * @throws IllegalArgumentException if {@code spec} is {@code null}
   */
  public TaskScope openTask(TaskSpec spec) {
    return task(spec, true);
  }

  /**
   * Opens a task bound to no thread, for work that hops between threads (a conversation whose turns run
   * wherever the server schedules them): bind it where its work runs with {@link
   * TaskScope#bindCurrentThread()}, and work handed on from there follows it ({@link TaskScope#wrap}).
   *
   * @throws IllegalArgumentException if {@code spec} is {@code null}
   */
  public TaskScope newTask(TaskSpec spec) {
    return task(spec, false);
  }

  private TaskScope task(TaskSpec spec, boolean bindHere) {
    if (spec == null) {
      throw new IllegalArgumentException("spec must not be null");
    }
    TaskLimits limits = spec.limits() != null ? spec.limits() : policies.taskLimits(spec.tenant());
    TaskLimitTracker tracker = features.budgets() ? new TaskLimitTracker(limits, clock) : null;
    // One reading of the clock per open (on a virtualised host a reading costs a third of a one-call task): the deadline runs
    // from the tracker's start, the instant the task's wall time runs from.
    Deadline deadline = spec.deadline() == null ? Deadline.NONE : Deadline.atNanos(Nanos.saturatedAdd(
        tracker != null ? tracker.startNanos() : clock.nanoTime(), Nanos.of(spec.deadline())));
    TaskState state = TaskState.explicit(spec, deadline, tracker, bindHere ? TaskContext.slot() : null);
    if (mode == HfrMode.ENFORCE && checkpoints.saves()) {
      // A task is checkpointed from its first write or escalation on (a task that only reads leaves nothing to
      // reconcile), unless asked for at open; one this engine knows was cut off is checkpointed now, so its
      // close is saved whatever the new run does.
      if (checkpointAtOpen || (anyCutOffTasks && cutOffTasks.remove(cutOffKey(spec.tenant(), spec.taskId())))) {
        checkpoints.started(state);
      } else {
        state.checkpointLater();
      }
    }
    return new TaskScope(this, state);
  }

  /** The task's close checkpoint: a task closed is not resumed. */
  void closed(TaskState state) {
    checkpoints.closed(state);
  }

  /**
   * The task open on this thread (or bound to it with {@link TaskScope#bindCurrentThread()}), which the
   * calls made here join; empty outside any task. For adapters that count their own calls in the task
   * ({@link TaskScope#recordOutcome}).
   */
  public Optional<TaskScope> currentTask() {
    TaskState state = currentState();
    return state == null ? Optional.empty() : Optional.ofNullable(state.scope());
  }

  /**
   * The sink this engine writes its decision events to, as configured: the one given to {@link
   * Builder#decisionSink}, the default {@link dev.hfr.runtime.telemetry.DecisionLog}, a discarding one when
   * {@code telemetry.emit_decision_events} is false, PII redaction applied. For adapters that record decisions of their
   * own (the model ladders' {@code decisionSink(...)}) in the same log; events written after {@link #close()} are lost.
   */
  public DecisionSink decisionSink() {
    return decisionSink;
  }

  /**
   * The handler this engine hands its escalations to: the one given to {@link Builder#escalationHandler} (the Spring
   * starter's escalation queue, unless the application has its own handler), or one that keeps nothing. For adapters
   * that escalate calls of their own (the model ladders' {@code decisionSink(hfr)}), so a human finds them beside the
   * tool calls' escalations, with their evidence.
   */
  public EscalationHandler escalationHandler() {
    return escalationHandler;
  }

  /**
   * Escalates a call the engine did not run — a model call an adapter protected (the model ladders'
   * {@code decisionSink(hfr)}: a refusal, an exhausted ladder at HIGH criticality) — the way it escalates its own tool
   * calls: if {@code task} is a task this engine opened, its escalation checkpoint is saved first, with the evidence
   * (§5.4), so {@link #resumePending()} shows a task cut off after it as escalated; then {@link #escalationHandler()}
   * hears of it. The caller counts the call in the task's report itself ({@link TaskScope#recordOutcome}).
   *
   * @param task the task the call ran in, or {@code null} outside one (or another engine's: nothing is checkpointed)
   * @param evidence what a human needs to decide
   * @throws Exception what the escalation handler threw
   */
  public void escalate(TaskScope task, EvidenceBundle evidence) throws Exception {
    Objects.requireNonNull(evidence, "evidence");
    oversight.escalate(task != null && task.engine == this ? task.state() : null, evidence);
  }

  /** The task current on this thread if this engine opened it: another engine's task is not joined. */
  private TaskState currentState() {
    TaskContext.Slot slot = TaskContext.slotIfAny();
    TaskState state = slot == null ? null : slot.task();
    if (state == null) {
      return null;
    }
    if (state.closed() && slot.boundByOpen()) {
      // Closed on another thread while bound here by its open: the scope open before is this thread's again.
      state = TaskScope.openTaskInstead(slot, state);
      if (state == null) {
        return null;
      }
    }
    TaskScope scope = state.scope();
    return scope != null && scope.engine == this ? state : null;
  }

  /**
   * Crash resume (§5.4): the tasks other engines opened and never closed — cut off by a crash or a kill —
   * with their specs and unfinished writes, oldest first. First, every PREPARED ledger record whose lease
   * has lapsed or can be taken (its writer vanished mid-call) becomes UNKNOWN, so the next call on its key
   * reconciles before anything else ({@link Builder#build()} does this part too).
   *
   * <p>Resume a task by opening it again with {@link PendingTask#spec()} and running its work; see {@link
   * PendingTask} for what its writes then do. A task stays listed until it is closed. On a PostgreSQL
   * ledger shared by several workers, a task another live worker is running is listed too (tasks hold no
   * lease between calls): resuming it there is safe — each write has one owner at a time, and writes that
   * differ from the other run's unfinished ones are reconciled first — but wasteful; call this when a
   * worker restarts, for the tasks that worker ran (filter on {@link PendingTask#owner()} or the task ids).
   *
   * @return the interrupted tasks; empty when none was cut off (or idempotency is switched off)
   */
  public List<PendingTask> resumePending() {
    markAbandonedWritesUnknown();
    return pendingTasks();
  }

  /**
   * The tasks {@link #resumePending()} would return, read without changing anything (abandoned PREPARED
   * writes are listed as they are): for status views.
   */
  public List<PendingTask> pendingTasks() {
    if (checkpoints == TaskCheckpoints.NONE) {
      return List.of();
    }
    List<PendingTask> pending = new ArrayList<>();
    for (TaskCheckpoint t : ledger.openTasks()) {
      if (t.owner().equals(owner)) {
        continue; // opened by this engine: still running here, not cut off
      }
      List<PendingTask.UnfinishedWrite> unfinished = new ArrayList<>();
      for (LedgerRecord r : ledger.unfinishedTaskRecords(t.tenant(), t.taskId())) {
        unfinished.add(new PendingTask.UnfinishedWrite(r.tool(), r.key(), r.state(), r.attempts(), r.createdAt()));
      }
      rememberCutOff(t);
      String savedConfig = SpecText.configVersion(t.spec());
      pending.add(new PendingTask(t.tenant(), t.taskId(), SpecText.parse(t.tenant(), t.taskId(), t.spec()), t.phase(), t.evidence(),
          savedConfig, !savedConfig.equals(configVersion), t.owner(), t.startedAt(), unfinished));
    }
    return pending;
  }

  private void rememberCutOff(TaskCheckpoint t) {
    cutOffTasks.add(cutOffKey(t.tenant(), t.taskId()));
    anyCutOffTasks = true;
  }

  /** The key of a task in {@link #cutOffTasks}. */
  private static String cutOffKey(String tenant, String taskId) {
    return tenant + '\u0000' + taskId;
  }

  /** Remembers the tasks the ledger holds as open (cut off, or running in another engine) when this one starts. */
  private void rememberCutOffTasks() {
    if (checkpoints == TaskCheckpoints.NONE) {
      return;
    }
    for (TaskCheckpoint t : ledger.openTasks()) {
      rememberCutOff(t);
    }
  }

  /**
   * What {@link Builder#build()} reads from the ledger: abandoned writes marked UNKNOWN, cut-off tasks
   * remembered. A PostgreSQL ledger whose database does not answer yet does both once it answers.
   */
  private void startFromLedger() {
    try {
      markAbandonedWritesUnknown();
      rememberCutOffTasks();
    } catch (LedgerUnavailableException away) {
      if (!(ledger instanceof PostgresLedger pg)) {
        throw away;
      }
      java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
      Runnable once = () -> {
        if (done.compareAndSet(false, true)) {
          markAbandonedWritesUnknown();
          rememberCutOffTasks();
        }
      };
      pg.afterRejoin(once);
      if (pg.available()) {
        once.run(); // it answered between the failure and the registration
      }
    }
  }

  /** Marks every abandoned PREPARED record UNKNOWN; returns how many. */
  private int markAbandonedWritesUnknown() {
    return CrashResume.markAbandonedWritesUnknown(ledger, owner);
  }

  /**
   * Compensates one committed write outside its task scope — after a restart, or from an operator's tool:
   * the {@code occurrence}-th write (0 for the first) of {@code tool} with the arguments of {@code
   * invocation} in task {@code taskId} of {@code tenant} (its key is derived from them exactly as the call
   * derived it, so a wrong argument finds no record). Within the task, {@link TaskScope#compensate(String)} and {@link
   * TaskScope#compensateAll()} are simpler. The compensation runs as its own guarded write; see {@link
   * TaskScope#compensate(String)} for what happens and when it is refused.
   *
   * @throws CompensationException if the write was not undone; the message names tool, key and state
   */
  public Compensation compensate(String tenant, String taskId, int occurrence, ToolDescriptor tool, ToolInvocation<?> invocation) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(invocation, "invocation");
    String key = IdempotencyKeys.key(tenant, taskId, tool.name(), IdempotencyKeys.arguments(tool, invocation), occurrence);
    // Outside its task the write is known by its occurrence, not by the call's step: the step is unknown (-1).
    return compensator.compensate(tenant, taskId, Compensation.UNKNOWN_STEP, tool, invocation, key);
  }

  /** Switches the mode at run time: {@link HfrMode#OFF} is the global kill switch. */
  public void mode(HfrMode mode) {
    this.mode = Objects.requireNonNull(mode, "mode");
  }

  /** The current mode. */
  public HfrMode mode() {
    return mode;
  }

  /** The enabled features. */
  public HfrFeatures features() {
    return features;
  }

  /** The meters, for reading them in tests and reports. */
  public HfrMeters meters() {
    return meters;
  }

  /** The circuit breakers the engine keeps, for status views; empty when the circuit-breaker feature is off. */
  public Optional<CircuitBreakers> circuitBreakers() {
    return Optional.ofNullable(breakers);
  }

  /** The per-tenant retry budgets (token buckets), for status views. */
  public TenantRetryBudgets tenantBudgets() {
    return tenantBudgets;
  }

  /** The ledger the engine writes. */
  public IdempotencyLedger ledger() {
    return ledger;
  }

  /**
   * Reports a side effect found to have been committed twice for one logical action (by an audit, a
   * verifier, or a benchmark's oracle): counted in {@code harness.duplicate.side.effects} and in the
   * current task's report.
   */
  public void recordDuplicateSideEffect(ToolDescriptor tool) {
    meters.forTool(tool).duplicateSideEffect();
    TaskState task = currentState();
    if (task != null) {
      task.recordDuplicateSideEffect();
    }
  }

  /** Closes what the builder opened itself (the default ledger and decision log); injected ones stay open. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (AutoCloseable c : owned) {
      try {
        c.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = new IllegalStateException("closing the HFR engine failed", e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static <R> R direct(ToolInvocation<R> invocation) {
    try {
      return invocation.proceed(null);
    } catch (Exception e) {
      throw Hfr.<RuntimeException>sneaky(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> T sneaky(Throwable t) throws T {
    throw (T) t;
  }

  /**
   * Builds an {@link Hfr}. Defaults: system time, a {@link SplittableRandom}, the
   * {@link DefaultFailureClassifier}, the embedded file ledger in {@code ./hfr-ledger/} ({@link
   * Ledgers#DEFAULT_DIRECTORY}; one engine per directory at a time), a {@link SimpleMeterRegistry}, decision
   * events to the {@code System.Logger} {@value DecisionLog#LOGGER_NAME} through a {@link DecisionLog} (written
   * off the calling thread; nothing is written to a file unless you pass {@link DecisionLog#toFile}),
   * escalations recorded only, approvals denied (nothing that needs approval runs until a gate is set), mode
   * ENFORCE, all features.
   */
  public static final class Builder {
    private Clock clock = Clock.system();
    private Sleeper sleeper = Sleeper.system();
    private ScheduledExecutorService scheduler;
    private RandomGenerator random;
    private long seed = System.identityHashCode(this);
    private FailureClassifier classifier;
    private IdempotencyLedger ledger;
    private Path ledgerPath;
    private DataSource ledgerDataSource;
    private MeterRegistry meterRegistry;
    private CallTiming callTiming = CallTiming.ADAPTIVE;
    private DecisionSink decisionSink;
    private EscalationHandler escalationHandler = EscalationHandler.recordOnly();
    /** {@code null}: approvals are asked in the inbox (or denied without one). */
    private ApprovalGate approvalGate;
    private boolean inboxEnabled = true;
    private InboxStore inboxStore;
    private Duration approvalTtl = DEFAULT_APPROVAL_TTL;
    private HfrMode mode = HfrMode.ENFORCE;
    private HfrFeatures features = HfrFeatures.all();
    private PolicySource policies;
    private HfrConfig config;
    private ObservationRegistry observationRegistry;
    private ToolCallObservationConvention observationConvention;
    private TenantRetryBudgets tenantBudgets;
    private CircuitBreakers circuitBreakers;
    private PostgresFleet fleet;
    private Bulkheads bulkheads;
    private ContextCompressor compressor = ContextCompressor.invocationCompressible();
    private final Map<VerifyLevel, VerificationHook> hooks = new EnumMap<>(VerifyLevel.class);
    private Duration leaseTtl = DEFAULT_LEASE_TTL;
    private Duration ledgerRetention;
    private Duration maxRetryAfter = Duration.ofMinutes(1);
    /** Unset: {@code retry.same_fault_limit} of the configuration, else 3. */
    private Integer sameFaultLimit;
    private boolean checkConfig = true;
    private ToolRegistry toolRegistry;
    private boolean stackTraces;
    private boolean checkpointTasksAtOpen;

    private Builder() {}

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /**
     * Where asynchronous tools wait out their backoffs (a timer each; no thread waits). Default: one daemon
     * thread of the engine's own, started on the first wait and stopped by {@link Hfr#close()}; a scheduler
     * given here is the caller's to stop.
     */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** The source of backoff jitter; seed it for reproducible runs. Used under the engine's lock. */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /** Seeds the default random generator and the breakers' cooldown jitter. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    public Builder classifier(FailureClassifier classifier) {
      this.classifier = Objects.requireNonNull(classifier, "classifier");
      return this;
    }

    /** The ledger to use, opened and closed by the caller; wins over {@link #ledgerPath}, {@link #ledgerDataSource} and the configuration. */
    public Builder ledger(IdempotencyLedger ledger) {
      this.ledger = Objects.requireNonNull(ledger, "ledger");
      return this;
    }

    /**
     * The directory of the embedded file ledger the engine opens (and closes) itself, instead of the
     * configuration's {@code idempotency.path} or {@code ./hfr-ledger}. One engine per directory at a time.
     */
    public Builder ledgerPath(Path directory) {
      this.ledgerPath = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /**
     * A PostgreSQL ledger on the application's own {@code DataSource} (its connection pool): several JVMs
     * share one ledger. Wins over the configuration's {@code idempotency.ledger} and {@code jdbc_url}.
     */
    public Builder ledgerDataSource(DataSource dataSource) {
      this.ledgerDataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    public Builder meterRegistry(MeterRegistry registry) {
      this.meterRegistry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * Makes every tool call a Micrometer Observation in {@code registry} (a span named {@code execute_tool <tool>}
     * when a tracing bridge is registered), with its decisions as events; see {@link ToolCallObservations}.
     * Default: none, and the engine does no Observation work at all.
     */
    public Builder observationRegistry(ObservationRegistry registry) {
      this.observationRegistry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** Names and tags the tool-call Observations (default: {@link dev.hfr.runtime.observation.DefaultToolCallObservationConvention}). */
    public Builder observationConvention(ToolCallObservationConvention convention) {
      this.observationConvention = Objects.requireNonNull(convention, "convention");
      return this;
    }

    /**
     * Which calls are timed for {@code harness.call.duration}: {@link CallTiming#ADAPTIVE} (the default)
     * samples the clean calls of in-process tools that answer in microseconds; {@link CallTiming#EVERY_CALL}
     * times every call.
     */
    public Builder callTiming(CallTiming timing) {
      this.callTiming = Objects.requireNonNull(timing, "timing");
      return this;
    }

    /**
     * Where decision events go (default: a {@link DecisionLog} to the {@code System.Logger}
     * {@value DecisionLog#LOGGER_NAME}). The {@code telemetry} settings of the {@link #config} — or their
     * defaults — apply to it: with {@code emit_decision_events: false} it receives nothing, with {@code
     * redact_pii: true} (the default) it receives events after {@link
     * dev.hfr.runtime.internal.telemetry.PiiRedaction}. A sink passed here stays open when the engine closes.
     */
    public Builder decisionSink(DecisionSink sink) {
      this.decisionSink = Objects.requireNonNull(sink, "sink");
      return this;
    }

    public Builder escalationHandler(EscalationHandler handler) {
      this.escalationHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * Whether the engine keeps an inbox of what waits for a person ({@link Hfr#inbox()}; default {@code true}): every
     * escalation is filed there besides going to the escalation handler, and {@code requiresApproval} writes ask for
     * approval there unless {@link #approvalGate} gives a gate of your own. {@code false}: escalations go to the
     * handler only, and such writes are denied without a gate.
     */
    public Builder inbox(boolean enabled) {
      this.inboxEnabled = enabled;
      return this;
    }

    /**
     * Where the inbox lives, instead of beside the ledger ({@code inbox.db} in the embedded ledger's directory, the
     * PostgreSQL ledger's database, or memory). A store given here stays open when the engine closes.
     */
    public Builder inboxStore(InboxStore store) {
      this.inboxStore = Objects.requireNonNull(store, "store");
      this.inboxEnabled = true;
      return this;
    }

    /**
     * How long an approval request waits for a person, and then how long its approval stays usable (default {@link
     * Hfr#DEFAULT_APPROVAL_TTL}, 24 h). A call after that is refused ({@code approval_expired}) and files a new request.
     */
    public Builder approvalTtl(Duration ttl) {
      Objects.requireNonNull(ttl, "ttl");
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("approvalTtl must be positive, was " + ttl);
      }
      this.approvalTtl = ttl;
      return this;
    }

    /**
     * A gate of your own that decides every {@code requiresApproval} call synchronously (the call's thread waits for
     * it). Without one, approvals are asked in the inbox and never block a thread.
     */
    public Builder approvalGate(ApprovalGate gate) {
      this.approvalGate = Objects.requireNonNull(gate, "gate");
      return this;
    }

    public Builder mode(HfrMode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    public Builder features(HfrFeatures features) {
      this.features = Objects.requireNonNull(features, "features");
      return this;
    }

    /**
     * The configuration (the §5.2 YAML, from {@link dev.hfr.runtime.config.HfrConfigLoader}): per-tenant and
     * per-tool policies, task limits, tenant retry budgets and breaker thresholds. Without one, the
     * annotations decide, with the paper's §5.2 numbers where they say nothing.
     */
    public Builder config(HfrConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /** Where effective policies and task limits come from, overriding {@link #config} (for tests and the benchmark). */
    public Builder policies(PolicySource policies) {
      this.policies = Objects.requireNonNull(policies, "policies");
      return this;
    }

    /** The per-tenant retry token buckets (default: 600 retries per minute per tenant, §5.2). */
    public Builder tenantBudgets(TenantRetryBudgets budgets) {
      this.tenantBudgets = Objects.requireNonNull(budgets, "budgets");
      return this;
    }

    /** The circuit breakers (default: one per tool and rung target with the default thresholds). */
    /**
     * Shares each tenant's retry budget and each target's breaker with the other workers of a fleet, through
     * PostgreSQL (docs/FLEET.md); overrides {@code fleet.*} of the configuration. It applies to the budgets and
     * breakers the engine builds, so it cannot be combined with {@link #tenantBudgets} or {@link
     * #circuitBreakers} ({@link #build()} refuses; wire the fleet into your own instead). The engine does not
     * close a fleet given here.
     */
    public Builder fleet(PostgresFleet fleet) {
      this.fleet = Objects.requireNonNull(fleet, "fleet");
      return this;
    }

    public Builder circuitBreakers(CircuitBreakers breakers) {
      this.circuitBreakers = Objects.requireNonNull(breakers, "breakers");
      return this;
    }

    /** Bulkheads per tool target (default: none). */
    public Builder bulkheads(Bulkheads bulkheads) {
      this.bulkheads = Objects.requireNonNull(bulkheads, "bulkheads");
      return this;
    }

    /** The COMPRESS hook for context overflows (default: asks {@link dev.hfr.runtime.degrade.Compressible} invocations). */
    public Builder contextCompressor(ContextCompressor compressor) {
      this.compressor = Objects.requireNonNull(compressor, "compressor");
      return this;
    }

    /** The V2 (judge, state cross-check) or V3 (human, authority) verification hook. */
    public Builder verificationHook(VerifyLevel level, VerificationHook hook) {
      Objects.requireNonNull(level, "level");
      if (level != VerifyLevel.V2 && level != VerifyLevel.V3) {
        throw new IllegalArgumentException("hooks are for V2 and V3; V0 is built in and V1 is the method's own verifier, got " + level);
      }
      hooks.put(level, Objects.requireNonNull(hook, "hook"));
      return this;
    }

    /**
     * How long a write's lease lasts without a renewal (default {@link Hfr#DEFAULT_LEASE_TTL}, 20 s). A heartbeat
     * renews it every third of the TTL while the call runs, so it bounds how long a dead process's writes
     * stay blocked, not how long a call may take.
     */
    public Builder leaseTtl(Duration ttl) {
      Objects.requireNonNull(ttl, "ttl");
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("leaseTtl must be positive, was " + ttl);
      }
      this.leaseTtl = ttl;
      return this;
    }

    /**
     * How long the ledger the engine opens keeps a settled record after its last change (default 24 h, or
     * {@code idempotency.retention_hours}); a repeat of the write after that runs again. Keep it longer than
     * the longest time a caller may repeat a write. Not applied to a ledger passed to {@link #ledger}.
     */
    public Builder ledgerRetention(Duration retention) {
      Objects.requireNonNull(retention, "retention");
      if (retention.isNegative() || retention.isZero()) {
        throw new IllegalArgumentException("ledgerRetention must be positive, was " + retention);
      }
      this.ledgerRetention = retention;
      return this;
    }

    /** The longest Retry-After the engine waits out; a longer one ends retrying (default 1 minute). */
    public Builder maxRetryAfter(Duration max) {
      Objects.requireNonNull(max, "max");
      if (max.isNegative()) {
        throw new IllegalArgumentException("maxRetryAfter must not be negative, was " + max);
      }
      this.maxRetryAfter = max;
      return this;
    }

    /**
     * Whether the {@link ToolCallException} a failed call ends in records where it was thrown (default
     * {@code false}: filling in a stack trace costs more than the rest of a failed call, and the exception's
     * cause — what the tool threw — keeps its own). Turn it on to see the calling code in logged traces.
     */
    public Builder stackTraces(boolean record) {
      this.stackTraces = record;
      return this;
    }

    /**
     * When a task's start checkpoint (§5.4) is saved. Default {@code false}: before the task's first write or
     * escalation — a task that only reads costs no ledger write at open or close, and one cut off before its
     * first write is not listed by {@link Hfr#resumePending()} (it left nothing to reconcile). {@code true}: at
     * {@code openTask} / {@code newTask}, so every task opened and cut off is listed — for a worker that treats
     * the ledger as its work log (acknowledges its queue once a task is open). Costs one ledger write at open
     * and one at close per task (on the embedded ledger, two {@code write} system calls).
     */
    public Builder checkpointTasksAtOpen(boolean atOpen) {
      this.checkpointTasksAtOpen = atOpen;
      return this;
    }

    /**
     * K of §4.3: the same fault class this many times in a row without new evidence stops retrying (default 3, or
     * {@code retry.same_fault_limit} of the configuration; this wins over it).
     */
    public Builder sameFaultLimit(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("sameFaultLimit must be at least 1, was " + k);
      }
      this.sameFaultLimit = k;
      return this;
    }

    /**
     * Whether {@link #build()} checks the {@linkplain #config configuration} against the tools the processor
     * generated ({@link ToolRegistry#load()}): a name under {@code tools:} that matches no tool, or an override
     * the safety rules refuse (a retry of an R3 tool, automatic L3/L4 for a HIGH one), fails the build with the
     * file and line. Default {@code true}; turn it off for a file shared by several applications, each with only
     * some of its tools (then call {@link HfrConfig#check} yourself with the tools each has).
     */
    public Builder checkConfig(boolean check) {
      this.checkConfig = check;
      return this;
    }

    /**
     * The tools the configuration is checked against at {@link #build()} (default: {@link ToolRegistry#load()},
     * every catalog the processor generated on the class or module path). For tools described by hand
     * ({@link ToolDescriptor#builder}) rather than generated.
     */
    public Builder toolRegistry(ToolRegistry registry) {
      this.toolRegistry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * Builds the engine and marks its ledger's abandoned writes UNKNOWN (the first part of {@link
     * Hfr#resumePending()}, which lists the tasks to resume).
     *
     * @throws dev.hfr.runtime.ledger.LedgerStorageException if the default ledger cannot be opened (for
     *     example, another engine holds its directory)
     * @throws dev.hfr.runtime.config.HfrConfigException if the configuration names a tool that does not exist or
     *     overrides one unsafely (see {@link #checkConfig})
     * @throws IllegalStateException on the module path, if the application's module does not read a module HFR
     *     needs (the message names the {@code requires} line to add)
     */
    public Hfr build() {
      ModuleRequirements.check(ModuleRequirements.ENGINE);
      if (config != null && checkConfig) {
        config.checkAtBuild((toolRegistry != null ? toolRegistry : ToolRegistry.load()).tools());
      }
      List<AutoCloseable> owned = new ArrayList<>(2);
      if (random == null) {
        random = new SplittableRandom(seed);
      }
      if (classifier == null) {
        classifier = new DefaultFailureClassifier();
      }
      if (meterRegistry == null) {
        meterRegistry = new SimpleMeterRegistry();
      }
      IdempotencyLedger ledgerToUse = ledger;
      DecisionSink sinkToUse = decisionSink;
      try {
        if (ledgerToUse == null) {
          ledgerToUse = openLedger();
          owned.add(ledgerToUse);
        }
        TelemetrySettings telemetry = telemetry(config);
        if (!telemetry.emitDecisionEvents()) {
          sinkToUse = DecisionSink.discarding();
        } else if (sinkToUse == null) {
          sinkToUse = DecisionLog.toSystemLogger().redactPii(telemetry.redactPii()).meterRegistry(meterRegistry).build();
          owned.add(sinkToUse);
        } else if (telemetry.redactPii()) {
          if (sinkToUse instanceof DecisionLog log) {
            log.enableRedaction(); // on its writer thread, off the calling one
          } else {
            sinkToUse = new RedactingDecisionSink(sinkToUse);
          }
        }
        PostgresFleet fleetToUse = fleet;
        if (fleetToUse == null && config != null && config.fleet().enabled()) {
          fleetToUse = openFleet();
          owned.add(fleetToUse);
        }
        if (fleetToUse != null && (tenantBudgets != null || circuitBreakers != null)) {
          throw new IllegalStateException((fleet != null ? "Hfr.builder().fleet(...)" : config + ": fleet.enabled: true")
              + " shares the retry budgets and breakers the engine builds, but "
              + (tenantBudgets != null ? "tenantBudgets(...)" : "circuitBreakers(...)") + " gave ones of your own."
              + " Next step: leave yours out, or build them on the fleet yourself (TenantRetryBudgets.builder(clock)"
              + ".supply(fleet.retryTokens()), CircuitBreakers.builder(clock).listener(fleet.breakerListener()) and"
              + " fleet.watch(breakers)) and leave the fleet out of the engine");
        }
        Hfr hfr = new Hfr(this, ledgerToUse, sinkToUse, fleetToUse, owned);
        hfr.startFromLedger();
        return hfr;
      } catch (RuntimeException e) {
        for (AutoCloseable c : owned) {
          try {
            c.close();
          } catch (Exception suppressed) {
            e.addSuppressed(suppressed);
          }
        }
        throw e;
      }
    }

    /**
     * The fleet {@code fleet.enabled} asks for, on {@code fleet.jdbc_url} or else the PostgreSQL ledger's own
     * database; the engine closes it.
     */
    private PostgresFleet openFleet() {
      FleetSettings settings = config.fleet();
      PostgresFleet.Builder fleetBuilder;
      if (settings.jdbcUrl() != null) {
        fleetBuilder = PostgresFleet.builder(settings.jdbcUrl(), settings.pool());
      } else if (ledgerDataSource != null) {
        fleetBuilder = PostgresFleet.builder(ledgerDataSource);
      } else if (ledger == null && ledgerPath == null && config.idempotency().ledger().equals("postgres")
          && config.idempotency().jdbcUrl() != null) {
        fleetBuilder = PostgresFleet.builder(config.idempotency().jdbcUrl(), settings.pool());
      } else {
        throw new IllegalStateException(config + ": fleet.enabled is true but names no database: set fleet.jdbc_url,"
            + " or keep the ledger on PostgreSQL (idempotency.ledger: postgres with idempotency.jdbc_url, or"
            + " Hfr.builder().ledgerDataSource(...)) and the fleet shares it, or pass Hfr.builder().fleet(...)");
      }
      if (settings.worker() != null) {
        fleetBuilder.worker(settings.worker());
      }
      return fleetBuilder.expectedWorkers(settings.expectedWorkers()).maxBatch(settings.batchSize())
          .syncInterval(java.time.Duration.ofMillis(settings.syncIntervalMs())).clock(clock).meterRegistry(meterRegistry)
          .build();
    }

    /** The ledger the engine owns: a supplied data source, a path, else what {@code idempotency.ledger} says. */
    private IdempotencyLedger openLedger() {
      IdempotencySettings settings = config != null ? config.idempotency() : IdempotencySettings.DEFAULTS;
      LedgerOptions options = settings.ledgerOptions(clock);
      if (ledgerRetention != null) {
        options = options.withRetention(ledgerRetention);
      }
      if (ledgerDataSource != null) {
        return Ledgers.postgres(ledgerDataSource, options);
      }
      if (ledgerPath != null) {
        return openEmbedded(ledgerPath, "Hfr.builder().ledgerPath(...)", options);
      }
      switch (settings.ledger()) {
        case "memory":
          return Ledgers.inMemory(options);
        case "postgres":
          if (settings.jdbcUrl() == null) {
            throw new IllegalStateException(config + ": idempotency.ledger is postgres but names no database: set"
                + " idempotency.jdbc_url, or pass the application's pool with Hfr.builder().ledgerDataSource(...)");
          }
          return Ledgers.postgres(settings.jdbcUrl(), settings.pool(), options);
        default:
          return openEmbedded(Path.of(settings.path()), "idempotency.path", options);
      }
    }

    private static IdempotencyLedger openEmbedded(Path directory, String setting, LedgerOptions options) {
      ModuleRequirements.check(ModuleRequirements.EMBEDDED_LEDGER);
      try {
        return Ledgers.embedded(directory, options);
      } catch (LedgerLockedException e) {
        throw new LedgerLockedException(e.getMessage() + ". Next step: build one Hfr per ledger directory and"
            + " share it (it is thread-safe), give this engine another directory with " + setting + ", use"
            + " idempotency.ledger: memory where nothing must survive a restart (tests), or PostgreSQL"
            + " (idempotency.ledger: postgres) for several processes", e);
      }
    }
  }
}
