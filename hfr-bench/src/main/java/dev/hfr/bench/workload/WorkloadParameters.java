package dev.hfr.bench.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every parameter of the synthetic workload: the paper's Table B1 (read from
 * {@code paper-figures.json}) and HFR-Bench's own assumptions where the paper is silent (read from
 * {@code workload-assumptions.json}). Immutable; the sweeps derive variants with {@link #withFaultRate}.
 *
 * @param pFault the chance that an attempt meets an injected fault
 * @param stepsMin fewest logical steps per task
 * @param stepCountWeights weights of {@code stepsMin, stepsMin + 1, ...}
 * @param criticalityMix task criticality mix
 * @param stepKindMix step kind mix
 * @param modelTiers primary, backup, cheap
 * @param toolTiers primary, alternative, cache
 * @param backoffBaseSeconds full-jitter base d0
 * @param backoffCapSeconds full-jitter cap
 * @param retryBudgetPerStep retries per logical step
 * @param retryBudgetPerTask retries per task
 * @param stickiness chance that a non-retryable fault recurs on the next attempt of the same tier
 * @param verifierDetectionSemantic chance that the verifier rejects a wrong model result
 * @param verifierDetectionTool chance that the verifier rejects a wrong tool result
 * @param verifierFalseAlarm chance that the verifier rejects a correct result
 * @param escalationLatencySeconds what a human escalation adds to the task's latency
 * @param escalationCost what a human escalation costs
 * @param modelFaultMix F2D-9 classes of injected model faults (assumption)
 * @param toolFaultMix F2D-9 classes of injected tool faults (assumption)
 * @param writeCommitsBeforeTimeout chance that a write which timed out had committed (assumption)
 * @param timeoutLatencyFactor a timed-out attempt takes this many times the tier's latency (assumption)
 * @param fastFailureLatencyFactor any other failed attempt takes this fraction of it (assumption)
 * @param retryAfterSeconds the Retry-After of an injected 429 (assumption)
 * @param degradedQualityPenalty success lost per degradation rung, by criticality (assumption)
 * @param taskDeadlineSeconds every task's deadline (assumption)
 * @param incidentWindowTasks consecutive tasks sharing one incident draw (assumption)
 * @param incidentFailureProbability chance that an attempt on a tier in an incident fails (assumption)
 * @param providerIncidentRate share of windows with a model-provider incident (0 outside Table C1)
 * @param toolIncidentRate share of windows with a tool incident (0 outside Table C1)
 * @param writeModel whether a rejected write had committed and whether writes have a ladder (assumption)
 */
public record WorkloadParameters(
    double pFault,
    int stepsMin,
    double[] stepCountWeights,
    Map<Criticality.Level, Double> criticalityMix,
    Map<StepKind, Double> stepKindMix,
    List<Tier> modelTiers,
    List<Tier> toolTiers,
    double backoffBaseSeconds,
    double backoffCapSeconds,
    int retryBudgetPerStep,
    int retryBudgetPerTask,
    double stickiness,
    double verifierDetectionSemantic,
    double verifierDetectionTool,
    double verifierFalseAlarm,
    double escalationLatencySeconds,
    double escalationCost,
    Map<Fault, Double> modelFaultMix,
    Map<Fault, Double> toolFaultMix,
    double writeCommitsBeforeTimeout,
    double timeoutLatencyFactor,
    double fastFailureLatencyFactor,
    long retryAfterSeconds,
    Map<Criticality.Level, Double> degradedQualityPenalty,
    double taskDeadlineSeconds,
    int incidentWindowTasks,
    double incidentFailureProbability,
    double providerIncidentRate,
    double toolIncidentRate,
    WriteModel writeModel) {

  public WorkloadParameters {
    if (!(pFault >= 0 && pFault < 1)) {
      throw new IllegalArgumentException("pFault must be within [0, 1), was " + pFault);
    }
    if (modelTiers.size() != 3 || toolTiers.size() != 3) {
      throw new IllegalArgumentException("three model tiers and three tool tiers are expected");
    }
    stepCountWeights = stepCountWeights.clone();
    criticalityMix = Collections.unmodifiableMap(new EnumMap<>(criticalityMix));
    stepKindMix = Collections.unmodifiableMap(new EnumMap<>(stepKindMix));
    modelTiers = List.copyOf(modelTiers);
    toolTiers = List.copyOf(toolTiers);
    modelFaultMix = Collections.unmodifiableMap(new EnumMap<>(modelFaultMix));
    toolFaultMix = Collections.unmodifiableMap(new EnumMap<>(toolFaultMix));
    degradedQualityPenalty = Collections.unmodifiableMap(new EnumMap<>(degradedQualityPenalty));
    Objects.requireNonNull(writeModel, "writeModel");
  }

  @Override
  public double[] stepCountWeights() {
    return stepCountWeights.clone();
  }

  /** The paper's Table B1 with HFR-Bench's assumptions, read from the bundled resources. */
  public static WorkloadParameters standard() {
    JsonNode b1 = readResource("paper-figures.json").get("tableB1");
    JsonNode our = readResource("workload-assumptions.json");
    int stepsMin = b1.get("stepsMin").asInt();
    int stepsMax = b1.get("stepsMax").asInt();
    double[] stepWeights = new double[stepsMax - stepsMin + 1];
    for (int n = stepsMin; n <= stepsMax; n++) {
      stepWeights[n - stepsMin] = required(our.get("stepCountWeights"), String.valueOf(n)).asDouble();
    }
    Map<Criticality.Level, Double> criticality = new EnumMap<>(Criticality.Level.class);
    b1.get("criticality").properties().forEach(e -> criticality.put(Criticality.Level.valueOf(e.getKey()), e.getValue().asDouble()));
    Map<StepKind, Double> kinds = new EnumMap<>(StepKind.class);
    b1.get("stepKinds").properties().forEach(e -> kinds.put(StepKind.valueOf(e.getKey()), e.getValue().asDouble()));
    Map<Criticality.Level, Double> penalty = new EnumMap<>(Criticality.Level.class);
    our.get("degradedQualityPenalty").properties().forEach(e -> penalty.put(Criticality.Level.valueOf(e.getKey()), e.getValue().asDouble()));
    return new WorkloadParameters(
        b1.get("pFault").asDouble(),
        stepsMin,
        stepWeights,
        criticality,
        kinds,
        tiers(b1.get("modelTiers")),
        tiers(b1.get("toolTiers")),
        b1.get("backoffBaseSeconds").asDouble(),
        b1.get("backoffCapSeconds").asDouble(),
        b1.get("retryBudgetPerStep").asInt(),
        b1.get("retryBudgetPerTask").asInt(),
        b1.get("nonRetryableStickiness").asDouble(),
        b1.get("verifierDetectionSemantic").asDouble(),
        b1.get("verifierDetectionTool").asDouble(),
        b1.get("verifierFalseAlarm").asDouble(),
        b1.get("escalationLatencySeconds").asDouble(),
        b1.get("escalationCost").asDouble(),
        faultMix(our.get("modelFaultMix")),
        faultMix(our.get("toolFaultMix")),
        our.get("writeCommitsBeforeTimeout").asDouble(),
        our.get("timeoutLatencyFactor").asDouble(),
        our.get("fastFailureLatencyFactor").asDouble(),
        our.get("retryAfterSeconds").asLong(),
        penalty,
        our.get("taskDeadlineSeconds").asDouble(),
        our.get("incidentWindowTasks").asInt(),
        our.get("incidentFailureProbability").asDouble(),
        0.0,
        0.0,
        writeModel(required(our, "writeModel")));
  }

  /** The same workload at another base fault rate (Table 15). */
  public WorkloadParameters withFaultRate(double rate) {
    Edit e = edit();
    e.pFault = rate;
    return e.build();
  }

  /** The same workload with correlated incidents (Table C1). */
  public WorkloadParameters withIncidents(double providerRate, double toolRate) {
    Edit e = edit();
    e.providerIncidentRate = providerRate;
    e.toolIncidentRate = toolRate;
    return e.build();
  }

  /** The same workload with another model of the write tool. */
  public WorkloadParameters withWriteModel(WriteModel model) {
    Edit e = edit();
    e.writeModel = model;
    return e.build();
  }

  /** The same workload where a timed-out write had committed with probability {@code p}. */
  public WorkloadParameters withWriteCommitsBeforeTimeout(double p) {
    Edit e = edit();
    e.writeCommitsBeforeTimeout = p;
    return e.build();
  }

  /** The same workload where failed attempts take these multiples of the tier's latency. */
  public WorkloadParameters withFailureLatencies(double timeoutFactor, double fastFailureFactor) {
    Edit e = edit();
    e.timeoutLatencyFactor = timeoutFactor;
    e.fastFailureLatencyFactor = fastFailureFactor;
    return e.build();
  }

  /** The same workload where an injected 429 asks for {@code seconds} of Retry-After. */
  public WorkloadParameters withRetryAfterSeconds(long seconds) {
    Edit e = edit();
    e.retryAfterSeconds = seconds;
    return e.build();
  }

  /** The same workload with another penalty per degradation rung. */
  public WorkloadParameters withDegradedQualityPenalty(Map<Criticality.Level, Double> penalty) {
    Edit e = edit();
    e.degradedQualityPenalty = penalty;
    return e.build();
  }

  /** The same workload with other fault-class mixes. */
  public WorkloadParameters withFaultMixes(Map<Fault, Double> model, Map<Fault, Double> tool) {
    Edit e = edit();
    e.modelFaultMix = model;
    e.toolFaultMix = tool;
    return e.build();
  }

  private Edit edit() {
    return new Edit(this);
  }

  /** A mutable copy, so that each variant above names only what it changes. */
  private static final class Edit {
    private double pFault;
    private final int stepsMin;
    private final double[] stepCountWeights;
    private final Map<Criticality.Level, Double> criticalityMix;
    private final Map<StepKind, Double> stepKindMix;
    private final List<Tier> modelTiers;
    private final List<Tier> toolTiers;
    private final double backoffBaseSeconds;
    private final double backoffCapSeconds;
    private final int retryBudgetPerStep;
    private final int retryBudgetPerTask;
    private final double stickiness;
    private final double verifierDetectionSemantic;
    private final double verifierDetectionTool;
    private final double verifierFalseAlarm;
    private final double escalationLatencySeconds;
    private final double escalationCost;
    private Map<Fault, Double> modelFaultMix;
    private Map<Fault, Double> toolFaultMix;
    private double writeCommitsBeforeTimeout;
    private double timeoutLatencyFactor;
    private double fastFailureLatencyFactor;
    private long retryAfterSeconds;
    private Map<Criticality.Level, Double> degradedQualityPenalty;
    private final double taskDeadlineSeconds;
    private final int incidentWindowTasks;
    private final double incidentFailureProbability;
    private double providerIncidentRate;
    private double toolIncidentRate;
    private WriteModel writeModel;

    Edit(WorkloadParameters p) {
      pFault = p.pFault;
      stepsMin = p.stepsMin;
      stepCountWeights = p.stepCountWeights;
      criticalityMix = p.criticalityMix;
      stepKindMix = p.stepKindMix;
      modelTiers = p.modelTiers;
      toolTiers = p.toolTiers;
      backoffBaseSeconds = p.backoffBaseSeconds;
      backoffCapSeconds = p.backoffCapSeconds;
      retryBudgetPerStep = p.retryBudgetPerStep;
      retryBudgetPerTask = p.retryBudgetPerTask;
      stickiness = p.stickiness;
      verifierDetectionSemantic = p.verifierDetectionSemantic;
      verifierDetectionTool = p.verifierDetectionTool;
      verifierFalseAlarm = p.verifierFalseAlarm;
      escalationLatencySeconds = p.escalationLatencySeconds;
      escalationCost = p.escalationCost;
      modelFaultMix = p.modelFaultMix;
      toolFaultMix = p.toolFaultMix;
      writeCommitsBeforeTimeout = p.writeCommitsBeforeTimeout;
      timeoutLatencyFactor = p.timeoutLatencyFactor;
      fastFailureLatencyFactor = p.fastFailureLatencyFactor;
      retryAfterSeconds = p.retryAfterSeconds;
      degradedQualityPenalty = p.degradedQualityPenalty;
      taskDeadlineSeconds = p.taskDeadlineSeconds;
      incidentWindowTasks = p.incidentWindowTasks;
      incidentFailureProbability = p.incidentFailureProbability;
      providerIncidentRate = p.providerIncidentRate;
      toolIncidentRate = p.toolIncidentRate;
      writeModel = p.writeModel;
    }

    WorkloadParameters build() {
      return new WorkloadParameters(pFault, stepsMin, stepCountWeights, criticalityMix, stepKindMix, modelTiers, toolTiers,
          backoffBaseSeconds, backoffCapSeconds, retryBudgetPerStep, retryBudgetPerTask, stickiness,
          verifierDetectionSemantic, verifierDetectionTool, verifierFalseAlarm, escalationLatencySeconds, escalationCost,
          modelFaultMix, toolFaultMix, writeCommitsBeforeTimeout, timeoutLatencyFactor, fastFailureLatencyFactor,
          retryAfterSeconds, degradedQualityPenalty, taskDeadlineSeconds, incidentWindowTasks, incidentFailureProbability,
          providerIncidentRate, toolIncidentRate, writeModel);
    }
  }

  /** The incident schedule of a run of this workload with {@code seed}. */
  public IncidentSchedule incidents(long seed) {
    if (providerIncidentRate <= 0 && toolIncidentRate <= 0) {
      return IncidentSchedule.NONE;
    }
    return new IncidentSchedule(seed, providerIncidentRate, toolIncidentRate, incidentWindowTasks, incidentFailureProbability);
  }

  /** The fault mix of a step kind. */
  public Map<Fault, Double> faultMix(StepKind kind) {
    return kind == StepKind.MODEL ? modelFaultMix : toolFaultMix;
  }

  /** The tiers of a step kind, primary first. */
  public List<Tier> tiers(StepKind kind) {
    return kind == StepKind.MODEL ? modelTiers : toolTiers;
  }

  /** Reads a bundled JSON resource of this package's parent ({@code /dev/hfr/bench/}). */
  public static JsonNode readResource(String name) {
    try (InputStream in = WorkloadParameters.class.getResourceAsStream("/dev/hfr/bench/" + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource /dev/hfr/bench/" + name);
      }
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /dev/hfr/bench/" + name, e);
    }
  }

  private static JsonNode required(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null) {
      throw new IllegalStateException("missing workload parameter " + field);
    }
    return value;
  }

  private static List<Tier> tiers(JsonNode array) {
    List<Tier> tiers = new ArrayList<>();
    for (JsonNode t : array) {
      tiers.add(new Tier(t.get("name").asText(), t.get("success").asDouble(), t.get("cost").asDouble(), t.get("latencySeconds").asDouble()));
    }
    return tiers;
  }

  private static WriteModel writeModel(JsonNode node) {
    return new WriteModel(required(node, "rejectedWritesCommit").asBoolean(), required(node, "writeLadder").asBoolean(),
        required(node, "writesReconcilable").asBoolean());
  }

  private static Map<Fault, Double> faultMix(JsonNode node) {
    Map<Fault, Double> mix = new EnumMap<>(Fault.class);
    node.properties().forEach(e -> mix.put(Fault.valueOf(e.getKey()), e.getValue().asDouble()));
    double sum = mix.values().stream().mapToDouble(Double::doubleValue).sum();
    if (Math.abs(sum - 1.0) > 1e-9) {
      throw new IllegalStateException("a fault mix must sum to 1, was " + sum + ": " + mix);
    }
    return mix;
  }
}
