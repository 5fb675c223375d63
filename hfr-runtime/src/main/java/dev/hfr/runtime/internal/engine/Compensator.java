package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.CommittedWrite;
import dev.hfr.runtime.Compensation;
import dev.hfr.runtime.CompensationException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.classify.Observation;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.ledger.CompensationKeys;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.telemetry.CompensationMeters;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Undoes committed writes through their compensate methods (§4.5, step 4: "if it is COMMITTED but the
 * business needs a rollback, compensate instead of retrying"; Table 6's COMPENSATED).
 *
 * <p>A compensation is a guarded write of its own:
 *
 * <ol>
 *   <li>Only a write whose record is COMMITTED or RECONCILED_COMMITTED, of a tool that declares a
 *       compensate method, is compensated; anything else is refused before anything runs.
 *   <li>The caller leases the original key (so no recoverer acts on it meanwhile), then prepares and leases
 *       the compensation's own record under {@link CompensationKeys#of} — derived from the original key,
 *       so every request to undo one write finds the same record.
 *   <li>A compensation record already COMMITTED is not run again (a request interrupted after the
 *       compensation committed only finishes the bookkeeping); FAILED is prepared again and run; PREPARED
 *       (its runner vanished mid-call) or UNKNOWN is never re-run automatically: it is escalated.
 *   <li>The compensate method runs once. If it returns, the compensation record is COMMITTED and only then
 *       the original record moves to COMPENSATED (keeping its result hash). If it throws, the failure is
 *       classified: a failure that proves nothing was applied (T2, T4–T8) marks the compensation FAILED;
 *       any other leaves it UNKNOWN and is escalated with an evidence bundle. The original stays committed.
 * </ol>
 *
 * <p>Every request ends in one decision event (action {@code COMPENSATE} when the write was undone; {@code
 * FAIL} or {@code ESCALATE} otherwise, with the reason), counted like every decision in {@value
 * HfrMeters#DECISIONS}, and one count of {@value CompensationMeters#COMPENSATIONS}. Thread-safe: concurrent requests on one write are serialised by the
 * ledger's leases (the loser is refused with {@link Reason#KEY_IN_USE}).
 */
public final class Compensator {

  private static final String MODE_ENFORCE = "enforce";
  private static final Classification CLASSIFIER_FAILED =
      new Classification(Fault.UNCLASSIFIED, 0.0, null, -1, "classifier.error");

  private final Clock clock;
  private final IdempotencyLedger ledger;
  private final FailureClassifier classifier;
  private final DecisionSink sink;
  private final EscalationHandler escalation;
  private final CompensationMeters meters;
  private final HfrMeters decisions;
  private final Duration leaseTtl;
  private final String owner;
  private final AttemptTimeout timeouts;
  /** Numbers each request's lease owner, so two threads of this process exclude each other like two processes. */
  private final AtomicLong requests = new AtomicLong();

  /** Assembled by {@link dev.hfr.runtime.Hfr}; every argument is required. */
  public Compensator(Clock clock, IdempotencyLedger ledger, FailureClassifier classifier, DecisionSink sink,
      EscalationHandler escalation, CompensationMeters meters, HfrMeters decisions, Duration leaseTtl, String owner,
      AttemptTimeout timeouts) {
    this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.classifier = Objects.requireNonNull(classifier, "classifier");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.escalation = Objects.requireNonNull(escalation, "escalation");
    this.meters = Objects.requireNonNull(meters, "meters");
    this.decisions = Objects.requireNonNull(decisions, "decisions");
    this.leaseTtl = Objects.requireNonNull(leaseTtl, "leaseTtl");
    this.owner = Objects.requireNonNull(owner, "owner") + "-compensate";
  }

  /** The writes {@code task} committed, in commit order, each with its ledger state now. */
  public List<CommittedWrite> committedWrites(TaskState task) {
    List<CommittedWrite> out = new ArrayList<>();
    for (TaskState.CommittedCall call : task.committedWrites()) {
      LedgerState state = ledger.find(task.tenant(), call.key()).map(LedgerRecord::state).orElse(null);
      if (state != null) {
        out.add(new CommittedWrite(call.tool().name(), call.step(), call.key(), state, call.tool().compensateMethod() != null));
      }
    }
    return List.copyOf(out);
  }

  /**
   * Compensates the committed write of {@code task} whose idempotency key is {@code ledgerKey}.
   *
   * @throws CompensationException if it is not a committed write of the task, or was not undone
   */
  public Compensation compensate(TaskState task, String ledgerKey) {
    Objects.requireNonNull(ledgerKey, "ledgerKey");
    for (TaskState.CommittedCall call : task.committedWrites()) {
      if (call.key().equals(ledgerKey)) {
        return compensate(task.tenant(), task.taskId(), call.step(), call.tool(), call.invocation(), ledgerKey);
      }
    }
    LedgerState state = ledger.find(task.tenant(), ledgerKey).map(LedgerRecord::state).orElse(null);
    String tool = ledger.find(task.tenant(), ledgerKey).map(LedgerRecord::tool).orElse("(unknown tool)");
    throw new CompensationException("cannot compensate ledger key " + ledgerKey + " of " + tool + " (state "
        + (state == null ? "none" : state) + "): it is not a write committed in task " + task.taskId()
        + "; compensate it through the task that committed it, or with Hfr.compensate",
        tool, ledgerKey, state, Reason.NOT_COMPENSABLE, null);
  }

  /**
   * Compensates every write {@code task} committed, the last first (a saga's rollback). Before anything
   * runs, every write not yet COMPENSATED must be committed and have a compensate method; otherwise the
   * request is refused and nothing is undone. Writes already COMPENSATED (by an earlier, interrupted
   * rollback) are skipped, so asking again after a failure resumes where it stopped.
   *
   * @return the compensations made, in the order they ran
   * @throws CompensationException on the first write that could not be undone (those after it in the
   *     rollback stay committed; those before it stay compensated)
   */
  public List<Compensation> compensateAll(TaskState task) {
    List<TaskState.CommittedCall> writes = new ArrayList<>(task.committedWrites());
    List<TaskState.CommittedCall> pending = new ArrayList<>();
    for (int i = writes.size() - 1; i >= 0; i--) {
      TaskState.CommittedCall call = writes.get(i);
      LedgerRecord record = ledger.find(task.tenant(), call.key()).orElse(null);
      if (record != null && record.state() == LedgerState.COMPENSATED) {
        continue;
      }
      refuseUnlessCompensable(task.tenant(), task.taskId(), call.step(), call.tool(), call.key(), record);
      pending.add(call);
    }
    List<Compensation> done = new ArrayList<>(pending.size());
    for (TaskState.CommittedCall call : pending) {
      done.add(compensate(task.tenant(), task.taskId(), call.step(), call.tool(), call.invocation(), call.key()));
    }
    return List.copyOf(done);
  }

  /**
   * Compensates the committed write of {@code tool} under {@code ledgerKey} in {@code tenant}, through
   * {@code invocation}'s compensate hook (the call's own arguments).
   *
   * @throws CompensationException if the write was not undone (the message names tool, key and state)
   */
  public Compensation compensate(String tenant, String taskId, long step, ToolDescriptor tool,
      ToolInvocation<?> invocation, String ledgerKey) {
    Request req = new Request(tenant, taskId, step, tool, ledgerKey);
    LedgerRecord original = ledger.find(tenant, ledgerKey).orElse(null);
    if (original != null) {
      req.argsHash = original.argsHash();
    }
    refuseUnlessCompensable(tenant, taskId, step, tool, ledgerKey, original);
    String requestOwner = owner + "#" + requests.incrementAndGet();
    Optional<Lease> originalLease = ledger.acquireLease(tenant, ledgerKey, requestOwner, leaseTtl);
    if (originalLease.isEmpty()) {
      throw refuse(req, original.state(), Reason.KEY_IN_USE, "another recoverer holds the lease on it right now; ask again once it is released");
    }
    try {
      // Read again under the lease: the state may have moved since the check above.
      original = ledger.find(tenant, ledgerKey).orElseThrow();
      refuseUnlessCompensable(tenant, taskId, step, tool, ledgerKey, original);
      return compensateLeased(req, invocation, original, originalLease.get(), requestOwner);
    } finally {
      ledger.releaseLease(originalLease.get());
    }
  }

  private Compensation compensateLeased(Request req, ToolInvocation<?> invocation, LedgerRecord original, Lease originalLease,
      String requestOwner) {
    String compensationKey = CompensationKeys.of(req.key);
    String compensator = compensatorName(req.tool);
    // Only the holder of the original key's lease gets here, so a record this request did not find is its own.
    Optional<LedgerRecord> existing = ledger.find(req.tenant, compensationKey);
    LedgerRecord record = existing.isPresent() ? existing.get()
        : ledger.prepare(req.tenant, compensationKey, compensator, original.argsHash());
    Optional<Lease> lease = ledger.acquireLease(req.tenant, compensationKey, requestOwner, leaseTtl);
    if (lease.isEmpty()) {
      throw refuse(req, original.state(), Reason.KEY_IN_USE,
          "its compensation " + compensator + " (key " + compensationKey + ") is running elsewhere right now");
    }
    try {
      long token = lease.get().fencingToken();
      boolean alreadyApplied = false;
      LedgerState state = record.state();
      if (existing.isPresent()) {
        switch (state) {
          case COMMITTED:
          case RECONCILED_COMMITTED:
            // An earlier request ran it to its commit and stopped before marking the write: finish that.
            alreadyApplied = true;
            break;
          case FAILED:
          case RECONCILED_ABSENT:
            // The compensation was refused (nothing undone) last time: it may run again.
            ledger.transition(req.tenant, compensationKey, state, LedgerState.PREPARED, null, token);
            break;
          case PREPARED:
            // Its runner vanished mid-call (we could take its lease): it may have happened.
            ledger.transition(req.tenant, compensationKey, LedgerState.PREPARED, LedgerState.UNKNOWN, null, token);
            throw unknown(req, original.state(), null, null, compensationKey,
                "an earlier run of its compensation " + compensator + " stopped mid-call");
          case UNKNOWN:
            throw unknown(req, original.state(), null, null, compensationKey,
                "an earlier run of its compensation " + compensator + " ended with an unknown outcome");
          default:
            throw refuse(req, original.state(), Reason.NOT_COMPENSABLE,
                "its compensation record (key " + compensationKey + ") is " + state);
        }
      }
      if (!alreadyApplied) {
        runCompensation(req, invocation, original, compensationKey, token);
      }
      LedgerRecord undone = ledger.transition(req.tenant, req.key, original.state(), LedgerState.COMPENSATED, null,
          originalLease.fencingToken());
      record(req, Action.COMPENSATE, Reason.COMPENSATED, alreadyApplied ? 0 : 1, null, undone.state());
      meters.record(req.tool.name(), CompensationMeters.Outcome.COMPENSATED);
      return new Compensation(req.tool.name(), req.tool.compensateMethod(), req.step, req.key, compensationKey, alreadyApplied);
    } finally {
      ledger.releaseLease(lease.get());
    }
  }

  /** Runs the compensate method once and checkpoints its record; throws if it did not commit. */
  private void runCompensation(Request req, ToolInvocation<?> invocation, LedgerRecord original, String compensationKey,
      long token) {
    long t0 = clock.nanoTime();
    try {
      timeouts.compensate(req.tool, invocation);
    } catch (Exception e) {
      req.latencyNanos = clock.nanoTime() - t0;
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (e instanceof UnsupportedOperationException && thrownBy(e, ToolInvocation.class)) {
        // The invocation never implemented the hook: nothing ran.
        ledger.transition(req.tenant, compensationKey, LedgerState.PREPARED, LedgerState.FAILED, null, token);
        throw refuse(req, original.state(), Reason.NOT_COMPENSABLE, "its invocation (" + invocation.getClass().getName()
            + ") does not implement compensate(), although the tool names " + req.tool.compensateMethod());
      }
      Classification cls = classify(e, req.latencyNanos);
      Fault fault = cls.confidence() < Controller.MIN_CONFIDENCE ? Fault.UNCLASSIFIED : cls.fault();
      if (ActionTable.provesNotApplied(fault, cls)) {
        ledger.transition(req.tenant, compensationKey, LedgerState.PREPARED, LedgerState.FAILED, null, token);
        record(req, Action.FAIL, Reason.COMPENSATION_FAILED, 1, cls, original.state());
        meters.record(req.tool.name(), CompensationMeters.Outcome.FAILED);
        throw new CompensationException("compensation " + compensatorName(req.tool) + " of " + describe(req)
            + " was refused (" + fault + ", " + e.getClass().getSimpleName() + "): nothing was undone, the write stays "
            + original.state() + "; asking again runs the compensation again", req.tool.name(), req.key, original.state(),
            Reason.COMPENSATION_FAILED, e);
      }
      ledger.transition(req.tenant, compensationKey, LedgerState.PREPARED, LedgerState.UNKNOWN, null, token);
      throw unknown(req, original.state(), cls, e, compensationKey,
          "compensation " + compensatorName(req.tool) + " failed with " + fault + " (" + e.getClass().getSimpleName()
              + "), which does not prove nothing was undone");
    }
    req.latencyNanos = clock.nanoTime() - t0;
    // The compensation is a write of its own: checkpoint its commit before touching the original record.
    ledger.transition(req.tenant, compensationKey, LedgerState.PREPARED, LedgerState.COMMITTED, null, token);
  }

  /** Refuses (with an event and a count) unless {@code record} is a committed write of a compensable tool. */
  private void refuseUnlessCompensable(String tenant, String taskId, long step, ToolDescriptor tool, String key,
      LedgerRecord record) {
    Request req = new Request(tenant, taskId, step, tool, key);
    if (record == null) {
      throw refuse(req, null, Reason.NOT_COMPENSABLE, "the ledger of tenant " + tenant + " holds no record under this key");
    }
    req.argsHash = record.argsHash();
    if (!record.tool().equals(tool.name())) {
      throw refuse(req, record.state(), Reason.NOT_COMPENSABLE, "the key belongs to a write of " + record.tool());
    }
    if (tool.compensateMethod() == null) {
      throw refuse(req, record.state(), Reason.NOT_COMPENSABLE, "the tool declares no compensate method; add one with"
          + " @SideEffect(compensate = \"...\"), or escalate the committed effect to a human");
    }
    if (record.state() == LedgerState.COMPENSATED) {
      throw refuse(req, record.state(), Reason.NOT_COMPENSABLE, "it is already COMPENSATED");
    }
    if (!record.state().isCommitted()) {
      throw refuse(req, record.state(), Reason.NOT_COMPENSABLE, "only a COMMITTED (or RECONCILED_COMMITTED) write is"
          + " compensated" + (record.state().needsReconcile() ? "; reconcile it first" : ""));
    }
  }

  private CompensationException refuse(Request req, LedgerState state, Reason reason, String why) {
    record(req, Action.FAIL, reason, 0, null, state);
    meters.record(req.tool.name(), CompensationMeters.Outcome.REFUSED);
    return new CompensationException("cannot compensate " + describe(req) + " (state " + (state == null ? "none" : state)
        + "): " + why, req.tool.name(), req.key, state, reason, null);
  }

  /** The compensation's outcome is unknown: escalate, never re-run. */
  private CompensationException unknown(Request req, LedgerState originalState, Classification cls, Exception error,
      String compensationKey, String what) {
    DecisionEvent event = record(req, Action.ESCALATE, Reason.COMPENSATION_UNKNOWN, error == null ? 0 : 1, cls, originalState);
    meters.record(req.tool.name(), CompensationMeters.Outcome.UNKNOWN);
    String message = what + " for " + describe(req) + " (state " + originalState + "): whether it was undone is unknown, so"
        + " the compensation (key " + compensationKey + ", UNKNOWN) is not run again automatically; a human must check";
    CompensationException refusal = new CompensationException(message, req.tool.name(), req.key, originalState,
        Reason.COMPENSATION_UNKNOWN, error);
    try {
      escalation.escalate(new EvidenceBundle(req.tenant, req.taskId, req.step, req.tool.name(), req.tool.risk(),
          req.tool.criticality(), event.fault(), Reason.COMPENSATION_UNKNOWN, error == null ? 0 : 1, req.argsHash(),
          req.key, originalState.name(), error == null ? null : error.getClass().getName(), null, null,
          "check whether " + compensatorName(req.tool) + " undid the write (compensation key " + compensationKey + ")",
          List.of(event)));
    } catch (Exception e) {
      refusal.addSuppressed(e);
    }
    return refusal;
  }

  private Classification classify(Exception e, long latencyNanos) {
    try {
      Classification cls = classifier.classify(Observation.builder().exception(e).latency(Duration.ofNanos(latencyNanos)).build());
      return cls == null ? CLASSIFIER_FAILED : cls;
    } catch (RuntimeException failed) {
      // A failing classifier must not hide the failure: unclassified is handled as an unknown outcome.
      return CLASSIFIER_FAILED;
    }
  }

  private DecisionEvent record(Request req, Action action, Reason reason, int attempt, Classification cls, LedgerState state) {
    Fault fault = cls == null ? null : cls.confidence() < Controller.MIN_CONFIDENCE ? Fault.UNCLASSIFIED : cls.fault();
    DecisionEvent event = new DecisionEvent(
        clock.epochMillis(),
        MODE_ENFORCE,
        req.tenant,
        req.taskId,
        req.step,
        req.tool.name(),
        req.tool.risk(),
        attempt,
        DegradeLevel.L0,
        fault,
        cls == null ? 0.0 : cls.confidence(),
        cls == null ? "compensate." + (req.tool.compensateMethod() == null ? "none" : req.tool.compensateMethod()) : cls.rule(),
        action,
        reason,
        0L,
        req.latencyNanos / 1_000_000L,
        0,
        -1,
        null,
        req.argsHash(),
        null,
        req.key,
        state == null ? null : state.name());
    decisions.forTool(req.tool).decision(action, false);
    if (sink.wantsEvents()) {
      try {
        sink.record(event);
      } catch (Exception e) {
        decisions.sinkFailure();
      }
    }
    return event;
  }

  private static String describe(Request req) {
    return req.tool.name() + " (ledger key " + req.key + ", tenant " + req.tenant + ")";
  }

  /** {@code SimpleClass.compensateMethod}: the compensation's name in its ledger record. */
  private static String compensatorName(ToolDescriptor tool) {
    String cls = tool.toolClass().substring(tool.toolClass().lastIndexOf('.') + 1);
    return cls + "." + tool.compensateMethod();
  }

  private static boolean thrownBy(Throwable t, Class<?> type) {
    StackTraceElement[] trace = t.getStackTrace();
    return trace.length > 0 && trace[0].getClassName().equals(type.getName());
  }

  /** One compensation request: who, what, and what it measured so far. */
  private static final class Request {
    final String tenant;
    final String taskId;
    final long step;
    final ToolDescriptor tool;
    final String key;
    String argsHash;
    long latencyNanos;

    Request(String tenant, String taskId, long step, ToolDescriptor tool, String key) {
      this.tenant = tenant;
      this.taskId = taskId;
      this.step = step;
      this.tool = tool;
      this.key = key;
    }

    String argsHash() {
      return argsHash == null ? "unknown" : argsHash;
    }
  }
}
