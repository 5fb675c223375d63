package dev.hfr.runtime.action;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.DefaultFailureClassifier;

/**
 * The F2D-9 fault class → default action table (the paper's Tables 2–4 and 11), in one place. It is the
 * action before budgets, deadline, breaker and ladder are looked at: the engine starts from it and the
 * checks may only make it more conservative (a RETRY becomes a degradation, an escalation or a failure),
 * never less.
 *
 * <table>
 *   <caption>Default actions</caption>
 *   <tr><th>fault</th><th>R0 read</th><th>R1 idempotent write</th><th>R2 queryable write</th><th>R3 irreversible</th></tr>
 *   <tr><td>T1 transient</td><td>RETRY</td><td>RETRY (same key)</td><td>RECONCILE</td><td>FAIL</td></tr>
 *   <tr><td>T2 rate limit</td><td>RETRY</td><td>RETRY (same key)</td><td>RETRY (rejected before processing)</td><td>FAIL</td></tr>
 *   <tr><td>T3 timeout</td><td>RETRY</td><td>RETRY (same key)</td><td>RECONCILE</td><td>ESCALATE</td></tr>
 *   <tr><td>T4 overloaded</td><td colspan="3">DEGRADE_MODEL</td><td>FAIL</td></tr>
 *   <tr><td>T5 tool unavailable</td><td colspan="3">DEGRADE_TOOL</td><td>FAIL</td></tr>
 *   <tr><td>T6 context overflow</td><td colspan="3">COMPRESS</td><td>FAIL</td></tr>
 *   <tr><td>T7 permanent</td><td colspan="4">FAIL (ESCALATE at HIGH criticality)</td></tr>
 *   <tr><td>T8 policy refusal</td><td colspan="4">ESCALATE — never degraded around</td></tr>
 *   <tr><td>V1 verification</td><td>RETRY (with new evidence)</td><td colspan="2">RECONCILE: absent → RETRY with new
 *     evidence; present → COMPENSATE, then RETRY under a new key; no compensate method → ESCALATE</td><td>ESCALATE</td></tr>
 *   <tr><td>UNCLASSIFIED</td><td>RETRY (probe once)</td><td>RECONCILE</td><td>RECONCILE</td><td>ESCALATE</td></tr>
 * </table>
 *
 * <p>At HIGH criticality an unclassified fault escalates whatever the risk (§4.2). A write without a
 * reconcile method counts as present after a rejection (its tool answered); an R1 write gets a new key
 * only after a compensation or a reconcile proved its first one has nothing in place.
 */
public final class ActionTable {

  private ActionTable() {}

  /** The default action for {@code fault} on a method of {@code risk} and {@code criticality}. */
  public static Action defaultAction(Fault fault, Risk risk, Criticality.Level criticality) {
    switch (fault) {
      case T8:
        return Action.ESCALATE;
      case T7:
        return criticality == Criticality.Level.HIGH ? Action.ESCALATE : Action.FAIL;
      case UNCLASSIFIED:
        if (criticality == Criticality.Level.HIGH) {
          return Action.ESCALATE;
        }
        // Read: probe once. Write: find out first (for R1 a same-key resend is the reconciliation).
        return risk == Risk.R0 ? Action.RETRY : risk == Risk.R3 ? Action.ESCALATE : Action.RECONCILE;
      case T3:
        return unknownOutcome(risk);
      case T1:
        // A 5xx after a non-idempotent write does not prove nothing was committed.
        if (risk == Risk.R2) {
          return Action.RECONCILE;
        }
        return risk == Risk.R3 ? Action.FAIL : Action.RETRY;
      case T2:
        return risk == Risk.R3 ? Action.FAIL : Action.RETRY;
      case T4:
        return risk == Risk.R3 ? Action.FAIL : Action.DEGRADE_MODEL;
      case T5:
        return risk == Risk.R3 ? Action.FAIL : Action.DEGRADE_TOOL;
      case T6:
        return risk == Risk.R3 ? Action.FAIL : Action.COMPRESS;
      case V1:
        // A rejected write may or may not have taken effect: find out (reconcile, then compensate a wrong
        // effect) before it is sent again. An irreversible one goes to a person.
        return risk == Risk.R0 ? Action.RETRY : risk == Risk.R3 ? Action.ESCALATE : Action.RECONCILE;
      default:
        throw new IllegalArgumentException("no default action for " + fault);
    }
  }

  /** The outcome of the last attempt is not known: reads probe, writes find out before anything else. */
  private static Action unknownOutcome(Risk risk) {
    switch (risk) {
      case R0:
      case R1:
        return Action.RETRY;
      case R2:
        return Action.RECONCILE;
      default:
        return Action.ESCALATE;
    }
  }

  /**
   * Whether the failure proves the write was not applied: the request was refused before it was
   * processed (rate limit, overload, contract mismatch, context overflow, permanent input error, refusal).
   * Anything else after a write leaves its outcome unknown until it is reconciled.
   */
  public static boolean provesNotApplied(Fault fault) {
    return provesNotApplied(fault, null);
  }

  /**
   * {@link #provesNotApplied(Fault)}, and also a plain HTTP 503: the paper files it under T1 with the other
   * 5xx answers, but RFC 9110 (§15.6.4) defines it as a server "currently unable to handle the request" —
   * refused before processing, like a 429. A 500, 502 or 504 may come after the server did the work and
   * proves nothing. (A server that answers 503 after applying a write breaks that contract: give the engine a
   * classifier that files its 503s under another rule.)
   *
   * @param fault the class the engine acts on
   * @param classification the classifier's answer it came from, or {@code null}
   */
  public static boolean provesNotApplied(Fault fault, Classification classification) {
    if (fault == Fault.T1 && classification != null && classification.fault() == Fault.T1
        && DefaultFailureClassifier.RULE_SERVICE_UNAVAILABLE.equals(classification.rule())) {
      return true;
    }
    switch (fault) {
      case T2:
      case T4:
      case T5:
      case T6:
      case T7:
      case T8:
        return true;
      default:
        return false;
    }
  }
}
