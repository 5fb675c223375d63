package dev.hfr.runtime.internal.engine;

/**
 * The states of the HFR controller (the paper's Table 9), as one call of a tool moves through them. The
 * controller runs each state as one step of {@code StateMachine}; every transition is explicit there.
 *
 * <pre>
 * INIT ─▶ RUN_STEP ─▶ OBSERVE ─┬─▶ VERIFY ─┬─▶ ACCEPT
 *            ▲                 │           └─▶ CLASSIFY (a rejection is a V1 fault)
 *            │                 └─▶ CLASSIFY ─▶ CHECK ─▶ DECIDE ─┬─▶ RETRY_WAIT ─▶ RUN_STEP
 *            │                                                  ├─▶ RECONCILE ─▶ VERIFY | CHECK | ESCALATE
 *            │                                                  ├─▶ COMPRESS ─▶ CHECK
 *            └──────────────────────────────────────────────────├─▶ DEGRADE ─▶ RUN_STEP
 *                                                               └─▶ REPLAN | ESCALATE | FAIL
 * </pre>
 */
public enum ControllerState {
  /** Task limits, approval, and for writes the ledger record (prepared before the first attempt). */
  INIT,
  /** One physical attempt of the method or of the current ladder rung. */
  RUN_STEP,
  /** Record what the attempt showed: latency, result or exception; feed the breaker and meters. */
  OBSERVE,
  /** Map the failure to an F2D-9 class with a confidence. */
  CLASSIFY,
  /** Start from the class's default action and check budgets, deadline, breaker and risk. */
  CHECK,
  /** Settle on an action, falling back to degradation, escalation or failure; record the decision. */
  DECIDE,
  /** Wait out the backoff (never shorter than Retry-After). */
  RETRY_WAIT,
  /** Ask whether a write with an unknown outcome committed. */
  RECONCILE,
  /** Shrink the context after an overflow. */
  COMPRESS,
  /** Move to the next allowed rung of the ladder. */
  DEGRADE,
  /** Stop this call and ask the planner for a new plan. */
  REPLAN,
  /** Check the result at the method's verification level. */
  VERIFY,
  /** Accept the result: it is returned to the caller. */
  ACCEPT,
  /** Hand the call over with an evidence bundle. */
  ESCALATE,
  /** Stop with a structured failure. */
  FAIL
}
