package dev.hfr.bench.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.bench.workload.WorkloadParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The experiment design stated by the paper (sizes, seeds, sweep points), read from the figures resource
 * so that no number of the paper is typed twice.
 */
record PaperDesign(
    int seeds,
    int tasksPerSeed,
    long sweepSeed,
    int tasksPerSweepPoint,
    List<Double> sweepRates,
    int incidentSeeds,
    int tasksPerIncidentPoint,
    double incidentFaultRate,
    List<Double> incidentRates,
    double toolIncidentFactor) {

  static PaperDesign read() {
    JsonNode root = WorkloadParameters.readResource("paper-figures.json");
    JsonNode b1 = root.get("tableB1");
    JsonNode c1 = root.get("tableC1");
    JsonNode t15 = root.get("table15");
    List<Double> rates = new ArrayList<>();
    t15.get("rates").forEach(r -> rates.add(r.asDouble()));
    TreeSet<Double> incidents = new TreeSet<>();
    c1.get("rows").forEach(r -> incidents.add(r.get("incidentRate").asDouble()));
    return new PaperDesign(b1.get("seeds").asInt(), b1.get("tasksPerSeed").asInt(), t15.get("seed").asLong(),
        t15.get("tasksPerPoint").asInt(), rates, c1.get("seeds").asInt(),
        c1.get("tasksPerPoint").asInt(), c1.get("pFault").asDouble(), List.copyOf(incidents),
        c1.get("toolIncidentFactor").asDouble());
  }
}
