package dev.hfr.runtime.config;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code hfr.degradation} section (paper §4.4, Table 5, §5.2).
 *
 * @param ladder the levels in the order they are tried
 * @param qualityFloor per criticality: the task owner's minimum quality for a degraded result
 * @param allowAutoDegrade per criticality: the levels that may run without a human
 * @param requireHumanFor per criticality: levels that always need a human
 * @param requireHumanForIrreversible levels that need a human when the tool is irreversible (R3)
 */
public record DegradationSettings(List<DegradeLevel> ladder, Map<Criticality.Level, Double> qualityFloor,
    Map<Criticality.Level, Set<DegradeLevel>> allowAutoDegrade, Map<Criticality.Level, Set<DegradeLevel>> requireHumanFor,
    Set<DegradeLevel> requireHumanForIrreversible) {

  /** The paper's values. */
  public static final DegradationSettings DEFAULTS = new DegradationSettings(
      List.of(DegradeLevel.L0, DegradeLevel.L1, DegradeLevel.L2, DegradeLevel.L3, DegradeLevel.L4),
      Map.of(Criticality.Level.LOW, 0.60, Criticality.Level.MEDIUM, 0.80, Criticality.Level.HIGH, 0.92),
      Map.of(Criticality.Level.LOW, EnumSet.of(DegradeLevel.L1, DegradeLevel.L2, DegradeLevel.L3, DegradeLevel.L4),
          Criticality.Level.MEDIUM, EnumSet.of(DegradeLevel.L1, DegradeLevel.L2, DegradeLevel.L3),
          Criticality.Level.HIGH, EnumSet.of(DegradeLevel.L1, DegradeLevel.L2)),
      Map.of(Criticality.Level.HIGH, EnumSet.of(DegradeLevel.L3, DegradeLevel.L4)),
      EnumSet.of(DegradeLevel.L2, DegradeLevel.L3, DegradeLevel.L4));

  public DegradationSettings {
    ladder = List.copyOf(ladder);
    EnumMap<Criticality.Level, Double> floors = new EnumMap<>(Criticality.Level.class);
    EnumMap<Criticality.Level, Set<DegradeLevel>> auto = new EnumMap<>(Criticality.Level.class);
    EnumMap<Criticality.Level, Set<DegradeLevel>> human = new EnumMap<>(Criticality.Level.class);
    for (Criticality.Level level : Criticality.Level.values()) {
      Double floor = qualityFloor.get(level);
      if (floor == null || !(floor >= 0 && floor <= 1)) {
        throw new IllegalArgumentException("quality floor of " + level + " must be in [0, 1], was " + floor);
      }
      floors.put(level, floor);
      auto.put(level, frozen(allowAutoDegrade.get(level)));
      human.put(level, frozen(requireHumanFor.get(level)));
    }
    if (auto.get(Criticality.Level.HIGH).contains(DegradeLevel.L3) || auto.get(Criticality.Level.HIGH).contains(DegradeLevel.L4)) {
      throw new IllegalArgumentException("HIGH criticality may not degrade to L3 or L4 automatically");
    }
    qualityFloor = Collections.unmodifiableMap(floors);
    allowAutoDegrade = Collections.unmodifiableMap(auto);
    requireHumanFor = Collections.unmodifiableMap(human);
    requireHumanForIrreversible = frozen(requireHumanForIrreversible);
  }

  private static Set<DegradeLevel> frozen(Set<DegradeLevel> s) {
    return Collections.unmodifiableSet(s == null || s.isEmpty() ? EnumSet.noneOf(DegradeLevel.class) : EnumSet.copyOf(s));
  }
}
