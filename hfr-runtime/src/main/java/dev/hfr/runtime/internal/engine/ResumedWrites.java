package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.LedgerRecord;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes an earlier run of a reopened task left unfinished (PREPARED or UNKNOWN), per tool: a replay
 * rarely repeats its plan call for call, so a write of such a tool whose key matches none of them may
 * repeat one of them under other arguments. Each unfinished write stands for one such write of the replay:
 * the first write of its tool that does not find its own record takes it ({@link #takeUnmatched}), and is
 * reconciled before its first send (R2) or sent under the unfinished write's key (R1). A write that finds
 * the record itself ({@link #matched}) settles it the ordinary way. Thread-safe.
 */
final class ResumedWrites {

  private final Map<String, Deque<LedgerRecord>> byTool = new HashMap<>();

  /** @param unfinished the task's unfinished records, oldest first */
  ResumedWrites(List<LedgerRecord> unfinished) {
    for (LedgerRecord r : unfinished) {
      byTool.computeIfAbsent(r.tool(), t -> new ArrayDeque<>(2)).addLast(r);
    }
  }

  /** A write found its own record under {@code key}: that record is no longer a stand-in for another write. */
  synchronized void matched(String tool, String key) {
    Deque<LedgerRecord> left = byTool.get(tool);
    if (left != null) {
      left.removeIf(r -> r.key().equals(key));
    }
  }

  /** The oldest unfinished write of {@code tool} not yet taken by a replayed write, or {@code null}. */
  synchronized LedgerRecord takeUnmatched(String tool) {
    Deque<LedgerRecord> left = byTool.get(tool);
    return left == null ? null : left.pollFirst();
  }
}
