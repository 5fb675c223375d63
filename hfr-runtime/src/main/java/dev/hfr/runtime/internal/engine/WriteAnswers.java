package dev.hfr.runtime.internal.engine;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a task's writes ended with, by ledger key, kept for the task's life so that a re-call of the same
 * write (the model calling a tool again) is answered without sending it again: the result of a committed
 * write, and which writes with an unknown outcome were already handed to a person. Memory only: after a
 * restart a re-call finds the ledger record alone and reconciles (R2), resends under the key (R1) or
 * refuses (R3). Thread-safe.
 */
final class WriteAnswers {

  /** A committed write's result as the call that committed it returned it ({@code null} for a void tool). */
  record Committed(Object result) {}

  private final Map<String, Committed> committed = new HashMap<>();
  private final Set<String> escalated = new HashSet<>();

  synchronized void remember(String key, Object result) {
    committed.put(key, new Committed(result));
  }

  /** The committed result kept under {@code key}, or {@code null}. */
  synchronized Committed committed(String key) {
    return committed.get(key);
  }

  synchronized void markEscalated(String key) {
    escalated.add(key);
  }

  /** Whether a call of the task already handed the write under {@code key} to a person. */
  synchronized boolean wasEscalated(String key) {
    return escalated.contains(key);
  }
}
