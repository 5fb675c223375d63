package dev.hfr.runtime;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import java.util.Objects;

/**
 * One rung of a tool method's degradation ladder.
 *
 * @param target the name of the method called instead (for records and reports; the call itself is a
 *     direct call in the generated proxy, selected by the rung's index)
 * @param level the ladder level of the rung
 * @param targetRisk the declared risk of the target method
 */
public record DegradeStep(String target, DegradeLevel level, Risk targetRisk) {
  public DegradeStep {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(targetRisk, "targetRisk");
  }
}
