package dev.hfr.spring.boot.actuate;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.PendingTask;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.fleet.PostgresFleet;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.PostgresLedger;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code hfr} Actuator endpoint: the engine's mode, its breakers, the tenants' retry budgets, the escalations
 * waiting for a human and the writes a restart must reconcile; and a write operation that switches the mode
 * (ENFORCE, SHADOW, OFF). Read-only unless {@code management.endpoint.hfr.access=unrestricted}: switching HFR off
 * is an operator's act, so it sits behind Actuator's usual write access.
 */
@Endpoint(id = "hfr", defaultAccess = Access.READ_ONLY)
public class HfrEndpoint {

  /** How many pending escalations and ledger records the report lists (the counts are always complete). */
  static final int LISTED = 50;

  private final Hfr hfr;
  private final EscalationQueue escalations;
  private final List<String> configuredTenants;
  private final PostgresFleet fleet;

  /**
   * @param escalations the queue escalations wait in, or {@code null} when the application handles them itself
   * @param configuredTenants the tenants of the configuration, whose budgets are listed even before they retry
   */
  public HfrEndpoint(Hfr hfr, EscalationQueue escalations, List<String> configuredTenants) {
    this(hfr, escalations, configuredTenants, null);
  }

  /**
   * @param escalations the queue escalations wait in, or {@code null} when the application handles them itself
   * @param configuredTenants the tenants of the configuration, whose budgets are listed even before they retry
   * @param fleet the fleet the engine shares budgets and breakers with, or {@code null}
   */
  public HfrEndpoint(Hfr hfr, EscalationQueue escalations, List<String> configuredTenants, PostgresFleet fleet) {
    this.hfr = hfr;
    this.escalations = escalations;
    this.configuredTenants = List.copyOf(configuredTenants);
    this.fleet = fleet;
  }

  @ReadOperation
  public Report report() {
    Storage storage = storage();
    Resumable resumable = null;
    if (!Boolean.FALSE.equals(storage.ledgerAvailable())) {
      List<LedgerRecord> pending = hfr.ledger().pending();
      List<PendingTask> tasks = hfr.pendingTasks();
      resumable = new Resumable(pending.size(), pending.stream()
          .sorted(Comparator.comparing(LedgerRecord::updatedAt))
          .limit(LISTED)
          .map(PendingWrite::of)
          .toList(),
          tasks.size(), tasks.stream().limit(LISTED).map(CutOffTask::of).toList());
    }
    return new Report(
        hfr.mode(),
        breakers(),
        budgets(),
        escalations == null ? null
            : new Escalations(escalations.size(), escalations.pending().stream().limit(LISTED).map(Escalation::of).toList()),
        resumable,
        storage);
  }

  /** Where the ledger and the fleet stand: a PostgreSQL ledger or a fleet may be waiting for their database. */
  private Storage storage() {
    IdempotencyLedger ledger = hfr.ledger();
    Boolean available = ledger instanceof PostgresLedger pg ? pg.available() : null;
    Long outages = ledger instanceof PostgresLedger pg ? pg.outages() : null;
    return new Storage(ledger.getClass().getSimpleName(), available, outages, fleet == null ? null : fleet.connected());
  }

  /** Switches the mode: {@code {"mode": "SHADOW"}}; OFF is the kill switch. Answers with the new report. */
  @WriteOperation
  public Report mode(HfrMode mode) {
    hfr.mode(mode);
    return report();
  }

  private List<Breaker> breakers() {
    return hfr.circuitBreakers().map(b -> b.all().stream()
            .sorted(Comparator.comparing((CircuitBreaker c) -> c.kind()).thenComparing(CircuitBreaker::name))
            .map(Breaker::of)
            .toList())
        .orElse(List.of());
  }

  private Budgets budgets() {
    TenantRetryBudgets budgets = hfr.tenantBudgets();
    TreeSet<String> tenants = new TreeSet<>(budgets.tenants());
    tenants.addAll(configuredTenants);
    tenants.add(Hfr.DEFAULT_TENANT);
    return new Budgets(budgets.window().toSeconds(),
        tenants.stream().map(t -> new TenantBudget(t, budgets.available(t), budgets.limit(t))).toList());
  }

  /**
   * What the endpoint answers. {@code resumable} is {@code null} while the ledger's database does not answer
   * ({@code storage.ledgerAvailable} false).
   */
  public record Report(HfrMode mode, List<Breaker> breakers, Budgets budgets, Escalations escalations,
      Resumable resumable, Storage storage) {}

  /**
   * The ledger and the fleet.
   *
   * @param ledger the ledger's kind ({@code PostgresLedger}, {@code EmbeddedFileLedger}, ...)
   * @param ledgerAvailable whether a PostgreSQL ledger's database answers (writes are refused with
   *     {@code ledger_unavailable} while it does not); {@code null} for other ledgers
   * @param ledgerOutages how often a PostgreSQL ledger lost its database (or started without it); {@code null} for others
   * @param fleetConnected whether the fleet's database answers (else this worker runs on its local share);
   *     {@code null} without a fleet
   */
  public record Storage(String ledger, Boolean ledgerAvailable, Long ledgerOutages, Boolean fleetConnected) {}

  /** One circuit breaker. */
  public record Breaker(String kind, String name, String state, String lastTripReason, long timesOpened) {
    static Breaker of(CircuitBreaker b) {
      return new Breaker(b.kind().name(), b.name(), b.state().name(),
          b.lastTripReason() == null ? null : b.lastTripReason().name(), b.openedCount());
    }
  }

  /** The tenants' retry budgets over one window. */
  public record Budgets(long windowSeconds, List<TenantBudget> tenants) {}

  /** One tenant's retries left in the current window. */
  public record TenantBudget(String tenant, int available, int limit) {}

  /** The escalations waiting for a human: all of them counted, the oldest listed. */
  public record Escalations(int pending, List<Escalation> oldest) {}

  /**
   * One escalation (no arguments: they are hashed in the evidence bundle), with what the engine suggests a human do.
   * A model ladder's escalation is about the tool {@code model:<rung>}.
   */
  public record Escalation(String tenant, String taskId, long step, String tool, String risk, String fault,
      String reason, int attempts, String ledgerState, String suggestion) {
    static Escalation of(EvidenceBundle e) {
      return new Escalation(e.tenant(), e.taskId(), e.step(), e.tool(), String.valueOf(e.risk()),
          e.fault() == null ? null : e.fault().name(), e.reason() == null ? null : e.reason().code(), e.attempts(),
          e.ledgerState(), e.suggestion());
    }
  }

  /**
   * What a crash left to resume: the writes left PREPARED or UNKNOWN (what resuming must reconcile), and
   * the tasks other engines opened and never closed ({@link Hfr#pendingTasks()}), all counted, the oldest
   * listed.
   */
  public record Resumable(int pending, List<PendingWrite> oldest, int tasks, List<CutOffTask> oldestTasks) {}

  /** One task cut off mid-way: what {@link Hfr#resumePending()} returns for it. */
  public record CutOffTask(String tenant, String taskId, String phase, Instant startedAt, String owner, int unfinishedWrites,
      boolean configChanged) {
    static CutOffTask of(PendingTask t) {
      return new CutOffTask(t.tenant(), t.taskId(), t.phase().name(), t.startedAt(), t.owner(), t.unfinishedWrites().size(),
          t.configChanged());
    }
  }

  /** One such write. */
  public record PendingWrite(String tenant, String tool, String state, int attempts, Instant updatedAt, String key) {
    static PendingWrite of(LedgerRecord r) {
      return new PendingWrite(r.tenant(), r.tool(), r.state().name(), r.attempts(), r.updatedAt(), r.key());
    }
  }
}
