package dev.hfr.bench.sim;

import dev.hfr.bench.strategy.Strategy;
import java.util.List;

/**
 * What a synthetic benchmark run measures: the main comparison (Tables 12-14), the fault-rate sweep
 * (Table 15) and the correlated-incident sweep (Table C1), with their seeds and sizes.
 *
 * @param mainSeeds seeds of the main comparison
 * @param mainTasks tasks per seed
 * @param mainStrategies strategies of the main comparison
 * @param sweepSeed the seed of the fault-rate sweep
 * @param sweepTasks tasks per fault-rate point
 * @param sweepRates base fault rates of the sweep
 * @param sweepStrategies strategies of the sweep
 * @param incidentSeeds seeds of the incident sweep
 * @param incidentTasks tasks per seed and point
 * @param incidentFaultRate the base fault rate of the incident sweep
 * @param incidentRates provider incident rates
 * @param toolIncidentFactor tool incident rate as a multiple of the provider's
 * @param incidentStrategies strategies of the incident sweep
 * @param bootstrapResamples resamples of the paired bootstrap
 * @param variants the modelling assumptions changed one at a time, each measured against the headline
 * @param noFaultSeeds seeds of Table A (capability without faults)
 * @param noFaultTasks tasks per seed of Table A
 */
public record SyntheticPlan(
    List<Long> mainSeeds,
    int mainTasks,
    List<Strategy> mainStrategies,
    long sweepSeed,
    int sweepTasks,
    List<Double> sweepRates,
    List<Strategy> sweepStrategies,
    List<Long> incidentSeeds,
    int incidentTasks,
    double incidentFaultRate,
    List<Double> incidentRates,
    double toolIncidentFactor,
    List<Strategy> incidentStrategies,
    int bootstrapResamples,
    List<AssumptionVariant> variants,
    List<Long> noFaultSeeds,
    int noFaultTasks) {

  public SyntheticPlan {
    variants = List.copyOf(variants);
    noFaultSeeds = List.copyOf(noFaultSeeds);
    mainSeeds = List.copyOf(mainSeeds);
    mainStrategies = List.copyOf(mainStrategies);
    sweepRates = List.copyOf(sweepRates);
    sweepStrategies = List.copyOf(sweepStrategies);
    incidentSeeds = List.copyOf(incidentSeeds);
    incidentRates = List.copyOf(incidentRates);
    incidentStrategies = List.copyOf(incidentStrategies);
    if (mainTasks < 1 || sweepTasks < 1 || incidentTasks < 1 || noFaultTasks < 1) {
      throw new IllegalArgumentException("task counts must be positive");
    }
    if (!mainStrategies.contains(Strategy.HFR)) {
      throw new IllegalArgumentException("the main comparison needs HFR: every paired comparison is against it");
    }
  }

  private static final List<Strategy> SWEEP_STRATEGIES =
      List.of(Strategy.NO_RETRY, Strategy.RETRY_ONLY, Strategy.DEGRADE_ONLY, Strategy.HFR);
  private static final List<Strategy> INCIDENT_STRATEGIES =
      List.of(Strategy.HFR, Strategy.HFR_NO_BUDGET, Strategy.HFR_NO_BREAKER);

  /** The strategies whose figures the one-at-a-time assumption variants report. */
  static final List<Strategy> VARIANT_STRATEGIES = List.of(Strategy.FIXED_RETRY3, Strategy.RETRY_ONLY, Strategy.DEGRADE_ONLY,
      Strategy.HFR, Strategy.HFR_NO_IDEMPOTENCY);

  /** Seeds of the strict write model's run in the full run (paired with the headline's, so few suffice). */
  private static final int STRICT_SEEDS = 5;
  /** Seeds of each other one-at-a-time variant and of Table A in the full run. */
  private static final int VARIANT_SEEDS = 1;

  /**
   * The paper's design, read from {@code paper-figures.json}: 10 seeds x 20,000 tasks (Table B1); the
   * sweep's rates with 12,000 tasks per point (Table 15); 5 seeds x 12,000 tasks per incident point at
   * the paper's fault rate and tool factor (Table C1). Beside it: the strict write model on 5 of its seeds,
   * every other assumption changed alone on 1, and Table A on 1 seed.
   */
  public static SyntheticPlan full(long firstSeed) {
    PaperDesign d = PaperDesign.read();
    List<Long> main = seeds(firstSeed, d.seeds());
    return new SyntheticPlan(main, d.tasksPerSeed(), List.of(Strategy.values()), d.sweepSeed(),
        d.tasksPerSweepPoint(), d.sweepRates(), SWEEP_STRATEGIES, seeds(firstSeed, d.incidentSeeds()),
        d.tasksPerIncidentPoint(), d.incidentFaultRate(), d.incidentRates(), d.toolIncidentFactor(),
        INCIDENT_STRATEGIES, 1000, AssumptionVariants.standard(seeds(firstSeed, STRICT_SEEDS), seeds(firstSeed, VARIANT_SEEDS), d.tasksPerSeed()),
        seeds(firstSeed, VARIANT_SEEDS), d.tasksPerSeed());
  }

  /** The same design with smaller samples: about a minute on two cores. */
  public static SyntheticPlan quick(long firstSeed) {
    PaperDesign d = PaperDesign.read();
    List<Long> main = seeds(firstSeed, 3);
    return new SyntheticPlan(main, 3_000, List.of(Strategy.values()), d.sweepSeed(), 3_000,
        d.sweepRates(), SWEEP_STRATEGIES, seeds(firstSeed, 2), 3_000, d.incidentFaultRate(), d.incidentRates(),
        d.toolIncidentFactor(), INCIDENT_STRATEGIES, 300, AssumptionVariants.standard(main, seeds(firstSeed, 1), 3_000),
        seeds(firstSeed, 1), 3_000);
  }

  /** Consecutive seeds from {@code first}. */
  public static List<Long> seeds(long first, int count) {
    Long[] s = new Long[count];
    for (int i = 0; i < count; i++) {
      s[i] = first + i;
    }
    return List.of(s);
  }

  /** Every task this plan runs. */
  public long totalTasks() {
    long variantTasks = 0;
    for (AssumptionVariant v : variants) {
      variantTasks += (long) v.seeds().size() * v.tasks() * v.strategies().size();
    }
    return (long) mainSeeds.size() * mainTasks * mainStrategies.size()
        + (long) sweepRates.size() * sweepTasks * sweepStrategies.size()
        + (long) incidentRates.size() * incidentSeeds.size() * incidentTasks * incidentStrategies.size()
        + variantTasks + (long) noFaultSeeds.size() * noFaultTasks * mainStrategies.size();
  }
}
