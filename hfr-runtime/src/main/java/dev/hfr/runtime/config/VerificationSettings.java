package dev.hfr.runtime.config;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.VerifyLevel;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code hfr.verification} section (paper §4.6, Table 8, §5.2).
 *
 * @param defaultLevel the level of a tool whose criticality has no entry
 * @param levels per criticality: the minimum verification level
 * @param humanSpotCheckRate the share of accepted results sampled for a human check, in [0, 1]
 */
public record VerificationSettings(VerifyLevel defaultLevel, Map<Criticality.Level, VerifyLevel> levels,
    double humanSpotCheckRate) {

  /** The paper's values. */
  public static final VerificationSettings DEFAULTS = new VerificationSettings(VerifyLevel.V1,
      Map.of(Criticality.Level.LOW, VerifyLevel.V1, Criticality.Level.MEDIUM, VerifyLevel.V2,
          Criticality.Level.HIGH, VerifyLevel.V2), 0.05);

  public VerificationSettings {
    Objects.requireNonNull(defaultLevel, "defaultLevel");
    if (!(humanSpotCheckRate >= 0 && humanSpotCheckRate <= 1)) {
      throw new IllegalArgumentException("humanSpotCheckRate must be in [0, 1], was " + humanSpotCheckRate);
    }
    EnumMap<Criticality.Level, VerifyLevel> copy = new EnumMap<>(Criticality.Level.class);
    copy.putAll(levels);
    levels = Collections.unmodifiableMap(copy);
  }

  /** The configured level for a criticality. */
  public VerifyLevel levelFor(Criticality.Level criticality) {
    return levels.getOrDefault(criticality, defaultLevel);
  }
}
