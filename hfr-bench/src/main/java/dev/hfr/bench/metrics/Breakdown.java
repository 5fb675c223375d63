package dev.hfr.bench.metrics;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.hfr.annotations.Fault;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why tasks ended as they did and what their attempts met (§5.5: attempts by class, escalations by reason,
 * the degradation quality delta), counted over one run and merged over seeds. Not thread-safe: one run
 * fills one instance on one thread; merging happens after the runs.
 */
public final class Breakdown {

  /** How a task that did not succeed ended. */
  public enum Outcome {
    /** Handed to a human: the engine escalated and the handler took the task over. */
    ESCALATED("escalated"),
    /** The engine would have escalated, but the strategy has nobody to escalate to: the task failed. */
    NO_ESCALATION_PATH("failed: nobody to escalate to"),
    /** The engine ended the call with a structured failure. */
    FAILED("failed"),
    /** Every step was accepted, but an accepted result was in truth wrong (a silent failure). */
    WRONG_RESULT_ACCEPTED("accepted a wrong result");

    private final String label;

    Outcome(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * One kind of ending: how, at which kind of step, after which fault class, for which reason of the
   * engine's, at which criticality.
   */
  public record Ending(Outcome outcome, String step, String fault, String reason, String criticality) {}

  /** One kind of ending with its count. */
  public record Count(Ending ending, long tasks) {}

  private static final int TIERS = 3;

  private final long[] attemptsByFault = new long[Fault.values().length];
  private long attempts;
  private final Map<Ending, Long> endings = new HashMap<>();
  private final long[] acceptedByTier = new long[TIERS];
  private final long[] correctByTier = new long[TIERS];
  private final Map<String, Long> duplicatePaths = new HashMap<>();

  /** An attempt ended with an injected {@code fault}, or with the verifier's rejection ({@link Fault#V1}). */
  public void attemptFailed(Fault fault) {
    attemptsByFault[fault.ordinal()]++;
  }

  /** An attempt was made (whatever its end). */
  public void attempt() {
    attempts++;
  }

  /** A task ended as {@code ending}. */
  public void ended(Ending ending) {
    endings.merge(ending, 1L, Long::sum);
  }

  /** A step's result from {@code tier} (0 = primary) was accepted; {@code correct} is the truth. */
  public void accepted(int tier, boolean correct) {
    acceptedByTier[tier]++;
    if (correct) {
      correctByTier[tier]++;
    }
  }

  /** A task ended with a duplicate side effect after the write decisions {@code path}. */
  public void duplicatePath(String path) {
    duplicatePaths.merge(path, 1L, Long::sum);
  }

  /** The decision paths of tasks with duplicate effects (only when traced), most frequent first. */
  public List<Map.Entry<String, Long>> duplicatePaths() {
    List<Map.Entry<String, Long>> out = new ArrayList<>(duplicatePaths.entrySet());
    out.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    return out;
  }

  /** Adds {@code other}'s counts to these. */
  public void merge(Breakdown other) {
    for (int i = 0; i < attemptsByFault.length; i++) {
      attemptsByFault[i] += other.attemptsByFault[i];
    }
    attempts += other.attempts;
    other.endings.forEach((k, v) -> endings.merge(k, v, Long::sum));
    other.duplicatePaths.forEach((k, v) -> duplicatePaths.merge(k, v, Long::sum));
    for (int i = 0; i < TIERS; i++) {
      acceptedByTier[i] += other.acceptedByTier[i];
      correctByTier[i] += other.correctByTier[i];
    }
  }

  /** Attempts made. */
  public long attempts() {
    return attempts;
  }

  /** Attempts that ended with {@code fault} (V1: rejected by the verifier). */
  public long attempts(Fault fault) {
    return attemptsByFault[fault.ordinal()];
  }

  /** Attempts that ended with an accepted (or unverified) result. */
  public long attemptsAnswered() {
    long failed = 0;
    for (long a : attemptsByFault) {
      failed += a;
    }
    return attempts - failed;
  }

  /** Every kind of ending, most frequent first (ties in a fixed order, so reports are reproducible). */
  public List<Count> endings() {
    List<Count> out = new ArrayList<>();
    endings.forEach((k, v) -> out.add(new Count(k, v)));
    out.sort(Comparator.comparingLong(Count::tasks).reversed().thenComparing(c -> c.ending().toString()));
    return out;
  }

  /** Tasks that ended with {@code outcome}. */
  public long tasks(Outcome outcome) {
    long n = 0;
    for (Map.Entry<Ending, Long> e : endings.entrySet()) {
      if (e.getKey().outcome() == outcome) {
        n += e.getValue();
      }
    }
    return n;
  }

  /** The counts as plain values, for the JSON report. */
  @JsonValue
  public Map<String, Object> json() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("attempts", attempts);
    Map<String, Long> byFault = new LinkedHashMap<>();
    for (Fault f : Fault.values()) {
      if (attemptsByFault[f.ordinal()] > 0) {
        byFault.put(f.name(), attemptsByFault[f.ordinal()]);
      }
    }
    out.put("failedAttemptsByClass", byFault);
    out.put("endings", endings());
    out.put("acceptedByTier", acceptedByTier.clone());
    out.put("correctByTier", correctByTier.clone());
    if (!duplicatePaths.isEmpty()) {
      out.put("duplicatePaths", new java.util.TreeMap<>(duplicatePaths));
    }
    return out;
  }

  /** Results accepted from {@code tier}. */
  public long accepted(int tier) {
    return acceptedByTier[tier];
  }

  /** Of those, the ones that were in truth correct. */
  public long correct(int tier) {
    return correctByTier[tier];
  }
}
