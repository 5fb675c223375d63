package dev.hfr.runtime.action;

/**
 * The nine recovery actions of the paper's Table 3, and {@link #COMPENSATE}, which the engine never
 * chooses by itself: it is what a caller asks for when a committed write must be undone (§4.5, step 4).
 */
public enum Action {
  /** Run the same logical action again (after a backoff). */
  RETRY,
  /** Ask the ledger and the outside world whether a write committed before doing anything else. */
  RECONCILE,
  /** Compress the context (or narrow retrieval), then run again. */
  COMPRESS,
  /** Switch to an equivalent or smaller model: the next model rung of the ladder. */
  DEGRADE_MODEL,
  /** Switch to an equivalent tool or a simpler contract: the next tool rung of the ladder. */
  DEGRADE_TOOL,
  /** Narrow the task: partial result, template or cache (an L3/L4 rung). */
  DEGRADE_SCOPE,
  /** Keep the committed steps and let the planner choose the next ones. */
  REPLAN,
  /** Hand over to a human or upstream system with an evidence bundle. */
  ESCALATE,
  /** Stop with a structured failure. */
  FAIL,
  /**
   * Undo a committed write through its compensate method (§4.5, step 4; Table 6's COMPENSATED). Never
   * picked by the action table: only on a caller's request ({@code TaskScope.compensate}).
   */
  COMPENSATE;

  /** Whether this action moves along the degradation ladder. */
  public boolean isDegradation() {
    return this == DEGRADE_MODEL || this == DEGRADE_TOOL || this == DEGRADE_SCOPE;
  }

  /** Whether this action ends the call (no further attempt follows). */
  public boolean isTerminal() {
    return this == REPLAN || this == ESCALATE || this == FAIL;
  }

  /** The lower-case name used in meter tags and decision events. */
  public String tag() {
    return TAGS[ordinal()];
  }

  private static final String[] TAGS = tags();

  private static String[] tags() {
    Action[] all = values();
    String[] t = new String[all.length];
    for (int i = 0; i < all.length; i++) {
      t[i] = all[i].name().toLowerCase(java.util.Locale.ROOT);
    }
    return t;
  }
}
