package dev.hfr.runtime.inbox;

/** What an inbox item asks of a person. */
public enum ItemKind {
  /** A call the engine handed to a person: what happened to it, or close it. */
  ESCALATION,
  /** A call of a {@code requiresApproval} tool that waits for a yes or no before it runs. */
  APPROVAL
}
