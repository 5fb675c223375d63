package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.IllegalLedgerTransitionException;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.LedgerKeyConflictException;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.StaleFencingTokenException;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import dev.hfr.runtime.ledger.UnknownLedgerKeyException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The ledger's semantics in one place, shared by every backend so they cannot drift apart: input
 * checks, Table 6 transitions, the evidence each transition records, leases and fencing.
 *
 * <p>Evidence rules: {@code attempts} counts the transitions out of PREPARED (each ends one attempt,
 * including a PREPARED record found after a crash and moved to UNKNOWN); a transition with a result hash
 * replaces the stored one, one without keeps it (so COMPENSATED keeps the committed result's hash).
 */
public final class LedgerRules {

  /** The longest tenant, task id, key or lease owner accepted. */
  public static final int MAX_NAME = 256;
  static final int MAX_TOOL = 512;
  static final int MAX_HASH = 128;

  private LedgerRules() {}

  public static void checkTenantKey(String tenant, String key) {
    text(tenant, "tenant", MAX_NAME);
    text(key, "key", MAX_NAME);
  }

  public static void checkPrepare(String tenant, String key, String tool, String argsHash) {
    checkTenantKey(tenant, key);
    text(tool, "tool", MAX_TOOL);
    text(argsHash, "argsHash", MAX_HASH);
  }

  public static void checkTenantTask(String tenant, String taskId) {
    text(tenant, "tenant", MAX_NAME);
    text(taskId, "taskId", MAX_NAME);
  }

  /** The longest task spec a checkpoint holds, in characters. */
  public static final int MAX_SPEC = 4096;
  /** The longest escalation evidence a checkpoint holds, in characters (the engine shortens longer ones). */
  public static final int MAX_EVIDENCE = 12_000;

  /** Checks a task checkpoint: its ids, and a spec and evidence short enough for one journal frame. */
  public static void checkCheckpoint(TaskCheckpoint t) {
    Objects.requireNonNull(t, "checkpoint");
    checkTenantTask(t.tenant(), t.taskId());
    text(t.owner(), "owner", MAX_NAME);
    if (t.spec().length() > MAX_SPEC) {
      throw new IllegalArgumentException("the spec of task " + t.taskId() + " is " + t.spec().length() + " characters; at most " + MAX_SPEC);
    }
    if (t.evidence() != null && t.evidence().length() > MAX_EVIDENCE) {
      throw new IllegalArgumentException(
          "the evidence of task " + t.taskId() + " is " + t.evidence().length() + " characters; at most " + MAX_EVIDENCE);
    }
  }

  public static void checkTransition(String tenant, String key, LedgerState expected, LedgerState target, String resultHash) {
    checkTenantKey(tenant, key);
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(target, "target");
    if (resultHash != null) {
      text(resultHash, "resultHash", MAX_HASH);
    }
    if (!expected.canMoveTo(target)) {
      throw new IllegalLedgerTransitionException(
          "Table 6 does not allow " + expected + " -> " + target + " (key " + key + ", tenant " + tenant + "); " + expected
              + " may move to " + expected.successors());
    }
  }

  public static void checkLease(String tenant, String key, String owner, Duration ttl) {
    checkTenantKey(tenant, key);
    text(owner, "owner", MAX_NAME);
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("lease ttl must be positive, was " + ttl);
    }
  }

  /** A fresh PREPARED record. */
  public static StoredEntry newEntry(String tenant, String key, String tool, String argsHash, long nowMillis) {
    Instant now = Instant.ofEpochMilli(nowMillis);
    return new StoredEntry(new LedgerRecord(tenant, key, tool, argsHash, LedgerState.PREPARED, 0, null, 0L, now, now), null, 0L);
  }

  /** A fresh PREPARED record of task {@code taskId} (may be null) leased to its creator: the first lease on the key, token 1. */
  public static StoredEntry newLeasedEntry(
      String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration ttl, long nowMillis) {
    Instant now = Instant.ofEpochMilli(nowMillis);
    return new StoredEntry(new LedgerRecord(tenant, key, tool, argsHash, LedgerState.PREPARED, 0, null, 1L, now, now, taskId),
        owner, nowMillis + ttl.toMillis());
  }

  /** A fresh PREPARED record leased to its creator: the first lease on the key, token 1. */
  public static StoredEntry newLeasedEntry(
      String tenant, String key, String tool, String argsHash, String owner, Duration ttl, long nowMillis) {
    return newLeasedEntry(tenant, null, key, tool, argsHash, owner, ttl, nowMillis);
  }

  /** Refuses a prepare that reuses a key for another tool or other arguments. */
  public static void checkSameIntent(LedgerRecord existing, String tool, String argsHash) {
    if (!existing.tool().equals(tool) || !existing.argsHash().equals(argsHash)) {
      throw new LedgerKeyConflictException(
          "key " + existing.key() + " of tenant " + existing.tenant() + " already records a call of " + existing.tool()
              + " with arguments " + existing.argsHash() + "; refusing to reuse it for " + tool + " with arguments " + argsHash);
    }
  }

  /** The record after the transition; throws if it is refused. {@code current} may be null (no record). */
  public static StoredEntry applyTransition(
      StoredEntry current, String tenant, String key, LedgerState expected, LedgerState target, String resultHash, long fencingToken, long nowMillis) {
    LedgerRecord r = requireRecord(current, tenant, key);
    if (fencingToken < r.fencingToken()) {
      throw stale(r, fencingToken);
    }
    if (r.state() != expected) {
      throw new IllegalLedgerTransitionException(
          "key " + key + " of tenant " + tenant + " is " + r.state() + ", not " + expected + "; refusing " + expected + " -> " + target);
    }
    int attempts = expected == LedgerState.PREPARED ? r.attempts() + 1 : r.attempts();
    LedgerRecord next = new LedgerRecord(
        r.tenant(), r.key(), r.tool(), r.argsHash(), target, attempts, resultHash != null ? resultHash : r.resultHash(),
        r.fencingToken(), r.createdAt(), Instant.ofEpochMilli(nowMillis), r.taskId());
    return endsLease(target) ? new StoredEntry(next, null, 0L) : new StoredEntry(next, current.leaseOwner(), current.leaseExpiresAtMillis());
  }

  /**
   * Whether a transition to {@code target} ends the key's lease: the write is settled for good (committed,
   * directly or by reconciliation, or compensated), so nothing is left to act on under it, and a later
   * compensation takes a lease of its own. A failed or absent write keeps it: its holder may prepare it again.
   */
  public static boolean endsLease(LedgerState target) {
    return target.isCommitted() || target == LedgerState.COMPENSATED;
  }

  public static StaleFencingTokenException stale(LedgerRecord r, long fencingToken) {
    return new StaleFencingTokenException(
        "fencing token " + fencingToken + " on key " + r.key() + " of tenant " + r.tenant() + " is stale: lease " + r.fencingToken()
            + " was granted since; another recoverer owns the key");
  }

  public static UnknownLedgerKeyException unknown(String tenant, String key) {
    return new UnknownLedgerKeyException("tenant " + tenant + " has no ledger record with key " + key + " (never prepared, or expired)");
  }

  /** The entry with a new lease, or null while another holder's lease is live. */
  public static StoredEntry applyLease(StoredEntry current, String tenant, String key, String owner, Duration ttl, long nowMillis) {
    LedgerRecord r = requireRecord(current, tenant, key);
    if (current.leaseLiveAt(nowMillis) && !current.leaseOwner().equals(owner)) {
      return null;
    }
    long expiresAt = nowMillis + ttl.toMillis();
    LedgerRecord next = new LedgerRecord(
        r.tenant(), r.key(), r.tool(), r.argsHash(), r.state(), r.attempts(), r.resultHash(), r.fencingToken() + 1,
        r.createdAt(), r.updatedAt(), r.taskId());
    return new StoredEntry(next, owner, expiresAt);
  }

  public static Lease leaseOf(StoredEntry e) {
    return new Lease(e.tenant(), e.key(), e.leaseOwner(), e.record().fencingToken(), Instant.ofEpochMilli(e.leaseExpiresAtMillis()));
  }

  /**
   * The entry with {@code lease} extended to {@code ttl} from now, or null when {@code lease} is no longer
   * the key's current lease. A lapsed lease nobody took over is still current (its token is the latest),
   * so extending it is safe.
   */
  public static StoredEntry applyRenew(StoredEntry current, Lease lease, Duration ttl, long nowMillis) {
    if (!isCurrent(current, lease)) {
      return null;
    }
    return new StoredEntry(current.record(), current.leaseOwner(), nowMillis + ttl.toMillis());
  }

  /** The live lease of {@code e} at {@code nowMillis}, or null. */
  public static Lease liveLease(StoredEntry e, long nowMillis) {
    return e != null && e.leaseLiveAt(nowMillis) ? leaseOf(e) : null;
  }

  private static boolean isCurrent(StoredEntry current, Lease lease) {
    return current != null && current.leaseOwner() != null && current.leaseOwner().equals(lease.owner())
        && current.record().fencingToken() == lease.fencingToken();
  }

  /** The entry without its lease, or null when {@code lease} is not the current one (ignored). */
  public static StoredEntry applyRelease(StoredEntry current, Lease lease) {
    if (current == null || current.leaseOwner() == null || !current.leaseOwner().equals(lease.owner())
        || current.record().fencingToken() != lease.fencingToken()) {
      return null;
    }
    return new StoredEntry(current.record(), null, 0L);
  }

  /** Whether {@code e} settled (no reconcile pending) and last changed before {@code cutoffMillis}. */
  public static boolean expiredBy(StoredEntry e, long cutoffMillis) {
    return !e.record().state().needsReconcile() && e.record().updatedAt().toEpochMilli() < cutoffMillis;
  }

  private static LedgerRecord requireRecord(StoredEntry current, String tenant, String key) {
    if (current == null) {
      throw unknown(tenant, key);
    }
    return current.record();
  }

  /**
   * Checks an identifier that is stored or hashed as text (tenant, task id, key, lease owner, tool): not
   * blank, at most {@code max} chars, no control characters, and no lone surrogate — UTF-8 (the journal,
   * PostgreSQL, the key hash) cannot encode one and would turn it into {@code ?}, making "acme" + U+D800
   * and {@code "acme?"} one tenant.
   */
  public static void checkId(String value, String what, int max) {
    text(value, what, max);
  }

  private static void text(String value, String what, int max) {
    Objects.requireNonNull(value, what);
    if (value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank");
    }
    if (value.length() > max) {
      throw new IllegalArgumentException(what + " must be at most " + max + " characters, was " + value.length());
    }
    int lone = CanonicalText.loneSurrogate(value);
    if (lone >= 0) {
      throw new IllegalArgumentException(what + " has a lone surrogate (\\u" + Integer.toHexString(value.charAt(lone))
          + ") at index " + lone + ": it is not valid Unicode text and cannot be stored or hashed without changing it");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException(what + " has a control character (\\u" + String.format("%04x", (int) value.charAt(i))
            + ") at index " + i + "; identifiers are printable text");
      }
    }
  }
}
