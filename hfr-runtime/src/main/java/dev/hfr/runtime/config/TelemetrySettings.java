package dev.hfr.runtime.config;

/**
 * The {@code hfr.telemetry} section (paper §5.5, §5.2).
 *
 * @param sampleRate the share of decision events written, in [0, 1]
 * @param redactPii whether arguments and results are hashed or redacted (never written raw either way)
 * @param emitDecisionEvents whether decision events are written at all
 */
public record TelemetrySettings(double sampleRate, boolean redactPii, boolean emitDecisionEvents) {

  /** The paper's values. */
  public static final TelemetrySettings DEFAULTS = new TelemetrySettings(1.0, true, true);

  public TelemetrySettings {
    if (!(sampleRate >= 0 && sampleRate <= 1)) {
      throw new IllegalArgumentException("sampleRate must be in [0, 1], was " + sampleRate);
    }
  }
}
