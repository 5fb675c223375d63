package dev.hfr.runtime.verify;

import java.util.Map;
import java.util.Objects;

/**
 * A verifier's judgement: accepted or not, why, on what evidence, and an estimate of quality in [0, 1].
 * A rejection's reason is compared across attempts: the same reason twice without new evidence stops
 * semantic retries.
 *
 * @param accepted whether the result may be accepted
 * @param reason a short reason, stable across identical failures (e.g. {@code total_mismatch})
 * @param evidence what the judgement was based on; values are recorded, so never put secrets here
 * @param quality the estimated quality, compared with the task's quality floor
 */
public record Verdict(boolean accepted, String reason, Map<String, String> evidence, double quality) {

  public Verdict {
    Objects.requireNonNull(reason, "reason");
    evidence = Map.copyOf(evidence);
    if (!(quality >= 0.0 && quality <= 1.0)) {
      throw new IllegalArgumentException("quality must be within [0, 1], was " + quality);
    }
  }

  /** Accepted at full quality. */
  public static Verdict accept() {
    return new Verdict(true, "ok", Map.of(), 1.0);
  }

  /** Accepted at the given quality. */
  public static Verdict accept(double quality) {
    return new Verdict(true, "ok", Map.of(), quality);
  }

  /** Rejected for {@code reason}. */
  public static Verdict reject(String reason) {
    return new Verdict(false, reason, Map.of(), 0.0);
  }

  /** Rejected for {@code reason}, with evidence. */
  public static Verdict reject(String reason, Map<String, String> evidence) {
    return new Verdict(false, reason, evidence, 0.0);
  }
}
