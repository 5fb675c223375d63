package dev.hfr.bench.live.service;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * What a live service itself knows after a run — the ground truth the benchmark reads: side effects
 * committed per business reference (a count above one is a duplicate), the ids of responses it knows to
 * be wrong, and what it billed per task.
 */
public final class EffectLedger {

  private final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
  private final Set<String> wrongResponses = ConcurrentHashMap.newKeySet();
  private final Map<Integer, DoubleAdder> billed = new ConcurrentHashMap<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger undone = new AtomicInteger();
  private volatile long lastRequestNanos;

  void effect(String ref) {
    effects.computeIfAbsent(ref, k -> new AtomicInteger()).incrementAndGet();
  }

  /** One effect of {@code ref} was undone (a cancellation): it no longer counts. */
  void undo(String ref) {
    AtomicInteger n = effects.get(ref);
    if (n != null && n.get() > 0) {
      n.decrementAndGet();
    }
    undone.incrementAndGet();
  }

  /** Effects in place now, over all references. */
  public int standing() {
    return effects.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** Effects undone over all references. */
  public int undone() {
    return undone.get();
  }

  void wrong(String responseId) {
    wrongResponses.add(responseId);
  }

  void bill(int task, double amount) {
    if (amount > 0) {
      billed.computeIfAbsent(task, k -> new DoubleAdder()).add(amount);
    }
  }

  void request() {
    requests.incrementAndGet();
    lastRequestNanos = System.nanoTime();
  }

  /** Side effects committed for {@code ref}. */
  public int effects(String ref) {
    AtomicInteger n = effects.get(ref);
    return n == null ? 0 : n.get();
  }

  /** Side effects committed more than once, over all references. */
  public int duplicates() {
    return effects.values().stream().mapToInt(a -> Math.max(0, a.get() - 1)).sum();
  }

  /** Whether the service knows it answered {@code responseId} with wrong content. */
  public boolean wasWrong(String responseId) {
    return wrongResponses.contains(responseId);
  }

  /** What the service billed task {@code task}. */
  public double billed(int task) {
    DoubleAdder a = billed.get(task);
    return a == null ? 0 : a.sum();
  }

  /** When the last request arrived ({@link System#nanoTime()}), or 0 before the first. */
  public long lastRequestNanos() {
    return lastRequestNanos;
  }

  /** Requests received. */
  public int requests() {
    return requests.get();
  }
}
