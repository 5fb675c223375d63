package dev.hfr.bench.stats;

/**
 * Strategy A against strategy B on the same tasks and the same fault draws (§6.6.5): differences A - B
 * with 95 % bootstrap confidence intervals. Rates are in percentage points; cost in cost units;
 * latency in seconds; {@code cpsRelative} is the relative change of cost per success (A / B - 1).
 */
public record PairedComparison(
    String a,
    String b,
    int tasks,
    int resamples,
    Estimate srPp,
    Estimate csrPp,
    Estimate scrPp,
    Estimate meanCost,
    Estimate cpsRelative,
    Estimate meanLatencySeconds,
    Estimate dupPer1000) {}
