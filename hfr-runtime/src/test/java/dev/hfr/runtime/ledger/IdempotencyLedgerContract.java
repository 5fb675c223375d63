package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The behaviour every ledger backend must have (paper §4.5, Table 6). Each backend's test class extends
 * this and says how to open (and, if it persists, reopen) a ledger.
 */
public abstract class IdempotencyLedgerContract {

  protected static final String TENANT = "acme";
  protected static final String OTHER_TENANT = "globex";
  protected static final long START_MILLIS = Instant.parse("2026-11-29T12:00:00Z").toEpochMilli();

  protected VirtualTime time;
  protected IdempotencyLedger ledger;

  /** A new, empty ledger with these options. */
  protected abstract IdempotencyLedger open(LedgerOptions options) throws Exception;

  /** Whether records survive {@link #reopen}. */
  protected boolean persistent() {
    return false;
  }

  /**
   * Whether a lease survives reopening. The embedded ledger says no: only one process can open it, so a
   * lease found on open belonged to a dead process and its keys are free at once.
   */
  protected boolean leasesSurviveReopen() {
    return true;
  }

  /** Closes {@code old} and opens the same storage again. */
  protected IdempotencyLedger reopen(IdempotencyLedger old, LedgerOptions options) throws Exception {
    throw new UnsupportedOperationException("not a persistent backend");
  }

  /** Everything the backend has stored, as text (file bytes, table rows), or {@code null} if it keeps nothing outside the heap. */
  protected String storedText() throws Exception {
    return null;
  }

  protected LedgerOptions options() {
    return LedgerOptions.defaults().withClock(time);
  }

  @BeforeEach
  void openLedger() throws Exception {
    time = new VirtualTime(START_MILLIS);
    ledger = open(options());
  }

  @AfterEach
  void closeLedger() {
    if (ledger != null) {
      ledger.close();
    }
  }

  static String key(int i) {
    return IdempotencyKeys.key(TENANT, "task-1", "Orders.create", List.of(i), 0);
  }

  static String args(Object... args) {
    return IdempotencyKeys.argsHash(List.of(args));
  }

  static String result(Object result) {
    return IdempotencyKeys.resultHash(result);
  }

  private LedgerRecord prepared(String key) {
    return ledger.prepare(TENANT, key, "Orders.create", args(key));
  }

  private void advance(Duration d) {
    time.advance(d.toNanos());
  }

  /** Moves {@code key} of {@link #TENANT} from one state to another, with no result and no lease. */
  private LedgerRecord move(String key, LedgerState from, LedgerState to) {
    return ledger.transition(TENANT, key, from, to, null, 0);
  }

  /** Closes the ledger of this test and opens a new, empty one with {@code options} in its place. */
  protected void openInstead(LedgerOptions options) throws Exception {
    ledger.close();
    ledger = open(options);
  }

  /** One worker of {@link #concurrently}: {@code owner} names it. */
  @FunctionalInterface
  interface Worker {
    void run(String owner) throws Exception;
  }

  /** Runs {@code worker} on {@code threads} threads released at the same moment, and waits for all of them. */
  private static void concurrently(int threads, Worker worker) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String owner = "worker-" + t;
        futures.add(pool.submit(() -> {
          start.await();
          worker.run(owner);
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @DisplayName("prepare records the intent in PREPARED with empty evidence and the clock's time")
  void prepareRecordsIntent() {
    LedgerRecord r = ledger.prepare(TENANT, key(1), "Orders.create", args("sku-1", 2));

    assertThat(r.state()).isEqualTo(LedgerState.PREPARED);
    assertThat(r.tenant()).isEqualTo(TENANT);
    assertThat(r.key()).isEqualTo(key(1));
    assertThat(r.tool()).isEqualTo("Orders.create");
    assertThat(r.argsHash()).isEqualTo(args("sku-1", 2)).hasSize(64);
    assertThat(r.attempts()).isZero();
    assertThat(r.resultHash()).isNull();
    assertThat(r.fencingToken()).isZero();
    assertThat(r.createdAt()).isEqualTo(Instant.ofEpochMilli(START_MILLIS));
    assertThat(r.updatedAt()).isEqualTo(r.createdAt());
    assertThat(ledger.find(TENANT, key(1))).contains(r);
  }

  @Test
  @DisplayName("tenant ids are checked on entry: a lone surrogate or a control character is refused, so \"acme\\uD800\" is never \"acme?\"")
  void tenantIdsAreValidated() {
    assertThatThrownBy(() -> ledger.prepare("acme\uD800", key(1), "Orders.create", args(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tenant has a lone surrogate (\\ud800) at index 4");
    assertThatThrownBy(() -> ledger.find("acme\u0000", key(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tenant has a control character");
    ledger.prepare("acme?", key(1), "Orders.create", args(1));
    assertThat(ledger.find("acme?", key(1))).isPresent();
    assertThatThrownBy(() -> ledger.find("acme\uDC00", key(1))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("preparing an existing key returns the record unchanged (a retry or a replay reuses the key)")
  void prepareIsIdempotent() {
    LedgerRecord first = prepared(key(1));
    advance(Duration.ofSeconds(5));
    move(key(1), LedgerState.PREPARED, LedgerState.UNKNOWN);

    LedgerRecord again = prepared(key(1));

    assertThat(again.state()).isEqualTo(LedgerState.UNKNOWN);
    assertThat(again.createdAt()).isEqualTo(first.createdAt());
    assertThat(again.attempts()).isEqualTo(1);
  }

  @Test
  @DisplayName("preparing a key for another tool or other arguments is refused and changes nothing")
  void prepareRefusesConflictingIntent() {
    LedgerRecord first = prepared(key(1));

    assertThatThrownBy(() -> ledger.prepare(TENANT, key(1), "Orders.create", args("something else")))
        .isInstanceOf(LedgerKeyConflictException.class)
        .hasMessageContaining(key(1));
    assertThatThrownBy(() -> ledger.prepare(TENANT, key(1), "Payments.charge", first.argsHash()))
        .isInstanceOf(LedgerKeyConflictException.class);
    assertThat(ledger.find(TENANT, key(1))).contains(first);
  }

  /** A path of transitions from PREPARED to each state. */
  private static final Map<LedgerState, List<LedgerState>> PATHS = new EnumMap<>(Map.of(
      LedgerState.PREPARED, List.of(),
      LedgerState.COMMITTED, List.of(LedgerState.COMMITTED),
      LedgerState.FAILED, List.of(LedgerState.FAILED),
      LedgerState.UNKNOWN, List.of(LedgerState.UNKNOWN),
      LedgerState.RECONCILED_COMMITTED, List.of(LedgerState.UNKNOWN, LedgerState.RECONCILED_COMMITTED),
      LedgerState.RECONCILED_ABSENT, List.of(LedgerState.UNKNOWN, LedgerState.RECONCILED_ABSENT),
      LedgerState.COMPENSATED, List.of(LedgerState.COMMITTED, LedgerState.COMPENSATED)));

  static Stream<Arguments> everyPairOfStates() {
    List<Arguments> pairs = new ArrayList<>();
    for (LedgerState from : LedgerState.values()) {
      for (LedgerState to : LedgerState.values()) {
        pairs.add(Arguments.of(from, to));
      }
    }
    return pairs.stream();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("everyPairOfStates")
  @DisplayName("exactly the transitions of Table 6 are applied; every other one is refused and changes nothing")
  void table6(LedgerState from, LedgerState to) {
    String k = key(7);
    prepared(k);
    LedgerState at = LedgerState.PREPARED;
    for (LedgerState step : PATHS.get(from)) {
      move(k, at, step);
      at = step;
    }
    LedgerRecord before = ledger.find(TENANT, k).orElseThrow();
    assertThat(before.state()).isEqualTo(from);
    advance(Duration.ofSeconds(1));

    if (from.canMoveTo(to)) {
      LedgerRecord after = move(k, from, to);
      assertThat(after.state()).isEqualTo(to);
      assertThat(after.updatedAt()).isAfter(before.updatedAt());
      assertThat(ledger.find(TENANT, k)).contains(after);
    } else {
      assertThatThrownBy(() -> move(k, from, to))
          .isInstanceOf(IllegalLedgerTransitionException.class)
          .hasMessageContaining(from + " -> " + to);
      assertThat(ledger.find(TENANT, k)).contains(before);
    }
  }

  @Test
  @DisplayName("Table 6 is what the paper says: PREPARED -> COMMITTED/FAILED/UNKNOWN, UNKNOWN must reconcile, ABSENT and FAILED may re-prepare")
  void table6MatchesThePaper() {
    assertThat(LedgerState.PREPARED.successors())
        .containsExactlyInAnyOrder(LedgerState.COMMITTED, LedgerState.FAILED, LedgerState.UNKNOWN);
    assertThat(LedgerState.UNKNOWN.successors())
        .containsExactlyInAnyOrder(LedgerState.RECONCILED_COMMITTED, LedgerState.RECONCILED_ABSENT, LedgerState.UNKNOWN);
    assertThat(LedgerState.FAILED.successors()).containsExactly(LedgerState.PREPARED);
    assertThat(LedgerState.RECONCILED_ABSENT.successors()).containsExactly(LedgerState.PREPARED);
    assertThat(LedgerState.COMMITTED.successors()).containsExactly(LedgerState.COMPENSATED);
    assertThat(LedgerState.RECONCILED_COMMITTED.successors()).containsExactly(LedgerState.COMPENSATED);
    assertThat(LedgerState.COMPENSATED.successors()).isEmpty();
  }

  @Test
  @DisplayName("a transition whose expected state does not match the record is refused and changes nothing")
  void expectedStateMustMatch() {
    prepared(key(1));
    ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("order-1"), 0);
    LedgerRecord committed = ledger.find(TENANT, key(1)).orElseThrow();

    assertThatThrownBy(() -> ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("order-2"), 0))
        .isInstanceOf(IllegalLedgerTransitionException.class)
        .hasMessageContaining("is COMMITTED, not PREPARED");
    assertThat(ledger.find(TENANT, key(1))).contains(committed);
  }

  @Test
  @DisplayName("a transition on a key that was never prepared is refused")
  void transitionOnUnknownKey() {
    assertThatThrownBy(() -> move(key(404), LedgerState.PREPARED, LedgerState.COMMITTED))
        .isInstanceOf(UnknownLedgerKeyException.class)
        .isInstanceOf(IllegalLedgerTransitionException.class)
        .hasMessageContaining(key(404));
    assertThat(ledger.find(TENANT, key(404))).isEmpty();
  }

  @Test
  @DisplayName("evidence: attempts count each attempt that ended, the result hash is kept through compensation, times advance")
  void evidence() {
    LedgerRecord p = prepared(key(1));
    advance(Duration.ofMillis(10));
    move(key(1), LedgerState.PREPARED, LedgerState.FAILED);
    move(key(1), LedgerState.FAILED, LedgerState.PREPARED);
    move(key(1), LedgerState.PREPARED, LedgerState.UNKNOWN);
    move(key(1), LedgerState.UNKNOWN, LedgerState.UNKNOWN);
    move(key(1), LedgerState.UNKNOWN, LedgerState.RECONCILED_ABSENT);
    move(key(1), LedgerState.RECONCILED_ABSENT, LedgerState.PREPARED);
    advance(Duration.ofMillis(10));
    LedgerRecord c = ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("order-1"), 0);

    assertThat(c.attempts()).isEqualTo(3);
    assertThat(c.resultHash()).isEqualTo(result("order-1"));
    assertThat(c.createdAt()).isEqualTo(p.createdAt());
    assertThat(c.updatedAt()).isEqualTo(Instant.ofEpochMilli(START_MILLIS + 20));

    LedgerRecord comp = move(key(1), LedgerState.COMMITTED, LedgerState.COMPENSATED);
    assertThat(comp.resultHash()).isEqualTo(result("order-1"));
    assertThat(comp.attempts()).isEqualTo(3);
  }

  @Test
  @DisplayName("records are namespaced by tenant: the same key in another tenant is another record, and no operation crosses over")
  void tenantsAreIsolated() {
    String k = key(1);
    ledger.prepare(TENANT, k, "Orders.create", args("a"));
    ledger.transition(TENANT, k, LedgerState.PREPARED, LedgerState.COMMITTED, result("x"), 0);

    assertThat(ledger.find(OTHER_TENANT, k)).isEmpty();
    assertThatThrownBy(() -> ledger.transition(OTHER_TENANT, k, LedgerState.COMMITTED, LedgerState.COMPENSATED, null, 0))
        .isInstanceOf(UnknownLedgerKeyException.class);
    assertThatThrownBy(() -> ledger.acquireLease(OTHER_TENANT, k, "intruder", Duration.ofSeconds(10)))
        .isInstanceOf(UnknownLedgerKeyException.class);

    LedgerRecord theirs = ledger.prepare(OTHER_TENANT, k, "Payments.charge", args("b"));
    assertThat(theirs.state()).isEqualTo(LedgerState.PREPARED);
    assertThat(ledger.find(TENANT, k).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    assertThat(ledger.find(TENANT, k).orElseThrow().tool()).isEqualTo("Orders.create");
    assertThat(ledger.pending()).extracting(LedgerRecord::tenant).containsExactly(OTHER_TENANT);
  }

  @Test
  @DisplayName("a lease excludes other holders until it expires; each lease's fencing token is greater than every earlier one")
  void leasesAndFencing() {
    prepared(key(1));
    Lease first = ledger.acquireLease(TENANT, key(1), "worker-a", Duration.ofSeconds(30)).orElseThrow();
    assertThat(first.fencingToken()).isEqualTo(1);
    assertThat(first.owner()).isEqualTo("worker-a");
    assertThat(first.expiresAt()).isEqualTo(Instant.ofEpochMilli(START_MILLIS + 30_000));
    assertThat(ledger.find(TENANT, key(1)).orElseThrow().fencingToken()).isEqualTo(1);

    assertThat(ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofSeconds(30))).isEmpty();
    advance(Duration.ofSeconds(29));
    assertThat(ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofSeconds(30))).isEmpty();

    advance(Duration.ofSeconds(1));
    Lease second = ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofSeconds(30)).orElseThrow();
    assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
  }

  @Test
  @DisplayName("a write with a stale fencing token is refused and changes nothing; the current holder's write is applied")
  void staleTokenRefused() {
    prepared(key(1));
    Lease a = ledger.acquireLease(TENANT, key(1), "worker-a", Duration.ofSeconds(1)).orElseThrow();
    advance(Duration.ofSeconds(2));
    Lease b = ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofSeconds(10)).orElseThrow();
    LedgerRecord before = ledger.find(TENANT, key(1)).orElseThrow();

    assertThatThrownBy(() -> ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("a"), a.fencingToken()))
        .isInstanceOf(StaleFencingTokenException.class)
        .hasMessageContaining("fencing token " + a.fencingToken());
    assertThatThrownBy(() -> ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("none"), 0))
        .isInstanceOf(StaleFencingTokenException.class);
    assertThat(ledger.find(TENANT, key(1))).contains(before);

    LedgerRecord c = ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("b"), b.fencingToken());
    assertThat(c.state()).isEqualTo(LedgerState.COMMITTED);
    assertThat(c.resultHash()).isEqualTo(result("b"));
    assertThat(c.fencingToken()).isEqualTo(b.fencingToken());
  }

  @Test
  @DisplayName("releasing a lease lets the next holder in at once; releasing a stale lease is ignored")
  void releaseLease() {
    prepared(key(1));
    Lease a = ledger.acquireLease(TENANT, key(1), "worker-a", Duration.ofMinutes(5)).orElseThrow();
    ledger.releaseLease(a);
    Lease b = ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofMinutes(5)).orElseThrow();

    ledger.releaseLease(a); // stale: must not free b's lease
    assertThat(ledger.acquireLease(TENANT, key(1), "worker-c", Duration.ofMinutes(5))).isEmpty();
    assertThat(b.fencingToken()).isEqualTo(2);
  }

  @Test
  @DisplayName("a commit, a reconciled commit or a compensation ends the key's lease in the same step; a failure or an unknown outcome keeps it")
  void settlingForGoodEndsTheLease() {
    Duration ttl = Duration.ofMinutes(5);
    Prepared p = ledger.prepareIfAbsent(TENANT, key(1), "Orders.create", args(1), "worker-a", ttl);
    ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("a"), p.lease().fencingToken());
    assertThat(ledger.currentLease(TENANT, key(1))).as("ended by the commit").isEmpty();
    assertThat(ledger.renewLease(p.lease(), ttl)).as("nothing left to renew").isEmpty();
    ledger.releaseLease(p.lease()); // nothing left to release: ignored
    Lease compensator = ledger.acquireLease(TENANT, key(1), "compensator", ttl).orElseThrow();
    assertThat(compensator.fencingToken()).as("tokens still only grow").isGreaterThan(p.lease().fencingToken());
    ledger.transition(TENANT, key(1), LedgerState.COMMITTED, LedgerState.COMPENSATED, null, compensator.fencingToken());
    assertThat(ledger.currentLease(TENANT, key(1))).as("ended by the compensation").isEmpty();

    Prepared q = ledger.prepareIfAbsent(TENANT, key(2), "Orders.create", args(2), "worker-a", ttl);
    ledger.transition(TENANT, key(2), LedgerState.PREPARED, LedgerState.UNKNOWN, null, q.lease().fencingToken());
    assertThat(ledger.currentLease(TENANT, key(2))).as("an unknown outcome is reconciled under the same lease").contains(q.lease());
    ledger.transition(TENANT, key(2), LedgerState.UNKNOWN, LedgerState.RECONCILED_COMMITTED, result("b"), q.lease().fencingToken());
    assertThat(ledger.currentLease(TENANT, key(2))).as("ended by the reconciled commit").isEmpty();

    Prepared f = ledger.prepareIfAbsent(TENANT, key(3), "Orders.create", args(3), "worker-a", ttl);
    ledger.transition(TENANT, key(3), LedgerState.PREPARED, LedgerState.FAILED, null, f.lease().fencingToken());
    assertThat(ledger.currentLease(TENANT, key(3))).as("a failed write may be prepared again by its holder").contains(f.lease());
    assertThat(ledger.acquireLease(TENANT, key(3), "worker-b", ttl)).isEmpty();
  }

  @Test
  @DisplayName("the holder may renew its lease; the renewal gets a new, greater token")
  void renewLease() {
    prepared(key(1));
    Lease a = ledger.acquireLease(TENANT, key(1), "worker-a", Duration.ofSeconds(5)).orElseThrow();
    Lease renewed = ledger.acquireLease(TENANT, key(1), "worker-a", Duration.ofSeconds(5)).orElseThrow();
    assertThat(renewed.fencingToken()).isGreaterThan(a.fencingToken());
  }

  @Test
  @DisplayName("pending() lists the PREPARED and UNKNOWN records of every tenant, oldest first, and nothing settled")
  void pendingForCrashResume() {
    for (int i = 0; i < 6; i++) {
      prepared(key(i));
      advance(Duration.ofMillis(1));
    }
    ledger.prepare(OTHER_TENANT, key(0), "Orders.create", args(key(0)));
    move(key(1), LedgerState.PREPARED, LedgerState.COMMITTED);
    move(key(2), LedgerState.PREPARED, LedgerState.UNKNOWN);
    move(key(3), LedgerState.PREPARED, LedgerState.FAILED);
    move(key(4), LedgerState.PREPARED, LedgerState.UNKNOWN);
    move(key(4), LedgerState.UNKNOWN, LedgerState.RECONCILED_ABSENT);

    List<LedgerRecord> pending = ledger.pending();

    assertThat(pending).extracting(r -> r.tenant() + "/" + r.key() + "/" + r.state())
        .containsExactly(
            TENANT + "/" + key(0) + "/PREPARED",
            TENANT + "/" + key(2) + "/UNKNOWN",
            TENANT + "/" + key(5) + "/PREPARED",
            OTHER_TENANT + "/" + key(0) + "/PREPARED");
  }

  @Test
  @DisplayName("expire deletes settled records older than the cutoff and never a PREPARED or UNKNOWN one")
  void expire() throws Exception {
    openInstead(options().withRetention(Duration.ofDays(365))); // no automatic sweep in this test
    prepared(key(1));
    prepared(key(2));
    prepared(key(3));
    prepared(key(4));
    move(key(1), LedgerState.PREPARED, LedgerState.COMMITTED);
    move(key(2), LedgerState.PREPARED, LedgerState.UNKNOWN);
    move(key(3), LedgerState.PREPARED, LedgerState.FAILED);
    advance(Duration.ofHours(25));
    prepared(key(5));
    move(key(5), LedgerState.PREPARED, LedgerState.COMMITTED);

    int removed = ledger.expire(Instant.ofEpochMilli(time.epochMillis()).minus(Duration.ofHours(24)));

    assertThat(removed).isEqualTo(2);
    assertThat(ledger.find(TENANT, key(1))).isEmpty();
    assertThat(ledger.find(TENANT, key(3))).isEmpty();
    assertThat(ledger.find(TENANT, key(2))).isPresent();
    assertThat(ledger.find(TENANT, key(4))).isPresent();
    assertThat(ledger.find(TENANT, key(5))).isPresent();
  }

  @Test
  @DisplayName("settled records are deleted by themselves once the configured retention has passed")
  void retentionSweep() throws Exception {
    openInstead(options().withRetention(Duration.ofHours(1)));
    prepared(key(1));
    move(key(1), LedgerState.PREPARED, LedgerState.COMMITTED);
    prepared(key(2));
    advance(Duration.ofMinutes(59));
    prepared(key(3));
    assertThat(ledger.find(TENANT, key(1))).isPresent();

    advance(Duration.ofMinutes(5));
    prepared(key(4));

    // A backend may delete in the background (PostgreSQL does, off the caller's time): within seconds, then.
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (ledger.find(TENANT, key(1)).isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ledger.find(TENANT, key(1))).isEmpty();
    assertThat(ledger.find(TENANT, key(2))).isPresent();
  }

  @Test
  @DisplayName("bad input is refused with a clear error and records nothing")
  void badInput() {
    assertThatThrownBy(() -> ledger.prepare(" ", key(1), "Orders.create", args(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenant");
    assertThatThrownBy(() -> ledger.prepare(TENANT, null, "Orders.create", args(1)))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("key");
    assertThatThrownBy(() -> ledger.prepare(TENANT, "k".repeat(300), "Orders.create", args(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most");
    assertThatThrownBy(() -> ledger.prepare(TENANT, key(1), "", args(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool");
    prepared(key(1));
    assertThatThrownBy(() -> ledger.acquireLease(TENANT, key(1), "w", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ttl");
    assertThat(ledger.pending()).hasSize(1);
  }

  @Test
  @DisplayName("under concurrency each key is committed exactly once, by whoever holds its lease")
  void concurrentCommitExactlyOnce() throws Exception {
    int keys = 100;
    ConcurrentHashMap<String, AtomicInteger> commits = new ConcurrentHashMap<>();
    concurrently(4, owner -> {
      for (int i = 0; i < keys; i++) {
        String k = key(i);
        prepared(k);
        Optional<Lease> lease = ledger.acquireLease(TENANT, k, owner, Duration.ofMinutes(1));
        if (lease.isEmpty()) {
          continue;
        }
        try {
          ledger.transition(TENANT, k, LedgerState.PREPARED, LedgerState.COMMITTED, result(owner), lease.get().fencingToken());
          commits.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet();
        } catch (IllegalLedgerTransitionException | StaleFencingTokenException refused) {
          // another worker committed first, or took the lease after ours was released
        } finally {
          ledger.releaseLease(lease.get());
        }
      }
    });
    for (int i = 0; i < keys; i++) {
      assertThat(commits.get(key(i))).as("commits of key %d", i).hasValue(1);
      assertThat(ledger.find(TENANT, key(i)).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
      assertThat(ledger.find(TENANT, key(i)).orElseThrow().attempts()).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("persistent backends: every acknowledged record and lease survives closing and reopening")
  void survivesReopen() throws Exception {
    assumeTrue(persistent(), "this backend keeps nothing across restarts");
    prepared(key(1));
    prepared(key(2));
    ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("order-1"), 0);
    Lease lease = ledger.acquireLease(TENANT, key(2), "worker-a", Duration.ofMinutes(5)).orElseThrow();
    ledger.prepare(OTHER_TENANT, key(1), "Orders.create", args("other"));
    List<LedgerRecord> before = List.of(
        ledger.find(TENANT, key(1)).orElseThrow(), ledger.find(TENANT, key(2)).orElseThrow(), ledger.find(OTHER_TENANT, key(1)).orElseThrow());

    ledger = reopen(ledger, options());

    assertThat(List.of(
        ledger.find(TENANT, key(1)).orElseThrow(), ledger.find(TENANT, key(2)).orElseThrow(), ledger.find(OTHER_TENANT, key(1)).orElseThrow()))
        .isEqualTo(before);
    if (leasesSurviveReopen()) {
      assertThat(ledger.acquireLease(TENANT, key(2), "worker-b", Duration.ofMinutes(5))).as("the lease survived").isEmpty();
    } else {
      assertThat(ledger.currentLease(TENANT, key(2))).as("the dead process's lease").isEmpty();
      assertThat(ledger.acquireLease(TENANT, key(2), "worker-b", Duration.ofMinutes(5)).orElseThrow().fencingToken())
          .as("a takeover's token").isGreaterThan(lease.fencingToken());
    }
    assertThatThrownBy(() -> ledger.transition(TENANT, key(2), LedgerState.PREPARED, LedgerState.COMMITTED, null, lease.fencingToken() - 1))
        .isInstanceOf(StaleFencingTokenException.class);
    assertThat(ledger.pending()).hasSize(2);
  }

  @Test
  @DisplayName("prepareIfAbsent creates the record leased to its creator; a second call gets the record back, unleased and unchanged")
  void prepareIfAbsentCreatesOnce() {
    Prepared first = ledger.prepareIfAbsent(TENANT, key(1), "Orders.create", args(1), "worker-a", Duration.ofSeconds(20));
    assertThat(first.created()).isTrue();
    assertThat(first.record().state()).isEqualTo(LedgerState.PREPARED);
    assertThat(first.lease().owner()).isEqualTo("worker-a");
    assertThat(first.lease().fencingToken()).isEqualTo(first.record().fencingToken()).isEqualTo(1);
    assertThat(first.lease().expiresAt()).isEqualTo(Instant.ofEpochMilli(START_MILLIS + 20_000));
    assertThat(ledger.currentLease(TENANT, key(1))).contains(first.lease());

    Prepared second = ledger.prepareIfAbsent(TENANT, key(1), "Orders.create", args(1), "worker-b", Duration.ofSeconds(20));
    assertThat(second.created()).isFalse();
    assertThat(second.lease()).isNull();
    assertThat(second.record()).isEqualTo(first.record());
    assertThat(ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofSeconds(20))).as("the creator's lease is live").isEmpty();
    assertThatThrownBy(() -> ledger.prepareIfAbsent(TENANT, key(1), "Orders.create", args(2), "worker-b", Duration.ofSeconds(20)))
        .isInstanceOf(LedgerKeyConflictException.class);
  }

  @Test
  @DisplayName("of many callers racing prepareIfAbsent on one key, exactly one creates it")
  void prepareIfAbsentRace() throws Exception {
    int keys = 50;
    ConcurrentHashMap<String, AtomicInteger> creators = new ConcurrentHashMap<>();
    concurrently(4, owner -> {
      for (int i = 0; i < keys; i++) {
        if (ledger.prepareIfAbsent(TENANT, key(i), "Orders.create", args(key(i)), owner, Duration.ofMinutes(1)).created()) {
          creators.computeIfAbsent(key(i), x -> new AtomicInteger()).incrementAndGet();
        }
      }
    });
    for (int i = 0; i < keys; i++) {
      assertThat(creators.get(key(i))).as("creators of key %d", i).hasValue(1);
    }
  }

  @Test
  @DisplayName("a heartbeat renews a live lease with the same token; after a takeover the old holder's renewal is refused")
  void renewLeaseHeartbeat() {
    Lease a = ledger.prepareIfAbsent(TENANT, key(1), "Orders.create", args(1), "worker-a", Duration.ofSeconds(10)).lease();
    advance(Duration.ofSeconds(8));
    Lease renewed = ledger.renewLease(a, Duration.ofSeconds(10)).orElseThrow();
    assertThat(renewed.fencingToken()).isEqualTo(a.fencingToken());
    assertThat(renewed.expiresAt()).isEqualTo(Instant.ofEpochMilli(START_MILLIS + 18_000));
    advance(Duration.ofSeconds(8));
    assertThat(ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofSeconds(10))).as("renewed past the first expiry").isEmpty();
    assertThat(ledger.currentLease(TENANT, key(1)).orElseThrow().owner()).isEqualTo("worker-a");

    advance(Duration.ofSeconds(3)); // the holder stopped beating: its lease lapses
    assertThat(ledger.currentLease(TENANT, key(1))).isEmpty();
    Lease b = ledger.acquireLease(TENANT, key(1), "worker-b", Duration.ofSeconds(10)).orElseThrow();
    assertThat(ledger.renewLease(a, Duration.ofSeconds(10))).as("the old holder lost the key").isEmpty();
    assertThat(ledger.currentLease(TENANT, key(1))).contains(b);
    assertThat(ledger.renewLease(b, Duration.ofSeconds(10))).isPresent();
  }

  @Test
  @DisplayName("arguments are stored hashed: what the backend stores holds the hash, never the raw value")
  void argumentsStoredHashed() throws Exception {
    ledger.prepare(TENANT, key(1), "Payments.charge", IdempotencyKeys.argsHash(List.of("card 4242-4242-4242-4242")));
    String stored = storedText();
    assumeTrue(stored != null, "this backend stores nothing outside the heap");
    assertThat(stored).contains(key(1)).doesNotContain("4242");
  }

  @Test
  @DisplayName("a closed ledger refuses further use")
  void closedLedgerRefuses() {
    ledger.close();
    assertThatThrownBy(() -> ledger.prepare(TENANT, key(1), "Orders.create", args(1))).isInstanceOf(IllegalStateException.class);
    ledger = null;
  }

  // Task ids on records and task checkpoints (§5.4): what crash resume lists a cut-off task by.

  private TaskCheckpoint checkpoint(String tenant, String task, TaskCheckpoint.Phase phase) {
    Instant now = Instant.ofEpochMilli(time.epochMillis());
    return new TaskCheckpoint(tenant, task, phase, "spec-v1;config=defaults", null, "engine-a", now, now);
  }

  @Test
  @DisplayName("a write prepared for a task carries the task id through every transition and lease, and is listed with its task")
  void recordsCarryTheirTask() {
    Prepared p = ledger.prepareIfAbsent(TENANT, "task-7", key(1), "Orders.create", args(1), "w1", Duration.ofSeconds(20));
    ledger.prepareIfAbsent(TENANT, "task-8", key(2), "Orders.create", args(2), "w1", Duration.ofSeconds(20));
    ledger.prepareIfAbsent(OTHER_TENANT, "task-7", key(3), "Orders.create", args(3), "w1", Duration.ofSeconds(20));
    ledger.prepareIfAbsent(TENANT, key(4), "Orders.create", args(4), "w1", Duration.ofSeconds(20));

    assertThat(p.record().taskId()).isEqualTo("task-7");
    ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.UNKNOWN, null, p.lease().fencingToken());
    ledger.releaseLease(p.lease());
    Lease again = ledger.acquireLease(TENANT, key(1), "w2", Duration.ofSeconds(20)).orElseThrow();
    ledger.transition(TENANT, key(1), LedgerState.UNKNOWN, LedgerState.RECONCILED_COMMITTED, result("ok"), again.fencingToken());

    assertThat(ledger.find(TENANT, key(1)).orElseThrow().taskId()).isEqualTo("task-7");
    assertThat(ledger.find(TENANT, key(4)).orElseThrow().taskId()).as("prepared without a task").isNull();
    assertThat(ledger.taskRecords(TENANT, "task-7")).extracting(LedgerRecord::key, LedgerRecord::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(key(1), LedgerState.RECONCILED_COMMITTED));
    assertThat(ledger.taskRecords(OTHER_TENANT, "task-7")).extracting(LedgerRecord::key).containsExactly(key(3));
    assertThat(ledger.taskRecords(TENANT, "task-9")).isEmpty();
  }

  @Test
  @DisplayName("a task's unfinished records are its PREPARED and UNKNOWN ones, oldest first, whatever they went through")
  void unfinishedRecordsOfATask() {
    Duration ttl = Duration.ofSeconds(20);
    Prepared committed = ledger.prepareIfAbsent(TENANT, "task-7", key(1), "Orders.create", args(1), "w1", ttl);
    advance(Duration.ofMillis(1));
    Prepared unknown = ledger.prepareIfAbsent(TENANT, "task-7", key(2), "Orders.create", args(2), "w1", ttl);
    advance(Duration.ofMillis(1));
    Prepared retried = ledger.prepareIfAbsent(TENANT, "task-7", key(3), "Orders.create", args(3), "w1", ttl);
    advance(Duration.ofMillis(1));
    ledger.prepareIfAbsent(TENANT, "task-7", key(4), "Orders.create", args(4), "w1", ttl);
    ledger.prepareIfAbsent(OTHER_TENANT, "task-7", key(5), "Orders.create", args(5), "w1", ttl);
    ledger.prepareIfAbsent(TENANT, "task-8", key(6), "Orders.create", args(6), "w1", ttl);
    ledger.transition(TENANT, key(1), LedgerState.PREPARED, LedgerState.COMMITTED, result("ok"), committed.lease().fencingToken());
    ledger.transition(TENANT, key(2), LedgerState.PREPARED, LedgerState.UNKNOWN, null, unknown.lease().fencingToken());
    ledger.transition(TENANT, key(3), LedgerState.PREPARED, LedgerState.FAILED, null, retried.lease().fencingToken());
    ledger.transition(TENANT, key(3), LedgerState.FAILED, LedgerState.PREPARED, null, retried.lease().fencingToken());

    assertThat(ledger.unfinishedTaskRecords(TENANT, "task-7")).extracting(LedgerRecord::key, LedgerRecord::state).containsExactly(
        org.assertj.core.groups.Tuple.tuple(key(2), LedgerState.UNKNOWN), org.assertj.core.groups.Tuple.tuple(key(3), LedgerState.PREPARED),
        org.assertj.core.groups.Tuple.tuple(key(4), LedgerState.PREPARED));
    assertThat(ledger.unfinishedTaskRecords(OTHER_TENANT, "task-7")).extracting(LedgerRecord::key).containsExactly(key(5));
    assertThat(ledger.unfinishedTaskRecords(TENANT, "task-9")).isEmpty();
    assertThat(ledger.taskRecords(TENANT, "task-7")).hasSize(4);
  }

  @Test
  @DisplayName("a task's checkpoint replaces the one before and returns it; open tasks are the started and escalated ones, per tenant")
  void checkpointsKeepTheLatestPerTask() {
    TaskCheckpoint start = checkpoint(TENANT, "t1", TaskCheckpoint.Phase.STARTED);
    assertThat(ledger.saveCheckpoint(start)).isEmpty();
    advance(Duration.ofSeconds(1));
    ledger.saveCheckpoint(checkpoint(TENANT, "t2", TaskCheckpoint.Phase.STARTED));
    ledger.saveCheckpoint(checkpoint(OTHER_TENANT, "t1", TaskCheckpoint.Phase.STARTED));
    advance(Duration.ofSeconds(1));
    TaskCheckpoint escalated = start
        .next(TaskCheckpoint.Phase.ESCALATED, "step=2 tool=Orders.create reason=reconcile_unknown", Instant.ofEpochMilli(time.epochMillis()));

    Optional<TaskCheckpoint> before = ledger.saveCheckpoint(escalated);
    ledger.saveCheckpoint(checkpoint(TENANT, "t2", TaskCheckpoint.Phase.STARTED).next(TaskCheckpoint.Phase.CLOSED, null,
        Instant.ofEpochMilli(time.epochMillis())));

    assertThat(before).map(TaskCheckpoint::phase).contains(TaskCheckpoint.Phase.STARTED);
    assertThat(ledger.findCheckpoint(TENANT, "t1")).contains(escalated);
    assertThat(ledger.findCheckpoint(TENANT, "t2")).map(TaskCheckpoint::phase).contains(TaskCheckpoint.Phase.CLOSED);
    assertThat(ledger.findCheckpoint(TENANT, "t3")).isEmpty();
    assertThat(ledger.openTasks()).extracting(TaskCheckpoint::tenant, TaskCheckpoint::taskId, TaskCheckpoint::phase).containsExactly(
        org.assertj.core.groups.Tuple.tuple(TENANT, "t1", TaskCheckpoint.Phase.ESCALATED),
        org.assertj.core.groups.Tuple.tuple(OTHER_TENANT, "t1", TaskCheckpoint.Phase.STARTED));
  }

  @Test
  @DisplayName("closed tasks' checkpoints expire with the settled records; open ones stay however old")
  void closedCheckpointsExpire() {
    ledger.saveCheckpoint(checkpoint(TENANT, "open", TaskCheckpoint.Phase.STARTED));
    ledger.saveCheckpoint(checkpoint(TENANT, "closed", TaskCheckpoint.Phase.CLOSED));
    advance(Duration.ofHours(2));

    ledger.expire(Instant.ofEpochMilli(time.epochMillis()).minus(Duration.ofHours(1)));

    assertThat(ledger.findCheckpoint(TENANT, "closed")).isEmpty();
    assertThat(ledger.findCheckpoint(TENANT, "open")).isPresent();
  }

  @Test
  @DisplayName("a checkpoint too big for one journal frame is refused, naming the task and the limit")
  void oversizedCheckpointRefused() {
    Instant now = Instant.ofEpochMilli(time.epochMillis());
    TaskCheckpoint huge = new TaskCheckpoint(TENANT, "t1", TaskCheckpoint.Phase.STARTED, "x".repeat(5000), null, "engine-a", now, now);

    assertThatThrownBy(() -> ledger.saveCheckpoint(huge))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task t1").hasMessageContaining("4096");
    assertThat(ledger.findCheckpoint(TENANT, "t1")).isEmpty();
  }

  @Test
  @DisplayName("task ids and checkpoints survive a restart")
  void tasksSurviveReopen() throws Exception {
    assumeTrue(persistent(), "this backend keeps nothing across restarts");
    ledger.prepareIfAbsent(TENANT, "task-7", key(1), "Orders.create", args(1), "w1", Duration.ofSeconds(20));
    ledger.saveCheckpoint(checkpoint(TENANT, "task-7", TaskCheckpoint.Phase.STARTED));
    ledger.saveCheckpoint(checkpoint(TENANT, "task-8", TaskCheckpoint.Phase.STARTED).next(TaskCheckpoint.Phase.ESCALATED, "evidence",
        Instant.ofEpochMilli(time.epochMillis())));

    ledger = reopen(ledger, options());

    assertThat(ledger.taskRecords(TENANT, "task-7")).extracting(LedgerRecord::key).containsExactly(key(1));
    assertThat(ledger.openTasks()).extracting(TaskCheckpoint::taskId, TaskCheckpoint::evidence)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("task-7", null), org.assertj.core.groups.Tuple.tuple("task-8", "evidence"));
  }
}
