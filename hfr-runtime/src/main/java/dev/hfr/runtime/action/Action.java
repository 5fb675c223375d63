package dev.hfr.runtime.action;

/** The nine recovery actions of the paper's Table 3. */
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
  FAIL;

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
