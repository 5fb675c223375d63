package dev.hfr.runtime.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The compensation counter {@value #COMPENSATIONS}{@code {tool, outcome}} (exported to Prometheus as
 * {@code harness_compensations_total}): one count per request to undo a committed write, by how it
 * ended. Tag values are bounded: the tool's name and an {@link Outcome}. Compensations are rare, so the
 * counters are looked up by tag rather than kept in per-tool slots like {@link ToolMeters}.
 */
public final class CompensationMeters {

  public static final String COMPENSATIONS = "harness.compensations";

  /** How a compensation request ended. */
  public enum Outcome {
    /** The compensation committed (or had committed before) and the write is COMPENSATED. */
    COMPENSATED,
    /** The compensate method was refused with proof that nothing was undone. */
    FAILED,
    /** The compensation's outcome is unknown; it was escalated. */
    UNKNOWN,
    /** The request was refused before anything ran (no compensate method, not committed, key in use). */
    REFUSED;

    final String tag = name().toLowerCase(Locale.ROOT);
  }

  private final MeterRegistry registry;
  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

  public CompensationMeters(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** Counts one compensation request of {@code tool} that ended with {@code outcome}. */
  public void record(String tool, Outcome outcome) {
    counters.computeIfAbsent(tool + '\u0000' + outcome.tag, k -> Counter.builder(COMPENSATIONS)
            .tag("tool", tool)
            .tag("outcome", outcome.tag)
            .description("Requests to undo a committed write through its compensate method, by outcome")
            .baseUnit("compensations")
            .register(registry))
        .increment();
  }
}
