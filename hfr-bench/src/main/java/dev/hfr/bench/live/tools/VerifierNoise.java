package dev.hfr.bench.live.tools;

import dev.hfr.bench.workload.Draws;

/**
 * How often the live verifiers are wrong: they catch a wrong answer with the paper's detection rate
 * (Table B1: 0.90 for a model's answer, 0.98 for a tool's) and reject a right one with its false-alarm
 * rate (0.02). Each verdict is a pure function of the cell's seed and the answer's id, so it does not
 * depend on thread timing. Perfect until {@link #use} is called; the live benchmark sets it per cell
 * (cells run one after another).
 *
 * @param seed the seed of the verdicts' draws
 * @param detectionSemantic chance that a wrong model answer is rejected
 * @param detectionTool chance that a wrong tool answer is rejected
 * @param falseAlarm chance that a right answer is rejected
 */
public record VerifierNoise(long seed, double detectionSemantic, double detectionTool, double falseAlarm) {

  /** A verifier that is never wrong. */
  public static final VerifierNoise PERFECT = new VerifierNoise(0, 1, 1, 0);

  private static final long PURPOSE = 41;
  private static volatile VerifierNoise current = PERFECT;

  /** Makes every live verifier use {@code noise} from now on. */
  public static void use(VerifierNoise noise) {
    current = noise;
  }

  /** The noise in use. */
  public static VerifierNoise current() {
    return current;
  }

  /** Whether the verifier rejects the answer {@code id}, which is in truth {@code wrong}. */
  boolean rejects(String id, boolean wrong, boolean semantic) {
    double u = Draws.uniform(seed, id.hashCode(), id.length(), semantic ? 1 : 0, 0, PURPOSE);
    if (wrong) {
      return u < (semantic ? detectionSemantic : detectionTool);
    }
    return u < falseAlarm;
  }
}
