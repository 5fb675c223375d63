package dev.hfr.processor.internal.messages;

/** Rule 6 (the degradation ladder), rule 7 (criticality limits automatic degradation) and their warnings. */
public final class DegradeMessages {

  /** Rule 6: every rung names a compatible, no riskier method, levels ascend, no cycles. */
  public static final String DEGRADE_LADDER = "hfr/degrade-ladder";
  /** Rule 7: HIGH criticality allows automatic degradation up to L2 only. */
  public static final String CRITICALITY_DEGRADE = "hfr/criticality-degrade";
  /** Warning: an L4 rung below LOW criticality is not taken automatically. */
  public static final String DEGRADE_NEEDS_HUMAN = "hfr/degrade-needs-human";

  private DegradeMessages() {}

  public static String targetNotFound(String method, String target, String type) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + ", which does not exist in "
        + type + ": fix the name or add the method";
  }

  public static String incompatibleParameters(String method, String target, String parameters) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + ", which cannot take its"
        + " arguments: the target must take the same parameters (" + parameters + ")";
  }

  public static String incompatibleReturn(String method, String target, String actual, String expected) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + ", which returns " + actual
        + ": a rung must return " + expected + " (or a subtype) so callers get the type they expect";
  }

  public static String higherRisk(String method, String risk, String target, String targetRisk) {
    return "[" + DEGRADE_LADDER + "] " + method + " (" + risk + ") degrades to " + target + " (" + targetRisk
        + "): a degradation must not add side effects; degrade to a method of risk " + risk + " or lower";
  }

  public static String targetWithoutRisk(String method, String target) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + ", which declares no risk: add"
        + " @SideEffect(...) to " + target + " so the ladder can be checked";
  }

  public static String targetNotCallable(String method, String target, String modifier) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + ", which is " + modifier
        + ", so the generated proxy cannot call it: make it a non-private instance method";
  }

  public static String ambiguousTarget(String method, String target) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + ", but several overloads of "
        + target + " fit: rename one of them";
  }

  public static String levelNotAscending(String method, String target, String level, String previous) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + " at " + level + ", which is not"
        + " above the previous rung's " + previous + ": order the rungs by strictly ascending level";
  }

  public static String levelZero(String method, String target) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades to " + target + " at L0, which is the normal"
        + " path: use L1 (compressed), L2 (equivalent), L3 (smaller) or L4 (fallback)";
  }

  public static String cycle(String method, String path) {
    return "[" + DEGRADE_LADDER + "] " + method + " degrades in a cycle (" + path + "): remove one of the"
        + " rungs so every ladder ends";
  }

  public static String highCriticality(String method, String target, String level) {
    return "[" + CRITICALITY_DEGRADE + "] " + method + " is HIGH criticality but degrades automatically to "
        + target + " at " + level + ": HIGH allows automatic degradation up to L2 only; use L1/L2, remove"
        + " the rung, or lower the criticality";
  }

  public static String needsHuman(String method, String target, String criticality) {
    return "[" + DEGRADE_NEEDS_HUMAN + "] " + method + " is " + criticality + " criticality, so its L4 rung to "
        + target + " is not taken automatically (L4 is automatic only at LOW): declare"
        + " @Criticality(LOW) if a fallback result is acceptable, or expect an escalation instead";
  }
}
