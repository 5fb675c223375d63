package dev.hfr.runtime.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.approval.ApprovalDecision;
import dev.hfr.runtime.approval.ApprovalGate;
import dev.hfr.runtime.approval.ApprovalRequest;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.classify.Observation;
import dev.hfr.runtime.degrade.ContextCompressor;
import dev.hfr.runtime.degrade.DegradationLadder;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.StaleFencingTokenException;
import dev.hfr.runtime.retry.Backoff;
import dev.hfr.runtime.retry.RetryGate;
import dev.hfr.runtime.retry.RetryRequest;
import dev.hfr.runtime.retry.RetryVerdict;
import dev.hfr.runtime.retry.StopReason;
import dev.hfr.runtime.telemetry.CallTiming;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.telemetry.ToolMeters;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import dev.hfr.runtime.verify.ResultVerification;
import dev.hfr.runtime.verify.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

/**
 * The HFR controller: runs one tool call through the state machine of Table 9 — observe, classify,
 * check, decide, act, verify, record — and ends it with an accepted result or a {@link ToolCallException}
 * carrying the structured {@link ToolOutcome}.
 *
 * <p>Its rules, in the order they apply:
 *
 * <ul>
 *   <li>Every decision starts from {@link ActionTable#defaultAction}; the checks (the {@link RetryGate}'s
 *       stop conditions, budgets, deadline, breaker, ladder, criticality) only make it more conservative.
 *   <li>Writes (R1–R3) get their ledger record, keyed by {@link IdempotencyKeys#key}, before the first
 *       attempt; R1 methods get that key on every attempt. A failure that does not prove the write was
 *       not applied marks the record UNKNOWN before anything else happens, and an UNKNOWN write is only
 *       ever resent after reconciliation found it absent. R3 methods are never resent.
 *   <li>A policy refusal (T8, an approval denial) is escalated and never degraded around.
 *   <li>Results are accepted only after verification at the method's level and the quality floor.
 *   <li>If the controller itself fails, reads fail open (the tool is called as if HFR were absent) and
 *       writes fail closed (no further attempt; the call is escalated) — §4.1.
 * </ul>
 *
 * <p>Thread-safe: one controller serves all calls; per-call state lives in a {@link Call}.
 */
public final class Controller {

  private static final Classification BLIND = new Classification(Fault.UNCLASSIFIED, 0.0, null, -1, "classification.disabled");
  private static final Classification CLASSIFIER_FAILED = new Classification(Fault.UNCLASSIFIED, 0.0, null, -1, "classifier.error");
  private static final Classification APPROVAL_DENIED = new Classification(Fault.T8, 1.0, null, -1, "approval.denied");
  private static final Classification LEDGER_UNKNOWN = new Classification(Fault.T3, 1.0, null, -1, "ledger.unknown");
  private static final Classification[] VERIFY_REJECTED = verifyRejected();
  /** Classifications less sure than this are handled conservatively, as UNCLASSIFIED. */
  static final double MIN_CONFIDENCE = 0.5;
  private static final String MODE_ENFORCE = "enforce";
  private static final String MODE_SHADOW = "shadow";

  private final Clock clock;
  private final Sleeper sleeper;
  private final RandomGenerator random;
  private final FailureClassifier classifier;
  private final IdempotencyLedger ledger;
  private final HfrMeters meters;
  private final DecisionSink sink;
  private final EscalationHandler escalation;
  private final ApprovalGate approval;
  private final HfrFeatures features;
  private final RetryGate gate;
  private final Backoff backoff;
  private final ContextCompressor compressor;
  private final ResultVerification verification;
  private final Duration leaseTtl;
  private final WriteClaims claims;
  private final long maxRetryAfterMillis;
  private final String owner;
  private final CircuitBreakers breakers;
  private final Bulkheads bulkheads;
  private final PolicySource policies;
  private final CallTiming callTiming;
  private final ConcurrentHashMap<ToolDescriptor, ToolRuntime> runtimes = new ConcurrentHashMap<>();

  /**
   * Assembled by {@link dev.hfr.runtime.Hfr}; every argument is required except {@code breakers} and
   * {@code bulkheads} ({@code null}: none).
   */
  public Controller(Clock clock, Sleeper sleeper, RandomGenerator random, FailureClassifier classifier,
      IdempotencyLedger ledger, HfrMeters meters, DecisionSink sink, EscalationHandler escalation, ApprovalGate approval,
      HfrFeatures features, RetryGate gate, Backoff backoff, ContextCompressor compressor, ResultVerification verification,
      Duration leaseTtl, Duration maxRetryAfter, String owner, CircuitBreakers breakers, Bulkheads bulkheads,
      PolicySource policies, CallTiming callTiming) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.random = Objects.requireNonNull(random, "random");
    this.classifier = Objects.requireNonNull(classifier, "classifier");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.meters = Objects.requireNonNull(meters, "meters");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.escalation = Objects.requireNonNull(escalation, "escalation");
    this.approval = Objects.requireNonNull(approval, "approval");
    this.features = Objects.requireNonNull(features, "features");
    this.gate = Objects.requireNonNull(gate, "gate");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.compressor = Objects.requireNonNull(compressor, "compressor");
    this.verification = Objects.requireNonNull(verification, "verification");
    this.leaseTtl = Objects.requireNonNull(leaseTtl, "leaseTtl");
    this.claims = new WriteClaims(ledger, clock, sleeper, leaseTtl, Objects.requireNonNull(owner, "owner"));
    this.maxRetryAfterMillis = maxRetryAfter.toMillis();
    this.owner = Objects.requireNonNull(owner, "owner");
    this.breakers = features.circuitBreaker() ? breakers : null;
    this.bulkheads = features.circuitBreaker() ? bulkheads : null;
    this.policies = Objects.requireNonNull(policies, "policies");
    this.callTiming = Objects.requireNonNull(callTiming, "callTiming");
  }

  /** What is resolved once per descriptor: meters, breakers, policies. */
  private ToolRuntime runtime(ToolDescriptor tool) {
    ToolRuntime rt = runtimes.get(tool);
    return rt != null ? rt : runtimes.computeIfAbsent(tool,
        t -> new ToolRuntime(t, meters, breakers, bulkheads, policies, new TimingSampler(callTiming, clock.nanoTime())));
  }

  // ---------------------------------------------------------------------------------------------
  // Enforce

  /**
   * Runs {@code invocation} under HFR within {@code task}.
   *
   * @throws ToolCallException when no accepted result could be had safely
   */
  public <R> R execute(ToolDescriptor tool, ToolInvocation<R> invocation, TaskState task) {
    if (tool.risk() == Risk.R0 && !tool.requiresApproval()) {
      return executeRead(tool, invocation, task, null);
    }
    Call<R> c;
    try {
      ToolRuntime rt = runtime(tool);
      Criticality.Level criticality = effectiveCriticality(task.criticality(), tool.criticality());
      ToolRuntime.TenantView view = rt.tenant(task.tenant());
      CallPolicy policy = rt.policy(task.tenant(), view, criticality);
      c = new Call<>(rt, invocation, task, view, policy, task.nextStep(), clock.nanoTime());
    } catch (RuntimeException e) {
      return unavailable(tool, invocation, e);
    }
    return drive(c, ControllerState.INIT);
  }

  /** Runs the state machine from {@code from}; a failure of the engine itself takes §4.1's fallback. */
  private <R> R drive(Call<R> c, ControllerState from) {
    try {
      return run(c, from);
    } catch (ToolCallException e) {
      throw e;
    } catch (LostKey e) {
      throw lostKey(c, e);
    } catch (RuntimeException | LinkageError | AssertionError e) {
      return controllerFailed(c, e);
    }
  }

  /**
   * Runs {@code invocation} under HFR outside any task scope: like {@link #execute} on a fresh one-call
   * task, which is created only when the call leaves the clean path.
   *
   * @throws ToolCallException when no accepted result could be had safely
   */
  public <R> R executeOutsideTask(ToolDescriptor tool, ToolInvocation<R> invocation, ImplicitTasks tasks) {
    if (tool.risk() != Risk.R0 || tool.requiresApproval()) {
      return execute(tool, invocation, tasks.next());
    }
    return executeRead(tool, invocation, null, tasks);
  }

  /**
   * A read (R0, no approval) in {@code task}, or outside any scope ({@code task == null}, one-call tasks
   * from {@code tasks}). The clean read — first attempt answered and verified — runs inline without a
   * {@link Call}: INIT's admission, RUN_STEP, OBSERVE, VERIFY and ACCEPT on locals. Anything else (a
   * task limit, a failure, a rejection, an open breaker) creates the call with the state reached, and the
   * state machine continues from there, so behaviour is that of {@link #drive} from INIT. Outside a scope
   * not even the task is created, and the call may go untimed ({@link TimingSampler}).
   */
  private <R> R executeRead(ToolDescriptor tool, ToolInvocation<R> invocation, TaskState task, ImplicitTasks tasks) {
    ToolRuntime rt;
    ToolRuntime.TenantView view;
    CallPolicy policy;
    CircuitBreaker breaker;
    VerifyLevel level;
    boolean timed;
    long start;
    long step = 0;
    try {
      rt = runtime(tool);
      String tenant = task != null ? task.tenant() : tasks.tenant();
      Criticality.Level criticality = effectiveCriticality(task != null ? task.criticality() : null, tool.criticality());
      view = rt.tenant(tenant);
      policy = rt.policy(tenant, view, criticality);
      breaker = view.breakers == null ? null : view.breakers[0];
      level = features.verification() ? policy.verifyLevel() : null;
      // A task's calls are always timed; verification above V0 may take real time of its own; and a
      // latency threshold needs every latency.
      timed = task != null || rt.timing.shouldTime() || (level != null && level != VerifyLevel.V0)
          || (breaker != null && breaker.needsLatency());
      start = timed ? clock.nanoTime() : rt.timing.lastReading();
      if (task != null) {
        step = task.nextStep();
      }
    } catch (RuntimeException e) {
      return unavailable(tool, invocation, e);
    }
    // The locals mirror the fields of Call that INIT, RUN_STEP, OBSERVE and VERIFY set on a read.
    R result = null;
    boolean hasResult = false;
    if (task != null) {
      // INIT's admission; a refusal takes the state machine's way out, with the refusal already counted.
      TaskLimit refusal;
      try {
        refusal = admit(task, tool, false, false, start);
      } catch (RuntimeException e) {
        return unavailable(tool, invocation, e);
      }
      if (refusal != null) {
        Call<R> refused = new Call<>(rt, invocation, task, view, policy, step, start);
        refused.refusal = refusal;
        return drive(refused, ControllerState.INIT);
      }
    }
    Call<R> c;
    ControllerState next;
    try {
      // RUN_STEP on the method itself (a read: no ledger key).
      Bulkhead bulkhead = features.circuitBreaker() ? rt.bulkhead(-1) : null;
      Reason blocked = null;
      if (breaker != null && !breaker.tryAcquire()) {
        blocked = Reason.CIRCUIT_OPEN;
      } else if (bulkhead != null && !bulkhead.tryAcquire(policy.criticality() == Criticality.Level.HIGH)) {
        if (breaker != null) {
          breaker.releasePermit();
        }
        blocked = Reason.BULKHEAD_FULL;
      }
      if (blocked != null) {
        c = leaveInline(rt, invocation, task, tasks, view, policy, step, timed ? start : clock.nanoTime());
        c.blocked = blocked;
        next = ControllerState.CHECK;
      } else {
        Exception error = null;
        try {
          result = invocation.proceed(null);
          hasResult = true;
        } catch (Exception e) {
          if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
          }
          error = e;
        } finally {
          if (bulkhead != null) {
            bulkhead.release();
          }
        }
        if (!hasResult) {
          long now = clock.nanoTime();
          c = leaveInline(rt, invocation, task, tasks, view, policy, step, timed ? start : now);
          c.attempts = 1;
          c.error = error;
          c.lastLatencyNanos = timed ? now - start : 0; // an untimed call failed in microseconds at most
          c.lastAttemptEndNanos = now;
          next = ControllerState.CLASSIFY;
        } else {
          // OBSERVE and VERIFY. A timed call reads the clock once more when it ends, or twice when a
          // verification above V0 ran (the attempt's latency excludes it); the permits' nanoseconds count
          // as the attempt's.
          boolean verifyTakesTime = level != null && level != VerifyLevel.V0;
          long attemptEnd = verifyTakesTime ? clock.nanoTime() : 0;
          ResultVerification.Result v = level == null ? null : verification.verify(tool, level, result);
          long end = timed ? clock.nanoTime() : rt.timing.lastReading();
          if (!verifyTakesTime) {
            attemptEnd = end;
          }
          long latency = timed ? attemptEnd - start : 0;
          if (breaker != null) {
            breaker.onSuccess(latency, attemptEnd);
          }
          double floor = task == null || Double.isNaN(task.qualityFloor()) ? policy.qualityFloor() : task.qualityFloor();
          if (v == null || (v.accepted() && !v.verificationRequired() && v.verdict().quality() >= floor)) {
            // ACCEPT. Outside a scope only the meters: nobody can ask for the outcome.
            if (task != null) {
              task.onCallEnd(rt.cleanReadOutcome, false);
            }
            if (timed) {
              rt.meters.cleanCall(end - start);
              rt.timing.timed(start, end);
            } else {
              rt.meters.cleanCall();
            }
            return result;
          }
          rt.meters.attempt(null, true);
          if (!timed) {
            start = clock.nanoTime();
            end = start;
            attemptEnd = start;
          }
          c = leaveInline(rt, invocation, task, tasks, view, policy, step, start);
          c.result = result;
          c.hasResult = true;
          c.attempts = 1;
          c.lastLatencyNanos = latency;
          c.lastAttemptEndNanos = attemptEnd;
          c.verifyNanos = end - attemptEnd;
          c.state = ControllerState.VERIFY;
          next = verified(c, level, v);
        }
      }
    } catch (RuntimeException | LinkageError | AssertionError e) {
      // §4.1 for a read, exactly as controllerFailed: fail open with the result if there is one.
      rt.meters.controllerFailure(true);
      if (hasResult) {
        return result;
      }
      try {
        return invocation.proceed(null);
      } catch (Exception failure) {
        throw Sneaky.<RuntimeException>rethrow(failure);
      }
    }
    return drive(c, next);
  }

  /**
   * The call of a read that left the inline path, as INIT would have set it up: in its task (admitted
   * already), or in a new implicit task.
   */
  private <R> Call<R> leaveInline(ToolRuntime rt, ToolInvocation<R> invocation, TaskState task, ImplicitTasks tasks,
      ToolRuntime.TenantView view, CallPolicy policy, long step, long start) {
    if (task != null) {
      return new Call<>(rt, invocation, task, view, policy, step, start);
    }
    TaskState implicit = tasks.next();
    implicit.onCallStart(false);
    return new Call<>(rt, invocation, implicit, view, policy, implicit.nextStep(), start);
  }

  /**
   * INIT's admission of a call into its task: counts it, and checks the task's limits at {@code nowNanos}
   * (the call's start). Returns the limit that refuses the call, or {@code null}.
   */
  private TaskLimit admit(TaskState task, ToolDescriptor tool, boolean write, boolean highRisk, long nowNanos) {
    task.onCallStart(highRisk);
    return features.budgets() && task.limits() != null ? task.limits().beforeToolCall(tool.name(), write, nowNanos) : null;
  }

  private <R> R run(Call<R> c, ControllerState from) {
    ControllerState s = from;
    while (true) {
      c.state = s;
      switch (s) {
        case INIT:
          s = init(c);
          break;
        case RUN_STEP:
          s = runStep(c);
          break;
        case OBSERVE:
          s = observe(c);
          break;
        case CLASSIFY:
          s = classify(c);
          break;
        case CHECK:
          s = check(c);
          break;
        case DECIDE:
          s = decide(c);
          break;
        case RETRY_WAIT:
          s = retryWait(c);
          break;
        case RECONCILE:
          s = reconcile(c);
          break;
        case COMPRESS:
          s = compress(c);
          break;
        case DEGRADE:
          s = degrade(c);
          break;
        case VERIFY:
          s = verify(c);
          break;
        case ACCEPT:
          return accept(c);
        case REPLAN:
        case ESCALATE:
        case FAIL:
          throw terminate(c, s);
        default:
          throw new IllegalStateException("no transition from " + s);
      }
    }
  }

  /** INIT: task limits, approval, the ledger record of a write. */
  private <R> ControllerState init(Call<R> c) {
    // A read admitted on the inline path arrives here only when its task refused it.
    TaskLimit limit = c.refusal != null ? c.refusal
        : admit(c.task, c.tool, c.write(), c.risk.compareTo(Risk.R2) >= 0 || c.tool.requiresApproval(), c.startNanos);
    if (limit != null) {
      c.rt.meters.retryBudgetExhausted(Reason.TASK_LIMIT_REACHED);
      if (limit == TaskLimit.SAME_TOOL_CALLS) {
        return settle(c, Action.REPLAN, Reason.REPEATED_ACTION);
      }
      return settle(c, Action.FAIL, Reason.TASK_LIMIT_REACHED);
    }
    if (c.tool.requiresApproval() && !approved(c)) {
      c.classification = APPROVAL_DENIED;
      c.fault = Fault.T8;
      return settle(c, Action.ESCALATE, Reason.APPROVAL_DENIED);
    }
    if (c.write() && features.idempotency()) {
      return prepareWrite(c);
    }
    return ControllerState.RUN_STEP;
  }

  private boolean approved(Call<?> c) {
    ApprovalDecision d;
    try {
      d = approval.review(new ApprovalRequest(c.task.tenant(), c.task.taskId(), c.step, c.tool.name(), c.risk, argsHash(c)));
    } catch (Exception e) {
      d = null;
    }
    boolean ok = d != null && d.approved();
    c.rt.meters.approval(ok);
    return ok;
  }

  /**
   * The write's ledger record before its first attempt (§4.5), and what an existing record means. Only a
   * call that created the record or took it over under its own lease sends (see {@link WriteClaims}).
   */
  private <R> ControllerState prepareWrite(Call<R> c) {
    TaskState task = c.task;
    List<Object> args = IdempotencyKeys.arguments(c.tool, c.invocation);
    c.argsHash = IdempotencyKeys.argsHash(args);
    c.key = claims.key(task, c.tool.name(), args, c.argsHash, c.step);
    WriteClaims.Claim claim = claims.claim(task.tenant(), c.key, c.tool.name(), c.argsHash, task.deadline());
    c.ledgerState = claim.record().state();
    switch (claim.kind()) {
      case CREATED:
        hold(c, claim.lease());
        return ControllerState.RUN_STEP;
      case COMMITTED:
        return alreadyCommitted(c);
      case COMPENSATED:
        // The effect was undone; whether to do it again is the business's call.
        return settle(c, Action.ESCALATE, Reason.ALREADY_COMMITTED);
      case IN_USE:
        // Another recoverer kept acting on this very write for a whole lease: doing anything would race it.
        c.error = claims.inUse(claim);
        c.suggestion = c.error.getMessage();
        return settle(c, Action.FAIL, Reason.KEY_IN_USE);
      default:
        break;
    }
    hold(c, claim.lease());
    switch (c.ledgerState) {
      case PREPARED:
        // A previous run prepared this write and vanished (its lease lapsed): it may have happened.
        transition(c, LedgerState.UNKNOWN, null);
        c.classification = LEDGER_UNKNOWN;
        c.fault = Fault.T3;
        return settle(c, Action.RECONCILE, Reason.TIMEOUT_UNKNOWN_STATE);
      case UNKNOWN:
        c.classification = LEDGER_UNKNOWN;
        c.fault = Fault.T3;
        return settle(c, Action.RECONCILE, Reason.TIMEOUT_UNKNOWN_STATE);
      default:
        // FAILED or RECONCILED_ABSENT: nothing was applied; prepared again under this call's lease.
        transition(c, LedgerState.PREPARED, null);
        return ControllerState.RUN_STEP;
    }
  }

  /** The call holds {@code lease} from now on, renewed by the heartbeat until {@link #releaseHeld}. */
  private void hold(Call<?> c, Lease lease) {
    c.lease = lease;
    c.heartbeat = LeaseHeartbeat.start(ledger, lease, leaseTtl);
  }

  /** Stops renewing and releases the call's lease, if it holds one; never throws (every exit path runs it). */
  private void releaseHeld(Call<?> c) {
    LeaseHeartbeat.Beat beat = c.heartbeat;
    c.heartbeat = null;
    Lease lease = beat != null ? beat.stop() : c.lease;
    c.lease = null;
    if (lease != null) {
      try {
        ledger.releaseLease(lease);
      } catch (RuntimeException unreachable) {
        // The lease then lapses by itself within one TTL (no heartbeat renews it any more).
      }
    }
  }

  /** The ledger holds the write as committed: it is never executed again (§5.4). */
  private <R> ControllerState alreadyCommitted(Call<R> c) {
    c.alreadyCommitted = true;
    if (c.risk == Risk.R1 && c.tool.reconcileMethod() == null) {
      // The service answers a known key with the committed result, without a second effect (Proposition 2).
      return ControllerState.RUN_STEP;
    }
    if (c.tool.reconcileMethod() != null) {
      try {
        Optional<R> committed = c.invocation.reconcile();
        if (committed.isPresent()) {
          c.result = committed.get();
          c.hasResult = true;
          c.resultFromReconcile = true;
          c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
          return ControllerState.VERIFY;
        }
      } catch (Exception e) {
        c.error = e;
      }
      // The ledger says committed and the world does not confirm it: a human must look.
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.UNKNOWN);
      return settle(c, Action.ESCALATE, Reason.RECONCILE_UNKNOWN);
    }
    return settle(c, Action.FAIL, Reason.ALREADY_COMMITTED);
  }

  /** RUN_STEP: one physical attempt on the current rung, if its breaker and bulkhead let it through. */
  private <R> ControllerState runStep(Call<R> c) {
    CircuitBreaker breaker = c.breaker();
    if (breaker != null && !breaker.tryAcquire()) {
      c.blocked = Reason.CIRCUIT_OPEN;
      return ControllerState.CHECK;
    }
    Bulkhead bulkhead = features.circuitBreaker() ? c.rt.bulkhead(c.rung) : null;
    if (bulkhead != null && !bulkhead.tryAcquire(c.criticality == Criticality.Level.HIGH)) {
      if (breaker != null) {
        breaker.releasePermit();
      }
      c.blocked = Reason.BULKHEAD_FULL;
      return ControllerState.CHECK;
    }
    c.blocked = null;
    c.attempts++;
    long t0 = clock.nanoTime();
    try {
      R r = c.rung < 0 ? c.invocation.proceed(c.tool.risk() == Risk.R1 ? c.key : null) : c.invocation.degrade(c.rung);
      c.result = r;
      c.hasResult = true;
      c.error = null;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      c.result = null;
      c.hasResult = false;
      c.error = e;
    } finally {
      c.lastAttemptEndNanos = clock.nanoTime();
      c.lastLatencyNanos = c.lastAttemptEndNanos - t0;
      if (bulkhead != null) {
        bulkhead.release();
      }
    }
    return ControllerState.OBSERVE;
  }

  /** OBSERVE: feed the breaker and the meters; a returned write is committed in the ledger at once. */
  private <R> ControllerState observe(Call<R> c) {
    CircuitBreaker breaker = c.breaker();
    if (c.hasResult) {
      if (breaker != null) {
        breaker.onSuccess(c.lastLatencyNanos, c.lastAttemptEndNanos);
      }
      c.rt.meters.attempt(null, true);
      if (c.key != null && !c.alreadyCommitted) {
        if (c.ledgerState == LedgerState.UNKNOWN) {
          // An R1 write resent under its key (no reconcile method): the provider answered the key, so the
          // write is committed — once, whichever attempt carried it (Table 7).
          transition(c, LedgerState.RECONCILED_COMMITTED, IdempotencyKeys.resultHash(c.result));
          c.resultFromReconcile = true;
          c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
        } else {
          // The tool confirmed the effect: checkpoint COMMITTED with its evidence before anything else.
          transition(c, LedgerState.COMMITTED, IdempotencyKeys.resultHash(c.result));
        }
      }
      return ControllerState.VERIFY;
    }
    return ControllerState.CLASSIFY;
  }

  /** CLASSIFY: the failure's F2D-9 class. */
  private <R> ControllerState classify(Call<R> c) {
    Classification previous = c.classification;
    Classification cls;
    if (!features.classification()) {
      cls = BLIND;
    } else {
      try {
        cls = classifier.classify(Observation.builder()
            .exception(c.error)
            .latency(Duration.ofNanos(c.lastLatencyNanos))
            .build());
        if (cls == null) {
          cls = CLASSIFIER_FAILED;
        }
      } catch (RuntimeException e) {
        // A failing classifier rule must not hide the failure: fall back to the conservative path.
        cls = CLASSIFIER_FAILED;
      }
    }
    c.classification = cls;
    // A guess is not a diagnosis: below this confidence the failure is handled as unclassified (§4.2).
    c.fault = cls.confidence() < MIN_CONFIDENCE ? Fault.UNCLASSIFIED : cls.fault();
    CircuitBreaker breaker = c.breaker();
    if (breaker != null) {
      breaker.onFailure(c.fault, c.lastLatencyNanos);
    }
    c.rt.meters.attempt(c.fault, false);
    boolean newEvidence = previous == null || previous.fault() != cls.fault() || !previous.rule().equals(cls.rule());
    c.history().recordFailure(c.fault, newEvidence);
    if (c.key != null && c.ledgerState == LedgerState.PREPARED && !ActionTable.provesNotApplied(c.fault)
        && c.risk != Risk.R1 && !c.alreadyCommitted) {
      // The write may have happened: record that before deciding anything (never a silent resend).
      transition(c, LedgerState.UNKNOWN, null);
    }
    return ControllerState.CHECK;
  }

  /** CHECK: the default action of the class, then the checks that may overrule it. */
  private <R> ControllerState check(Call<R> c) {
    if (c.blocked != null) {
      return fallback(c, c.blocked);
    }
    Action a = features.classification() ? ActionTable.defaultAction(c.fault, c.risk, c.criticality) : Action.RETRY;
    if (a == Action.RECONCILE) {
      if (!features.idempotency()) {
        a = Action.RETRY;
      } else if (c.history().reconciledAbsent()) {
        a = Action.RETRY;
      } else if (c.risk == Risk.R1 && c.tool.reconcileMethod() == null) {
        // For an idempotent write the resend under the same key is the reconciliation: the service
        // answers a known key with its committed result.
        c.history().markReconciledAbsent();
        a = Action.RETRY;
      } else {
        return settle(c, Action.RECONCILE, Reason.TIMEOUT_UNKNOWN_STATE);
      }
    }
    switch (a) {
      case RETRY:
        return checkRetry(c);
      case COMPRESS:
        if (!features.degradation()) {
          return fallback(c, Reason.CONTEXT_NOT_COMPRESSIBLE);
        }
        return settle(c, Action.COMPRESS, Reason.CONTEXT_COMPRESSED);
      case DEGRADE_MODEL:
      case DEGRADE_TOOL:
      case DEGRADE_SCOPE:
        return fallback(c, c.fault == Fault.T4 ? Reason.OVERLOADED : Reason.TOOL_UNAVAILABLE);
      case ESCALATE:
        return settle(c, Action.ESCALATE, reasonOf(c.fault));
      case FAIL:
        return fallback(c, reasonOf(c.fault));
      default:
        return fallback(c, reasonOf(c.fault));
    }
  }

  /** Whether a retry passes the gate (which charges step, task and tenant budgets when it does). */
  private <R> ControllerState checkRetry(Call<R> c) {
    if (!features.retry()) {
      return fallback(c, Reason.NOT_RETRYABLE);
    }
    long retryAfter = c.classification == null ? -1 : c.classification.retryAfterMillis();
    if (retryAfter > maxRetryAfterMillis) {
      return fallback(c, Reason.DEADLINE);
    }
    int retryNumber = c.budgetStep().attempts();
    long delay;
    synchronized (random) {
      delay = backoff.delayNanos(retryNumber, c.policy.retry(), retryAfter, random);
    }
    Fault gateFault = features.classification() ? c.fault : Fault.T1;
    RetryRequest.Builder request = RetryRequest.builder(gateFault, c.risk, c.policy.retry(), c.history(), c.budgetStep())
        .deadline(c.task.deadline(), clock.nanoTime(), delay, c.lastLatencyNanos, c.verifyNanos);
    if (features.budgets()) {
      request.tenant(c.task.tenant());
    }
    CircuitBreaker breaker = c.breaker();
    if (breaker != null) {
      request.breaker(breaker);
    }
    RetryVerdict verdict = gate.check(request.build());
    if (verdict.retry()) {
      c.delayNanos = delay;
      return settle(c, Action.RETRY, Reason.RETRYABLE);
    }
    Reason why = reasonOf(verdict.reason());
    if (why == Reason.STEP_BUDGET_EXHAUSTED || why == Reason.TASK_BUDGET_EXHAUSTED || why == Reason.TENANT_BUDGET_EXHAUSTED) {
      c.rt.meters.retryBudgetExhausted(why);
    }
    return fallback(c, why);
  }

  /**
   * The action when the class's own action is not possible: the next allowed rung of the ladder if
   * there is one (and budget for it), otherwise escalation or a structured failure (choose_degradation
   * and decide_after_verification of §4.4 and §4.6).
   */
  private <R> ControllerState fallback(Call<R> c, Reason why) {
    Fault f = c.fault;
    if (f == Fault.T8) {
      return settle(c, Action.ESCALATE, why == Reason.APPROVAL_DENIED ? why : Reason.POLICY_REFUSAL);
    }
    // A write whose last attempt may have been applied is never sent elsewhere (a rung has no key).
    boolean ambiguous = f != null && f != Fault.V1 && !ActionTable.provesNotApplied(f);
    boolean unknownWrite = c.ledgerState == LedgerState.UNKNOWN
        || (c.write() && !c.hasResult && ambiguous && !c.history().reconciledAbsent());
    boolean committedWrite = c.write() && c.hasResult;
    if (features.degradation() && !unknownWrite && !committedWrite && f != Fault.T7) {
      int next = DegradationLadder.next(c.tool, c.rung, f, c.policy.allowedAutomatic());
      if (next != DegradationLadder.NONE) {
        RetryBudget.Charge charge = c.budgetStep().tryChargeRetry();
        if (charge == RetryBudget.Charge.GRANTED) {
          c.nextRung = next;
          return settle(c, DegradationLadder.actionFor(c.tool.degradeLadder().get(next), f), why);
        }
        why = charge == RetryBudget.Charge.STEP_EXHAUSTED ? Reason.STEP_BUDGET_EXHAUSTED : Reason.TASK_BUDGET_EXHAUSTED;
        c.rt.meters.retryBudgetExhausted(why);
      }
      int blocked = DegradationLadder.blockedByCriticality(c.tool, c.rung, f, c.policy.allowedAutomatic());
      if (blocked != DegradationLadder.NONE) {
        c.suggestion = "degrade to " + c.tool.degradeLadder().get(blocked).target() + " at "
            + c.tool.degradeLadder().get(blocked).level() + " needs a human at " + c.criticality + " criticality";
        return settle(c, Action.ESCALATE, why);
      }
    }
    if (unknownWrite) {
      return settle(c, Action.ESCALATE, c.ledgerState == LedgerState.UNKNOWN && c.history().reconciledAbsent()
          ? why : Reason.TIMEOUT_UNKNOWN_STATE);
    }
    if (committedWrite && f == Fault.V1) {
      // The effect is in place and its result was rejected: resending would repeat it.
      return settle(c, Action.ESCALATE, why);
    }
    if (c.criticality == Criticality.Level.HIGH || (c.risk == Risk.R3 && f == Fault.UNCLASSIFIED)) {
      return settle(c, Action.ESCALATE, why);
    }
    if (f == Fault.V1 || why == Reason.REPEATED_ACTION) {
      return settle(c, Action.REPLAN, why);
    }
    return settle(c, Action.FAIL, why);
  }

  /** Records the decision and moves to the action's state. */
  private <R> ControllerState settle(Call<R> c, Action action, Reason reason) {
    c.action = action;
    c.reason = reason;
    ControllerState next;
    switch (action) {
      case RETRY:
        next = ControllerState.RETRY_WAIT;
        break;
      case RECONCILE:
        next = ControllerState.RECONCILE;
        break;
      case COMPRESS:
        next = ControllerState.COMPRESS;
        break;
      case DEGRADE_MODEL:
      case DEGRADE_TOOL:
      case DEGRADE_SCOPE:
        next = ControllerState.DEGRADE;
        break;
      case REPLAN:
        next = ControllerState.REPLAN;
        break;
      case ESCALATE:
        next = ControllerState.ESCALATE;
        break;
      default:
        next = ControllerState.FAIL;
        break;
    }
    c.state = ControllerState.DECIDE;
    record(c, action, reason, MODE_ENFORCE);
    return next;
  }

  /** DECIDE is folded into {@link #settle}; reaching it as a state is a programming error. */
  private <R> ControllerState decide(Call<R> c) {
    throw new IllegalStateException("DECIDE is settled inline for " + c.tool.name());
  }

  /** RETRY_WAIT: the backoff, then the next attempt (a reconciled-absent write is prepared again first). */
  private <R> ControllerState retryWait(Call<R> c) {
    try {
      sleeper.sleep(c.delayNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return settle(c, Action.FAIL, Reason.INTERRUPTED);
    }
    if (c.key != null && c.ledgerState == LedgerState.RECONCILED_ABSENT) {
      transition(c, LedgerState.PREPARED, null);
    }
    return ControllerState.RUN_STEP;
  }

  /** RECONCILE: ask whether the write committed (§4.5's four steps). */
  private <R> ControllerState reconcile(Call<R> c) {
    if (c.key != null && c.ledgerState == LedgerState.PREPARED) {
      transition(c, LedgerState.UNKNOWN, null);
    }
    if (c.tool.reconcileMethod() == null) {
      if (c.risk == Risk.R1 && c.key != null) {
        // Table 7: an R1 write is reconciled by resending it under the same key — the provider deduplicates
        // on the key and answers with the committed result. The record stays UNKNOWN until it answers.
        c.delayNanos = 0L;
        return settle(c, Action.RETRY, Reason.RESEND_SAME_KEY);
      }
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.UNKNOWN);
      return settle(c, Action.ESCALATE, Reason.RECONCILE_UNKNOWN);
    }
    Optional<R> found;
    try {
      found = c.invocation.reconcile();
      if (found == null) {
        throw new IllegalStateException(c.tool.reconcileMethod() + " returned null instead of an Optional");
      }
    } catch (Exception e) {
      // The query itself failed: do not guess; the record stays UNKNOWN.
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.UNKNOWN);
      return settle(c, Action.ESCALATE, Reason.RECONCILE_UNKNOWN);
    }
    if (found.isPresent()) {
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
      c.result = found.get();
      c.hasResult = true;
      c.resultFromReconcile = true;
      if (c.key != null) {
        transition(c, LedgerState.RECONCILED_COMMITTED, IdempotencyKeys.resultHash(c.result));
      }
      record(c, Action.RECONCILE, Reason.RECONCILED_COMMITTED, MODE_ENFORCE);
      return ControllerState.VERIFY;
    }
    c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.ABSENT);
    if (c.key != null) {
      transition(c, LedgerState.RECONCILED_ABSENT, null);
    }
    c.history().markReconciledAbsent();
    record(c, Action.RECONCILE, Reason.RECONCILED_ABSENT, MODE_ENFORCE);
    if (c.risk == Risk.R3) {
      return settle(c, Action.FAIL, Reason.IRREVERSIBLE);
    }
    return ControllerState.CHECK;
  }

  /** COMPRESS: shrink the context; resend only if it changed. */
  private <R> ControllerState compress(Call<R> c) {
    boolean changed;
    try {
      changed = compressor.compress(c.tool, c.invocation, c.compressRounds++);
    } catch (Exception e) {
      changed = false;
    }
    if (!changed) {
      return fallback(c, Reason.CONTEXT_NOT_COMPRESSIBLE);
    }
    c.history().markCompressed();
    return checkRetry(c);
  }

  /** DEGRADE: move to the chosen rung (already charged to the step); a new target starts a new history. */
  private <R> ControllerState degrade(Call<R> c) {
    DegradeLevel level = c.tool.degradeLadder().get(c.nextRung).level();
    c.rt.meters.degradation(level, c.fault);
    c.rung = c.nextRung;
    c.resetHistory();
    c.classification = null;
    return ControllerState.RUN_STEP;
  }

  /** VERIFY: V0 always, then the method's level (stricter on high rungs), then the quality floor. */
  private <R> ControllerState verify(Call<R> c) {
    if (!features.verification()) {
      return ControllerState.ACCEPT;
    }
    VerifyLevel level = verifyLevel(c);
    if (level == VerifyLevel.V0) {
      // The built-in transport check takes nanoseconds: not worth two clock readings.
      c.verifyNanos = 0;
      return verified(c, level, verification.verify(c.tool, level, c.result));
    }
    // A read comes straight from its attempt; a write's ledger checkpoint came in between.
    long t0 = c.key == null ? c.lastAttemptEndNanos : clock.nanoTime();
    ResultVerification.Result v = verification.verify(c.tool, level, c.result);
    c.verifyNanos = clock.nanoTime() - t0;
    return verified(c, level, v);
  }

  /** The rest of VERIFY once the verification at {@code level} answered {@code v}. */
  private <R> ControllerState verified(Call<R> c, VerifyLevel level, ResultVerification.Result v) {
    if (v.accepted()) {
      c.quality = v.verdict().quality();
      c.verificationRequired = v.verificationRequired();
      double floor = Double.isNaN(c.task.qualityFloor()) ? c.policy.qualityFloor() : c.task.qualityFloor();
      if (c.quality >= floor) {
        return ControllerState.ACCEPT;
      }
      c.rt.meters.verificationFailure(level, ToolMeters.VerificationFailure.BELOW_QUALITY_FLOOR);
      c.lastRejection = v.verdict();
      c.classification = VERIFY_REJECTED[level.ordinal()];
      c.fault = Fault.V1;
      c.history().recordFailure(Fault.V1, true);
      return fallback(c, Reason.QUALITY_BELOW_FLOOR);
    }
    Verdict rejection = v.verdict();
    c.rt.meters.verificationFailure(v.rejectedAt(), ToolMeters.VerificationFailure.of(rejection.reason()));
    boolean newEvidence = c.lastRejection == null || !c.lastRejection.reason().equals(rejection.reason())
        || !c.lastRejection.evidence().equals(rejection.evidence());
    c.lastRejection = rejection;
    c.classification = VERIFY_REJECTED[v.rejectedAt().ordinal()];
    c.fault = Fault.V1;
    c.history().recordRejection(rejection.reason(), newEvidence);
    if (c.resultFromReconcile || c.alreadyCommitted) {
      return settle(c, Action.ESCALATE, Reason.VERIFICATION_FAILED);
    }
    return ControllerState.CHECK;
  }

  private VerifyLevel verifyLevel(Call<?> c) {
    VerifyLevel level = c.policy.verifyLevel();
    if (c.rung >= 0) {
      // Higher rungs trade quality for availability and are checked harder (Table 5).
      DegradeLevel rungLevel = c.rungLevel();
      VerifyLevel needed = rungLevel.compareTo(DegradeLevel.L3) >= 0 ? VerifyLevel.V2 : VerifyLevel.V1;
      if (needed.compareTo(level) > 0) {
        level = needed;
      }
    }
    return level;
  }

  /** ACCEPT: the structured success, the task's counters, the meters. */
  private <R> R accept(Call<R> c) {
    boolean degraded = c.rung >= 0;
    DegradeLevel level = c.rungLevel();
    if (degraded) {
      c.rt.meters.degradationQualityDelta(level, 1.0 - c.quality);
    }
    boolean verificationOwed = c.verificationRequired || (degraded && level.compareTo(DegradeLevel.L3) >= 0 && !features.verification());
    if (c.task.implicit() && c.key == null && !degraded && !verificationOwed) {
      // The clean read of a call outside any scope: nobody can ask for its outcome, so none is built.
      c.task.count(c.tool.name(), ToolOutcome.Status.SUCCESS, false, c.attempts, false);
      c.rt.meters.call(ToolOutcome.Status.SUCCESS, false, clock.nanoTime() - c.startNanos);
      return c.result;
    }
    List<String> refs = c.key == null ? List.of() : artifactRefs(c);
    ToolOutcome outcome = new ToolOutcome(c.tool.name(), ToolOutcome.Status.SUCCESS, null, false, c.write(), refs,
        verificationOwed, degraded, level, c.attempts, recoveredReason(c));
    finish(c, outcome, c.write() && verificationOwed);
    return c.result;
  }

  private static String recoveredReason(Call<?> c) {
    if (c.alreadyCommitted) {
      return Reason.ALREADY_COMMITTED.code();
    }
    return c.resultFromReconcile ? Reason.RECONCILED_COMMITTED.code() : Reason.OK.code();
  }

  /** REPLAN, ESCALATE, FAIL: the structured failure (and the evidence bundle for an escalation). */
  private <R> ToolCallException terminate(Call<R> c, ControllerState s) {
    if (c.key != null && c.ledgerState == LedgerState.PREPARED && !c.alreadyCommitted && c.lease != null) {
      boolean notApplied = c.attempts == 0 || (c.fault != null && ActionTable.provesNotApplied(c.fault));
      transition(c, notApplied ? LedgerState.FAILED : LedgerState.UNKNOWN, null);
    }
    boolean unknown = c.ledgerState == LedgerState.UNKNOWN;
    boolean committed = c.ledgerState != null && c.ledgerState.isCommitted();
    ToolOutcome.Status status = ToolOutcome.Status.FAILED;
    Reason reason = c.reason;
    if (s == ControllerState.ESCALATE) {
      c.rt.meters.escalation(reason);
      try {
        escalation.escalate(evidence(c));
        status = ToolOutcome.Status.ESCALATED;
      } catch (Exception e) {
        reason = Reason.ESCALATION_FAILED;
      }
    } else if (s == ControllerState.REPLAN) {
      c.task.requestReplan();
    }
    boolean retryable = !unknown && !committed && c.fault != Fault.T7 && c.fault != Fault.T8 && c.fault != Fault.V1
        && reason != Reason.KEY_IN_USE && reason != Reason.ALREADY_COMMITTED;
    ToolOutcome outcome = new ToolOutcome(c.tool.name(), status, c.fault, retryable, c.write() && (unknown || committed),
        c.key == null ? List.of() : artifactRefs(c), unknown || committed, c.rung >= 0, c.rungLevel(), c.attempts,
        reason.code());
    finish(c, outcome, c.write() && (unknown || (committed && c.fault == Fault.V1)));
    return new ToolCallException(outcome, c.error);
  }

  private void finish(Call<?> c, ToolOutcome outcome, boolean unverifiedSideEffect) {
    if (c.key != null && c.ledgerState != null && c.ledgerState.isCommitted() && !c.task.implicit()) {
      // Kept for compensation (TaskScope.compensate): the invocation carries the compensate hook.
      c.task.recordCommittedWrite(new TaskState.CommittedCall(c.step, c.tool, c.invocation, c.key));
    }
    c.task.onCallEnd(outcome, unverifiedSideEffect);
    c.rt.meters.call(outcome.status(), outcome.degraded(), clock.nanoTime() - c.startNanos);
    releaseHeld(c);
  }

  private static List<String> artifactRefs(Call<?> c) {
    List<String> refs = new ArrayList<>(2);
    refs.add("ledger:" + c.key);
    if (c.hasResult && c.result != null) {
      refs.add("result:" + resultHashOrType(c.result));
    }
    return refs;
  }

  private EvidenceBundle evidence(Call<?> c) {
    Verdict rejection = c.lastRejection;
    String argsHash = argsHash(c);
    return new EvidenceBundle(c.task.tenant(), c.task.taskId(), c.step, c.tool.name(), c.risk, c.criticality, c.fault,
        c.reason, c.attempts, argsHash, c.key, c.ledgerState == null ? null : c.ledgerState.name(),
        c.error == null ? null : c.error.getClass().getName(),
        rejection == null ? null : rejection.reason(), rejection == null ? null : rejection.evidence(),
        c.suggestion, withArgsHash(c.decisions(), argsHash));
  }

  /** The call's decisions, each with the argument hash (left out while no sink wanted the events). */
  private static List<DecisionEvent> withArgsHash(List<DecisionEvent> decisions, String argsHash) {
    List<DecisionEvent> complete = new ArrayList<>(decisions.size());
    for (DecisionEvent d : decisions) {
      complete.add(d.argsHash() == null ? d.withArgsHash(argsHash) : d);
    }
    return complete;
  }

  /**
   * The call's lease lapsed and another recoverer took its key over (the fencing token refused this call's
   * checkpoint): the record belongs to the new holder, who reconciles it. The call ends {@code
   * key_in_use}; its side effect counts as unverified if it sent anything.
   */
  private <R> ToolCallException lostKey(Call<R> c, LostKey e) {
    if (c.heartbeat != null) {
      c.heartbeat.stop();
      c.heartbeat = null;
    }
    c.lease = null; // not ours any more: nothing to release
    c.suggestion = "the lease on key " + c.key + " lapsed and another recoverer took the key over; it reconciles the write";
    if (c.error == null) {
      c.error = e.refusal;
    }
    return terminate(c, settle(c, Action.FAIL, Reason.KEY_IN_USE));
  }

  /** A checkpoint refused because another recoverer took the key over. */
  private static final class LostKey extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient StaleFencingTokenException refusal;

    LostKey(StaleFencingTokenException refusal) {
      super(refusal.getMessage(), refusal, false, false);
      this.refusal = refusal;
    }
  }

  /**
   * The controller itself failed (a bug, a ledger outage, a failing hook): §4.1's rule. A read fails
   * open — its result if the tool already answered, otherwise one direct call as if HFR were absent. A
   * write fails closed: no further attempt, the call is escalated, and its ledger record (if any) stays
   * where crash resume will reconcile it.
   */
  private <R> R controllerFailed(Call<R> c, Throwable failure) {
    boolean failOpen = c.risk == Risk.R0;
    releaseHeld(c); // the record stays where it is; a dead lease would only block the next recoverer
    c.rt.meters.controllerFailure(failOpen);
    if (failOpen) {
      if (c.hasResult) {
        return c.result;
      }
      try {
        return c.invocation.proceed(null);
      } catch (Exception e) {
        throw Sneaky.<RuntimeException>rethrow(e);
      }
    }
    c.reason = Reason.CONTROLLER_FAILURE;
    c.action = Action.ESCALATE;
    ToolOutcome.Status status = ToolOutcome.Status.FAILED;
    try {
      record(c, Action.ESCALATE, Reason.CONTROLLER_FAILURE, MODE_ENFORCE);
      c.rt.meters.escalation(Reason.CONTROLLER_FAILURE);
      escalation.escalate(evidence(c));
      status = ToolOutcome.Status.ESCALATED;
    } catch (Exception | LinkageError | AssertionError ignored) {
      // The escalation path is part of the failed controller; the exception below still reaches the caller.
    }
    ToolOutcome outcome = new ToolOutcome(c.tool.name(), status, c.fault, false, true, List.of(), true, c.rung >= 0,
        c.rungLevel(), c.attempts, Reason.CONTROLLER_FAILURE.code());
    try {
      c.task.onCallEnd(outcome, true);
    } catch (RuntimeException ignored) {
      // Same: counting is best effort once the controller is known to be broken.
    }
    ToolCallException e = new ToolCallException(outcome, c.error);
    e.addSuppressed(failure);
    throw e;
  }

  /** The engine could not even set up for this tool: reads go straight through, writes are refused. */
  private <R> R unavailable(ToolDescriptor tool, ToolInvocation<R> invocation, RuntimeException failure) {
    try {
      meters.forTool(tool).controllerFailure(tool.risk() == Risk.R0);
    } catch (RuntimeException ignored) {
      // Counting is best effort here: the engine is already known to be broken.
    }
    if (tool.risk() == Risk.R0) {
      try {
        return invocation.proceed(null);
      } catch (Exception e) {
        throw Sneaky.<RuntimeException>rethrow(e);
      }
    }
    ToolOutcome outcome = new ToolOutcome(tool.name(), ToolOutcome.Status.FAILED, null, false, false, List.of(), false,
        false, DegradeLevel.L0, 0, Reason.CONTROLLER_FAILURE.code());
    throw new ToolCallException(outcome, failure);
  }

  // ---------------------------------------------------------------------------------------------
  // Shadow

  /**
   * Shadow mode: calls the tool once exactly as without HFR, classifies and decides what HFR would do,
   * records it (decision event with mode {@code shadow}, meters), and returns the result or rethrows
   * the exception unchanged. Budgets, breakers and the ledger are left untouched.
   */
  public <R> R shadow(ToolDescriptor tool, ToolInvocation<R> invocation, TaskState task) {
    R result = null;
    Exception error = null;
    long t0 = clock.nanoTime();
    try {
      result = invocation.proceed(null);
    } catch (Exception e) {
      error = e;
    }
    long latency = clock.nanoTime() - t0;
    try {
      shadowDecide(runtime(tool), invocation, task, result, error, latency);
    } catch (RuntimeException | LinkageError | AssertionError ignored) {
      // Shadow mode must never change what the caller sees.
      meters.forTool(tool).controllerFailure(true);
    }
    if (error != null) {
      throw Sneaky.<RuntimeException>rethrow(error);
    }
    return result;
  }

  private <R> void shadowDecide(ToolRuntime rt, ToolInvocation<R> invocation, TaskState task, R result, Exception error,
      long latency) {
    Criticality.Level criticality = effectiveCriticality(task.criticality(), rt.tool.criticality());
    ToolRuntime.TenantView view = rt.tenant(task.tenant());
    CallPolicy policy = rt.policy(task.tenant(), view, criticality);
    Call<R> c = new Call<>(rt, invocation, task, view, policy, task.nextStep(), t0Of(latency));
    c.attempts = 1;
    c.lastLatencyNanos = latency;
    if (error == null) {
      rt.meters.attempt(null, true);
      if (!features.verification()) {
        return;
      }
      ResultVerification.Result v = verification.verify(rt.tool, policy.verifyLevel(), result);
      if (v.accepted()) {
        return;
      }
      c.fault = Fault.V1;
      c.classification = VERIFY_REJECTED[v.rejectedAt().ordinal()];
      c.lastRejection = v.verdict();
      rt.meters.verificationFailure(v.rejectedAt(), ToolMeters.VerificationFailure.of(v.verdict().reason()));
    } else {
      Classification cls;
      try {
        cls = classifier.classify(Observation.builder().exception(error).latency(Duration.ofNanos(latency)).build());
      } catch (RuntimeException e) {
        cls = CLASSIFIER_FAILED;
      }
      c.classification = cls == null ? CLASSIFIER_FAILED : cls;
      c.fault = c.classification.confidence() < MIN_CONFIDENCE ? Fault.UNCLASSIFIED : c.classification.fault();
      c.error = error;
      rt.meters.attempt(c.fault, false);
    }
    Action action = ActionTable.defaultAction(c.fault, c.risk, criticality);
    Reason reason = action == Action.RETRY ? Reason.RETRYABLE : reasonOf(c.fault);
    if (action == Action.RETRY && c.fault != Fault.V1 && c.fault != Fault.UNCLASSIFIED
        && !policy.retry().retryOn().contains(c.fault)) {
      action = Action.FAIL;
      reason = Reason.NOT_RETRYABLE;
    }
    if (action == Action.RETRY) {
      synchronized (random) {
        c.delayNanos = backoff.delayNanos(1, policy.retry(), c.classification.retryAfterMillis(), random);
      }
    }
    record(c, action, reason, MODE_SHADOW);
  }

  private long t0Of(long latency) {
    return clock.nanoTime() - latency;
  }

  // ---------------------------------------------------------------------------------------------
  // Recording

  private void record(Call<?> c, Action action, Reason reason, String mode) {
    boolean shadow = mode == MODE_SHADOW;
    c.rt.meters.decision(action, shadow);
    RetryBudget.Step step = c.budgetStepIfOpened();
    int stepLeft = step == null ? c.policy.retry().maxAttempts() - Math.max(1, c.attempts) : step.maxAttempts() - step.attempts();
    RetryBudget taskBudget = c.task.retryBudgetIfOpened();
    int taskLeft = taskBudget == null || taskBudget.maxRetriesPerTask() == Integer.MAX_VALUE ? -1 : taskBudget.remaining();
    Classification cls = c.classification;
    // A sink that keeps nothing is spared the argument hash; the evidence bundle fills it in if the call escalates.
    boolean publish = sink.wantsEvents();
    DecisionEvent event = new DecisionEvent(
        clock.epochMillis(),
        mode,
        c.task.tenant(),
        c.task.taskId(),
        c.step,
        c.tool.name(),
        c.risk,
        c.attempts,
        c.rungLevel(),
        c.fault,
        cls == null ? 0.0 : cls.confidence(),
        cls == null ? null : cls.rule(),
        action,
        reason,
        action == Action.RETRY ? c.delayNanos / 1_000_000L : 0L,
        c.lastLatencyNanos / 1_000_000L,
        Math.max(0, stepLeft),
        taskLeft,
        c.lastRejection == null ? null : c.lastRejection.reason(),
        publish ? argsHash(c) : c.argsHash,
        c.hasResult && c.result != null ? resultHashOrType(c.result) : null,
        c.key,
        c.ledgerState == null ? null : c.ledgerState.name());
    c.addDecision(event);
    if (!publish) {
      return;
    }
    try {
      sink.record(event);
    } catch (Exception e) {
      meters.sinkFailure();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private void transition(Call<?> c, LedgerState target, String resultHash) {
    long token = c.lease == null ? 0L : c.lease.fencingToken();
    LedgerRecord r;
    try {
      r = ledger.transition(c.task.tenant(), c.key, c.ledgerState, target, resultHash, token);
    } catch (StaleFencingTokenException takenOver) {
      // This call's lease lapsed and another recoverer took the key: the record is theirs now.
      throw new LostKey(takenOver);
    }
    c.ledgerState = r.state();
  }

  /** The argument hash for records: the ledger's when there is one; never fails (hashes the type when it must). */
  private static String argsHash(Call<?> c) {
    if (c.argsHash == null) {
      try {
        c.argsHash = IdempotencyKeys.argsHash(IdempotencyKeys.arguments(c.tool, c.invocation));
      } catch (RuntimeException unreadable) {
        c.argsHash = "unhashable";
      }
    }
    return c.argsHash;
  }

  private static String resultHashOrType(Object result) {
    try {
      return IdempotencyKeys.resultHash(result);
    } catch (RuntimeException unreadable) {
      return "unhashable:" + result.getClass().getName();
    }
  }

  static Criticality.Level effectiveCriticality(Criticality.Level task, Criticality.Level tool) {
    if (task == null) {
      return tool;
    }
    return task.compareTo(tool) >= 0 ? task : tool;
  }

  private static Reason reasonOf(Fault fault) {
    if (fault == null) {
      return Reason.NO_SAFE_ALTERNATIVE;
    }
    switch (fault) {
      case T3: return Reason.TIMEOUT_UNKNOWN_STATE;
      case T4: return Reason.OVERLOADED;
      case T5: return Reason.TOOL_UNAVAILABLE;
      case T6: return Reason.CONTEXT_NOT_COMPRESSIBLE;
      case T7: return Reason.PERMANENT_ERROR;
      case T8: return Reason.POLICY_REFUSAL;
      case V1: return Reason.VERIFICATION_FAILED;
      case UNCLASSIFIED: return Reason.UNCLASSIFIED;
      default: return Reason.NOT_RETRYABLE;
    }
  }

  private static Reason reasonOf(StopReason stop) {
    switch (stop) {
      case POLICY_REFUSAL: return Reason.POLICY_REFUSAL;
      case PERMANENT_FAULT: return Reason.PERMANENT_ERROR;
      case IRREVERSIBLE: return Reason.IRREVERSIBLE;
      case RECONCILE_FIRST: return Reason.TIMEOUT_UNKNOWN_STATE;
      case UNCLASSIFIED_PROBED: return Reason.UNCLASSIFIED;
      case NEEDS_OTHER_TARGET: return Reason.NOT_RETRYABLE;
      case COMPRESS_FIRST: return Reason.CONTEXT_NOT_COMPRESSIBLE;
      case SIDE_EFFECT_COMMITTED: return Reason.VERIFICATION_FAILED;
      case SAME_FAULT_REPEATED: return Reason.SAME_FAULT_REPEATED;
      case SAME_VERIFIER_REASON: return Reason.SAME_VERIFIER_REASON;
      case BREAKER_OPEN: return Reason.CIRCUIT_OPEN;
      case DEADLINE: return Reason.DEADLINE;
      case STEP_ATTEMPTS_EXHAUSTED: return Reason.STEP_BUDGET_EXHAUSTED;
      case TASK_BUDGET_EXHAUSTED: return Reason.TASK_BUDGET_EXHAUSTED;
      case TENANT_BUDGET_EXHAUSTED: return Reason.TENANT_BUDGET_EXHAUSTED;
      default: return Reason.NOT_RETRYABLE;
    }
  }

  private static Classification[] verifyRejected() {
    VerifyLevel[] levels = VerifyLevel.values();
    Classification[] out = new Classification[levels.length];
    for (int i = 0; i < levels.length; i++) {
      out[i] = new Classification(Fault.V1, 1.0, null, -1, "verify." + levels[i].name());
    }
    return out;
  }

  /** Rethrows checked exceptions unchanged: shadow mode and failing open must not wrap what the tool threw. */
  static final class Sneaky {
    private Sneaky() {}

    @SuppressWarnings("unchecked")
    static <T extends Throwable> T rethrow(Throwable t) throws T {
      throw (T) t;
    }
  }
}
