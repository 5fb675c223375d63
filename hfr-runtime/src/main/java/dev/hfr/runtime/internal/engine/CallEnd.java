package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.observation.CallListener;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Where every call that went through the state machine ends, accepted or not: its committed write is
 * kept for compensation, the task counts its outcome, the call's meters stop, and its lease is released.
 */
final class CallEnd {

  private final Clock clock;
  private final WriteLedger writes;
  private final CallListener listener;

  CallEnd(Clock clock, WriteLedger writes, CallListener listener) {
    this.clock = clock;
    this.writes = writes;
    this.listener = listener;
  }

  void finish(Call<?> c, ToolOutcome outcome, boolean unverifiedSideEffect) {
    TaskState explicit = c.explicitTask();
    if (c.key() != null && c.ledgerState() != null && c.ledgerState().isCommitted() && explicit != null) {
      // Kept for compensation (TaskScope.compensate): the invocation carries the compensate hook.
      explicit.recordCommittedWrite(new TaskState.CommittedCall(c.step, c.tool(), c.invocation, c.key()));
    }
    c.task().onCallEnd(outcome, unverifiedSideEffect);
    if ((c.recall() || c.replayed()) && c.attempts == 0) {
      // Answered without sending anything: neither a success nor a failure of the tool.
      c.rt.meters.recall(outcome.status());
    } else {
      c.rt.meters.call(outcome.status(), outcome.degraded(), clock.nanoTime() - c.startNanos);
    }
    writes.releaseLease(c);
    listener.ended(outcome, c.ledgerState());
  }

  /** The outcome's references: the ledger key, and the result's hash when there is a result. */
  static List<String> artifactRefs(Call<?> c) {
    List<String> refs = new ArrayList<>(2);
    refs.add("ledger:" + c.key());
    if (c.inboxItem != null) {
      refs.add("inbox:" + c.inboxItem);
    }
    if (c.hasResult && c.result != null) {
      refs.add("result:" + DecisionRecorder.resultHashOrType(c.result));
    }
    return refs;
  }
}
