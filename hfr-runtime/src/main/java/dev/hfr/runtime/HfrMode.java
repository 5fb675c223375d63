package dev.hfr.runtime;

/**
 * How much the engine does (§5.6: shadow first, then enforce; a global kill switch always).
 */
public enum HfrMode {
  /** Classify, decide and act: the full engine. */
  ENFORCE,
  /**
   * Classify, decide and record what HFR would have done, but act as before: the tool is called once and
   * its result returned or its exception thrown unchanged. For calibrating on real traffic.
   */
  SHADOW,
  /** The kill switch: calls go straight through to the tool; nothing is classified or recorded. */
  OFF
}
