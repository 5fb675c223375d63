package dev.hfr.bench.report;

/**
 * How a report was produced: the exact command, the first seed, the mode and the machine.
 *
 * @param command the command line that produced the report
 * @param seed the first seed of the main comparison
 * @param mode {@code full} or {@code quick}
 * @param generatedAt when (UTC, ISO-8601)
 * @param machine Java version and available processors
 */
public record RunInfo(String command, long seed, String mode, String generatedAt, String machine) {}
