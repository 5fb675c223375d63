/**
 * What the engine records: Micrometer meters with the §5.5 names ({@link dev.hfr.runtime.telemetry.HfrMeters}),
 * one {@link dev.hfr.runtime.telemetry.DecisionEvent} per decision to a pluggable
 * {@link dev.hfr.runtime.telemetry.DecisionSink} (by default the {@link dev.hfr.runtime.telemetry.DecisionLog},
 * which writes JSON to the {@code System.Logger} {@code dev.hfr.decisions} from a background thread), and the hashes that stand in
 * for arguments and results.
 */
package dev.hfr.runtime.telemetry;
