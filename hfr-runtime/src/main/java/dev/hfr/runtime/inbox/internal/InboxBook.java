package dev.hfr.runtime.inbox.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.Inbox;
import dev.hfr.runtime.inbox.InboxFilter;
import dev.hfr.runtime.inbox.InboxAnswerException;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.inbox.InboxListener;
import dev.hfr.runtime.inbox.InboxStore;
import dev.hfr.runtime.inbox.ItemKind;
import dev.hfr.runtime.inbox.ItemState;
import dev.hfr.runtime.inbox.NewItemListener;
import dev.hfr.runtime.inbox.PersonAnswer;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The inbox's rules, shared by the engine (filing escalations, asking for approvals, reading answers on a re-call)
 * and the people who answer ({@link dev.hfr.runtime.inbox.Inbox}): an answer that changes a write moves its ledger
 * record first, under a lease, then the item; each answer is a decision event, then the listeners hear of it.
 */
public final class InboxBook implements Inbox, AutoCloseable {

  private static final System.Logger LOG = System.getLogger("dev.hfr.inbox");
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  /** How long an answer may hold a write's lease: the two ledger steps of one answer. */
  private static final Duration ANSWER_LEASE = Duration.ofSeconds(30);

  private final InboxStore store;
  private final IdempotencyLedger ledger;
  private final DecisionSink decisions;
  private final Clock clock;
  private final Duration approvalTtl;
  private final boolean ownsStore;
  private final List<InboxListener> listeners = new CopyOnWriteArrayList<>();
  private final List<NewItemListener> filedListeners = new CopyOnWriteArrayList<>();

  /**
   * @param approvalTtl how long an approval request, and then its approval, stays valid
   * @param ownsStore whether {@link #close()} closes the store
   */
  public InboxBook(InboxStore store, IdempotencyLedger ledger, DecisionSink decisions, Clock clock, Duration approvalTtl,
      boolean ownsStore) {
    this.store = Objects.requireNonNull(store, "store");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.decisions = Objects.requireNonNull(decisions, "decisions");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.approvalTtl = Objects.requireNonNull(approvalTtl, "approvalTtl");
    this.ownsStore = ownsStore;
  }

  public InboxStore store() {
    return store;
  }

  @Override
  public Duration approvalTtl() {
    return approvalTtl;
  }

  @Override
  public List<InboxItem> list(InboxFilter filter) {
    return store.list(Objects.requireNonNull(filter, "filter"), MAX_LIST);
  }

  @Override
  public Optional<InboxItem> get(String id) {
    return store.find(Objects.requireNonNull(id, "id"));
  }

  @Override
  public long waiting() {
    return store.waiting().count();
  }

  @Override
  public Duration oldestAge() {
    InboxStore.Waiting w = store.waiting();
    return w.oldest() == null ? Duration.ZERO : Duration.between(w.oldest(), now());
  }

  public Instant now() {
    return Instant.ofEpochMilli(clock.epochMillis());
  }

  @Override
  public void onAnswered(InboxListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Hears every newly filed item (the notification hook). */
  @Override
  public void onFiled(NewItemListener listener) {
    filedListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  // ---- the engine's side ----------------------------------------------------------------------------------------

  /**
   * Files an escalation, unless one waits for the same write (or, without a key, the same call): the person is not
   * asked twice.
   */
  public InboxItem fileEscalation(EvidenceBundle e, String argsPreview) {
    String subject = e.ledgerKey() != null ? e.ledgerKey()
        : sha256(e.taskId() + '\n' + e.tool() + '\n' + e.argsHash() + '\n' + e.reason().code());
    InboxItem item = new InboxItem(UUID.randomUUID().toString(), ItemKind.ESCALATION, ItemState.WAITING, e.tenant(),
        e.taskId(), e.tool(), e.risk() == null ? null : e.risk().name(), e.reason().code(), e.ledgerKey(), e.argsHash(),
        argsPreview, json(e), now(), null, null);
    return filed(item, store.fileIfAbsent(item, subject));
  }

  private InboxItem filed(InboxItem item, InboxItem stored) {
    if (stored.id().equals(item.id())) {
      for (NewItemListener l : filedListeners) {
        try {
          l.onFiled(stored);
        } catch (RuntimeException ex) {
          LOG.log(System.Logger.Level.WARNING, "an inbox notification failed for item " + stored.id(), ex);
        }
      }
    }
    return stored;
  }

  /** The answer a person gave to the latest escalation of the write {@code ledgerKey}, if one was answered. */
  public Optional<PersonAnswer> answerFor(String tenant, String ledgerKey) {
    return store.latest(tenant, ItemKind.ESCALATION, ledgerKey)
        .filter(i -> i.state() == ItemState.ANSWERED)
        .map(InboxItem::answer);
  }

  /** Where a call of a {@code requiresApproval} write stands. */
  public enum Verdict { APPROVED, WAITING, DENIED, EXPIRED, USED }

  /** @param item the approval (or the request now waiting) the verdict is about */
  public record ApprovalStatus(Verdict verdict, InboxItem item) {}

  /**
   * The approval for a write about to be sent: an approval of exactly this tool, arguments and key is used (once) and
   * let through; otherwise the request waits, is denied, or — expired or used — a new request is filed.
   */
  public ApprovalStatus approval(String tenant, String taskId, String tool, Risk risk, String key, String argsHash,
      String argsPreview) {
    for (int tries = 0; tries < 3; tries++) {
      Optional<InboxItem> latest = store.latest(tenant, ItemKind.APPROVAL, key);
      Instant now = now();
      if (latest.isEmpty() || latest.get().state() == ItemState.EXPIRED) {
        return new ApprovalStatus(Verdict.WAITING, request(tenant, taskId, tool, risk, key, argsHash, argsPreview));
      }
      InboxItem item = latest.get();
      boolean sameCall = tool.equals(item.tool()) && Objects.equals(argsHash, item.argsHash());
      switch (item.state()) {
        case WAITING:
          if (item.expiredAt(now)) {
            store.update(item.id(), ItemState.WAITING, item.with(ItemState.EXPIRED, null, item.expiresAt()));
            return new ApprovalStatus(Verdict.EXPIRED, request(tenant, taskId, tool, risk, key, argsHash, argsPreview));
          }
          return new ApprovalStatus(Verdict.WAITING, item);
        case USED:
          return new ApprovalStatus(Verdict.USED, request(tenant, taskId, tool, risk, key, argsHash, argsPreview));
        default: // ANSWERED
          if (item.answer().answer() == Answer.DENY) {
            return new ApprovalStatus(Verdict.DENIED, item);
          }
          if (!sameCall) {
            return new ApprovalStatus(Verdict.WAITING, request(tenant, taskId, tool, risk, key, argsHash, argsPreview));
          }
          if (item.expiredAt(now)) {
            store.update(item.id(), ItemState.ANSWERED, item.with(ItemState.EXPIRED, item.answer(), item.expiresAt()));
            return new ApprovalStatus(Verdict.EXPIRED, request(tenant, taskId, tool, risk, key, argsHash, argsPreview));
          }
          InboxItem used = item.with(ItemState.USED, item.answer(), item.expiresAt());
          if (store.update(item.id(), ItemState.ANSWERED, used)) {
            return new ApprovalStatus(Verdict.APPROVED, used);
          }
          break; // another call used it meanwhile: look again
      }
    }
    throw new IllegalStateException("the approval of write " + key + " kept changing under this call");
  }

  private InboxItem request(String tenant, String taskId, String tool, Risk risk, String key, String argsHash,
      String argsPreview) {
    Instant now = now();
    InboxItem item = new InboxItem(UUID.randomUUID().toString(), ItemKind.APPROVAL, ItemState.WAITING, tenant, taskId,
        tool, risk.name(), Reason.AWAITING_APPROVAL.code(), key, argsHash, argsPreview, "{}", now,
        now.plus(approvalTtl), null);
    return filed(item, store.fileIfAbsent(item, key));
  }

  // ---- the person's side ----------------------------------------------------------------------------------------

  /**
   * Records {@code answer} to item {@code id} by {@code by}: the write's ledger record first (it happened →
   * RECONCILED_COMMITTED, it did not → RECONCILED_ABSENT), then the item, then the decision log and the listeners.
   *
   * @throws InboxAnswerException when the item is unknown, already answered or expired, the answer does not fit it,
   *     or the write is being worked on right now
   */
  @Override
  public InboxItem answer(String id, Answer answer, String by, String reason, String result) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(answer, "answer");
    if (by == null || by.isBlank()) {
      throw new InboxAnswerException("invalid", "an answer needs the person who gives it (by)");
    }
    InboxItem item = store.find(id).orElseThrow(() -> new InboxAnswerException("not_found",
        "no inbox item " + id + ": list the waiting ones with hfr.inbox().list()"));
    if (item.state() != ItemState.WAITING) {
      PersonAnswer a = item.answer();
      throw new InboxAnswerException("conflict", "inbox item " + id + " is " + item.state().name().toLowerCase()
          + (a == null ? "" : " (" + a.answer().label() + " by " + a.by() + " at " + a.at() + ")")
          + ": nothing changed");
    }
    if (answer.answers() != item.kind() && answer != Answer.LEAVE) {
      throw new InboxAnswerException("invalid", "'" + answer.label() + "' does not answer " + (item.kind() == ItemKind.APPROVAL
          ? "an approval request: answer approve or deny" : "an escalation: answer happened, did_not_happen, undo or leave"));
    }
    if (item.kind() == ItemKind.APPROVAL && answer == Answer.LEAVE) {
      throw new InboxAnswerException("invalid", "an approval request is answered approve or deny");
    }
    if (answer == Answer.DENY && (reason == null || reason.isBlank())) {
      throw new InboxAnswerException("invalid", "a denial needs a reason: the model is told it");
    }
    Instant now = now();
    if (item.expiredAt(now)) {
      store.update(id, ItemState.WAITING, item.with(ItemState.EXPIRED, null, item.expiresAt()));
      throw new InboxAnswerException("conflict", "approval request " + id + " expired at " + item.expiresAt()
          + "; the next call files a new one");
    }
    if (answer == Answer.HAPPENED || answer == Answer.DID_NOT_HAPPEN || answer == Answer.UNDO) {
      if (item.ledgerKey() == null) {
        throw new InboxAnswerException("invalid", "inbox item " + id + " is not a write with a ledger record: answer leave");
      }
      settleWrite(item, answer, result);
    }
    PersonAnswer given = new PersonAnswer(answer, by.trim(), now, reason == null ? "" : reason.trim(),
        answer == Answer.HAPPENED ? result : null);
    Instant expiry = answer == Answer.APPROVE ? now.plus(approvalTtl) : item.expiresAt();
    InboxItem answered = item.with(ItemState.ANSWERED, given, expiry);
    if (!store.update(id, ItemState.WAITING, answered)) {
      throw new InboxAnswerException("conflict", "inbox item " + id + " was answered by someone else meanwhile");
    }
    record(answered);
    for (InboxListener l : listeners) {
      try {
        l.onAnswered(answered);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "an onAnswered listener failed for inbox item " + id, e);
      }
    }
    return answered;
  }

  /** Moves the write's ledger record to what the person said, under a lease so no call acts on it meanwhile. */
  private void settleWrite(InboxItem item, Answer answer, String result) {
    String tenant = item.tenant();
    String key = item.ledgerKey();
    Optional<Lease> lease = ledger.acquireLease(tenant, key, "inbox", ANSWER_LEASE);
    if (lease.isEmpty()) {
      throw new InboxAnswerException("conflict", "the write of inbox item " + item.id() + " is being worked on right"
          + " now (its ledger key is leased): answer again in a few seconds");
    }
    try {
      LedgerRecord r = ledger.find(tenant, key).orElseThrow(() -> new InboxAnswerException("conflict",
          "the ledger has no record " + key + " for inbox item " + item.id() + " (expired by retention?): answer leave"));
      long token = lease.get().fencingToken();
      LedgerState s = r.state();
      if (answer == Answer.HAPPENED || answer == Answer.UNDO) {
        if (s.isCommitted()) {
          return;
        }
        String resultHash = result == null ? null : IdempotencyKeys.resultHash(result);
        if (s == LedgerState.PREPARED) {
          s = ledger.transition(tenant, key, s, LedgerState.UNKNOWN, null, token).state();
        }
        if (s == LedgerState.UNKNOWN) {
          ledger.transition(tenant, key, s, LedgerState.RECONCILED_COMMITTED, resultHash, token);
        } else if (s == LedgerState.FAILED || s == LedgerState.RECONCILED_ABSENT) {
          ledger.transition(tenant, key, s, LedgerState.PREPARED, null, token);
          ledger.transition(tenant, key, LedgerState.PREPARED, LedgerState.COMMITTED, resultHash, token);
        } else {
          throw new InboxAnswerException("conflict", "the write of inbox item " + item.id() + " is " + s
              + " in the ledger: it cannot be marked as happened");
        }
      } else {
        if (s.isCommitted() || s == LedgerState.COMPENSATED) {
          throw new InboxAnswerException("conflict", "the ledger holds the write of inbox item " + item.id() + " as "
              + s + ": it did happen; answer happened or leave");
        }
        if (s == LedgerState.PREPARED) {
          s = ledger.transition(tenant, key, s, LedgerState.UNKNOWN, null, token).state();
        }
        if (s == LedgerState.UNKNOWN) {
          ledger.transition(tenant, key, s, LedgerState.RECONCILED_ABSENT, null, token);
        }
      }
    } finally {
      ledger.releaseLease(lease.get());
    }
  }

  /** The answer as a decision event: the action it resolves and the reason the person gave it. */
  private void record(InboxItem item) {
    PersonAnswer a = item.answer();
    Reason reason = switch (a.answer()) {
      case HAPPENED, UNDO -> Reason.RECONCILED_COMMITTED;
      case DID_NOT_HAPPEN -> Reason.RECONCILED_ABSENT;
      case LEAVE -> Reason.CLOSED_BY_PERSON;
      case APPROVE -> Reason.APPROVED_BY_PERSON;
      case DENY -> Reason.APPROVAL_DENIED;
    };
    Action action = item.kind() == ItemKind.APPROVAL ? Action.ESCALATE
        : a.answer() == Answer.LEAVE ? Action.FAIL : Action.RECONCILE;
    String ledgerState = item.ledgerKey() == null ? null
        : ledger.find(item.tenant(), item.ledgerKey()).map(r -> r.state().name()).orElse(null);
    DecisionEvent event = new DecisionEvent(a.at().toEpochMilli(), "enforce", item.tenant(), item.taskId(), 0,
        item.tool(), item.risk() == null ? null : Risk.valueOf(item.risk()), 0, DegradeLevel.L0, null, 1.0,
        "inbox." + a.answer().code(), action, reason, 0, 0, 0, 0, null, item.argsHash(),
        a.result() == null ? null : IdempotencyKeys.resultHash(a.result()), item.ledgerKey(), ledgerState);
    try {
      decisions.record(event);
    } catch (Exception e) {
      LOG.log(System.Logger.Level.WARNING, "the decision log refused the answer to inbox item " + item.id(), e);
    }
  }

  private static String json(EvidenceBundle e) {
    try {
      return JSON.writeValueAsString(e);
    } catch (Exception ex) {
      return "{\"unprintable\":\"" + ex.getClass().getSimpleName() + "\"}";
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (ownsStore) {
      store.close();
    }
  }
}
