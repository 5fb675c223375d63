package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.internal.InboxBook;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.KeyInUseException;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.Prepared;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One owner per write: finds or creates a write's ledger record and decides, in the ledger's own atomic
 * steps, whether this call may act on it. Only a call that created the record ({@link
 * IdempotencyLedger#prepareIfAbsent}) or took it over under a fresh lease may send; a committed record is
 * answered from the ledger without a lease; a record another live holder leases is waited on — until the
 * holder settles it, or its lease lapses (a dead holder), bounded by one lease TTL and the task's deadline
 * — and otherwise reported as in use, with the holder and the time its lease has left.
 *
 * <p>Each call leases under its own owner name ({@code <engine>#<n>}), so two threads of one process
 * racing on a key exclude each other exactly as two processes do.
 */
final class WriteClaims {

  /** What the call may do with the write. */
  enum Kind {
    /** This call created the record and holds its lease: send. */
    CREATED,
    /** An earlier run's record, now leased by this call; act on its state (it may need reconciling). */
    TAKEN_OVER,
    /** The write is committed: answer from the ledger, never send. */
    COMMITTED,
    /** The write was committed and undone: whether to do it again is the business's call. */
    COMPENSATED,
    /** Another live holder kept the key for the whole wait. */
    IN_USE
  }

  /**
   * @param key the write's key (the version-1 key when an old ledger's record was found under it)
   * @param record the record as this call found it (under its lease, when it holds one)
   * @param lease this call's lease, or {@code null}
   * @param holder the other holder's lease, for {@link Kind#IN_USE}
   */
  record Claim(Kind kind, String key, LedgerRecord record, Lease lease, Lease holder) {}

  private static final long FIRST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  private static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  /** Past one TTL a waiter also allows for the holder's last renewal to land. */
  private static final long WAIT_SLACK_NANOS = TimeUnit.SECONDS.toNanos(2);

  private final IdempotencyLedger ledger;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Duration leaseTtl;
  private final String owner;
  private final AtomicLong calls = new AtomicLong();

  WriteClaims(IdempotencyLedger ledger, Clock clock, Sleeper sleeper, Duration leaseTtl, String owner) {
    this(ledger, clock, sleeper, leaseTtl, owner, null);
  }

  /** A write a person had undone in the inbox ("undo it") is not made anew by a re-call; {@code null}: no inbox. */
  private final InboxBook inbox;

  WriteClaims(IdempotencyLedger ledger, Clock clock, Sleeper sleeper, Duration leaseTtl, String owner, InboxBook inbox) {
    this.inbox = inbox;
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.leaseTtl = Objects.requireNonNull(leaseTtl, "leaseTtl");
    this.owner = Objects.requireNonNull(owner, "owner");
  }

  Duration leaseTtl() {
    return leaseTtl;
  }

  /**
   * A write's key, and whether the call repeats an earlier write of its task (a re-call).
   *
   * @param recall the key is an earlier write's of the task: the same logical write, answered from its record
   */
  record Keyed(String key, boolean recall) {}

  /**
   * The write's key: from the step id the agent named on this thread, else from the write's occurrence in
   * the task (DESIGN.md §3), so inserted reads, re-plans and concurrency leave keys where they were. A call
   * with the same tool and arguments as the task's latest such write is that write again — the model
   * calling a tool again — and gets its key, unless the ledger shows it provably did not happen (FAILED,
   * RECONCILED_ABSENT, COMPENSATED): then it is a new write, the next occurrence. Two equal writes on
   * purpose take distinct step ids. In an explicit task, a record an earlier HFR keyed by the global step
   * number ({@code legacyStep}) is found and keeps its key, so a ledger written before keys by occurrence
   * is never silently mismatched.
   */
  Keyed key(CallTask task, String tool, List<Object> args, String argsHash, long legacyStep) {
    String stepId = ExplicitSteps.current();
    if (stepId != null) {
      return new Keyed(IdempotencyKeys.keyForStep(task.tenant(), task.taskId(), stepId, tool, args), false);
    }
    int latest = task.latestOccurrence(tool, argsHash);
    if (latest >= 0) {
      String earlier = IdempotencyKeys.key(task.tenant(), task.taskId(), tool, args, latest);
      Optional<LedgerRecord> r = ledger.find(task.tenant(), earlier);
      if (r.isEmpty() || !provesNotApplied(r.get().state()) || undoneByPerson(task.tenant(), r.get())) {
        return new Keyed(earlier, true);
      }
    }
    int occurrence = task.startOccurrence(tool, argsHash, latest);
    String key = IdempotencyKeys.key(task.tenant(), task.taskId(), tool, args, occurrence);
    if (occurrence != latest + 1) {
      return new Keyed(key, true); // another call of the task started this write meanwhile
    }
    if (!task.implicit()) {
      // One point read; an implicit task's id is new in every process, so no old record can carry it.
      String legacy = IdempotencyKeys.legacyStepKey(task.tenant(), task.taskId(), legacyStep, tool, args);
      Optional<LedgerRecord> old = ledger.find(task.tenant(), legacy);
      if (old.isPresent() && old.get().tool().equals(tool) && old.get().argsHash().equals(argsHash)) {
        return new Keyed(legacy, false);
      }
    }
    return new Keyed(key, false);
  }

  /** Whether a person answered "undo it" to the write of {@code record}, which was then undone. */
  private boolean undoneByPerson(String tenant, LedgerRecord record) {
    return inbox != null && record.state() == LedgerState.COMPENSATED
        && inbox.answerFor(tenant, record.key()).filter(a -> a.answer() == Answer.UNDO).isPresent();
  }

  /** Whether a record in {@code state} proves its write did not take effect (or was undone): a new one may be sent. */
  static boolean provesNotApplied(LedgerState state) {
    return state == LedgerState.FAILED || state == LedgerState.RECONCILED_ABSENT || state == LedgerState.COMPENSATED;
  }

  /** Claims the write of task {@code taskId} under {@code key}; waits at most until {@code deadline} for another holder. */
  Claim claim(String tenant, String taskId, String key, String tool, String argsHash, Deadline deadline) {
    String callOwner = owner + "#" + calls.incrementAndGet();
    Prepared p = ledger.prepareIfAbsent(tenant, taskId, key, tool, argsHash, callOwner, leaseTtl);
    if (p.created()) {
      return new Claim(Kind.CREATED, key, p.record(), p.lease(), null);
    }
    Claim settled = settled(key, p.record());
    if (settled != null) {
      return settled;
    }
    long now = clock.nanoTime();
    long waitUntil = now + leaseTtl.toNanos() + WAIT_SLACK_NANOS;
    if (deadline.bounded()) {
      waitUntil = Math.min(waitUntil, deadline.deadlineNanos());
    }
    long poll = FIRST_POLL_NANOS;
    while (true) {
      Optional<Lease> lease = ledger.acquireLease(tenant, key, callOwner, leaseTtl);
      if (lease.isPresent()) {
        // Read the state under the lease: nobody can move it now, and it may have moved while we asked.
        LedgerRecord record = ledger.find(tenant, key).orElseThrow();
        Claim done = settled(key, record);
        if (done != null) {
          ledger.releaseLease(lease.get());
          return done;
        }
        return new Claim(Kind.TAKEN_OVER, key, record, lease.get(), null);
      }
      now = clock.nanoTime();
      if (now >= waitUntil) {
        LedgerRecord record = ledger.find(tenant, key).orElseThrow();
        Claim done = settled(key, record);
        return done != null ? done : new Claim(Kind.IN_USE, key, record, null, ledger.currentLease(tenant, key).orElse(null));
      }
      try {
        sleeper.sleep(Math.min(poll, waitUntil - now));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        LedgerRecord record = ledger.find(tenant, key).orElseThrow();
        return new Claim(Kind.IN_USE, key, record, null, ledger.currentLease(tenant, key).orElse(null));
      }
      poll = Math.min(MAX_POLL_NANOS, poll * 2);
      Optional<LedgerRecord> latest = ledger.find(tenant, key);
      Claim done = latest.isPresent() ? settled(key, latest.get()) : null;
      if (done != null) {
        return done; // the holder finished: its outcome is this call's answer
      }
    }
  }

  /** A claim that needs no lease: the write is committed, or was undone. */
  private static Claim settled(String key, LedgerRecord record) {
    if (record.state().isCommitted()) {
      return new Claim(Kind.COMMITTED, key, record, null, null);
    }
    if (record.state() == LedgerState.COMPENSATED) {
      return new Claim(Kind.COMPENSATED, key, record, null, null);
    }
    return null;
  }

  /** Why the key is in use, for the call's outcome: the holder and the time its lease has left. */
  KeyInUseException inUse(Claim claim) {
    Lease h = claim.holder();
    long left = h == null ? 0 : Math.max(0, h.expiresAt().toEpochMilli() - clock.epochMillis());
    return new KeyInUseException(claim.key(), h, Duration.ofMillis(left));
  }
}
