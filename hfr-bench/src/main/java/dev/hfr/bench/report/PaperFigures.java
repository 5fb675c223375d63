package dev.hfr.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;

/**
 * The paper's figures, as quoted in {@code paper-figures.json} — the only hand-typed figures of the
 * benchmark. Absent figures (the paper has no HFR−circuit-breaker row, no sd for some cells) are NaN.
 */
public final class PaperFigures {

  private final JsonNode root;

  private PaperFigures(JsonNode root) {
    this.root = root;
  }

  /** The bundled figures. */
  public static PaperFigures load() {
    return new PaperFigures(WorkloadParameters.readResource("paper-figures.json"));
  }

  /** A cell of Table 12, 13 or 14 ({@code table} is e.g. {@code "table12"}), or NaN. */
  public double cell(String table, Strategy strategy, String field) {
    JsonNode row = root.path(table).path(strategy.name());
    JsonNode v = row.path(field);
    return v.isNumber() ? v.asDouble() : Double.NaN;
  }

  /** SR in percent of Table 15 at {@code rate}, or NaN. */
  public double table15(Strategy strategy, double rate) {
    JsonNode t = root.path("table15");
    JsonNode rates = t.path("rates");
    for (int i = 0; i < rates.size(); i++) {
      if (Math.abs(rates.get(i).asDouble() - rate) < 1e-9) {
        JsonNode v = t.path(strategy.name()).path(i);
        return v.isNumber() ? v.asDouble() : Double.NaN;
      }
    }
    return Double.NaN;
  }

  /** A field of Table C1 at {@code rate}, or NaN. */
  public double tableC1(Strategy strategy, double rate, String field) {
    for (JsonNode row : root.path("tableC1").path("rows")) {
      if (Math.abs(row.path("incidentRate").asDouble() - rate) < 1e-9 && row.path("strategy").asText().equals(strategy.name())) {
        JsonNode v = row.path(field);
        return v.isNumber() ? v.asDouble() : Double.NaN;
      }
    }
    return Double.NaN;
  }
}
