package dev.hfr.processor.internal.messages;

/** Rule 1 (explicit risk), rule 8 (approval bypass) and the warnings about risk declarations. */
public final class RiskMessages {

  /** Rule 1: every public method of a tool class declares its risk. */
  public static final String EXPLICIT_RISK = "hfr/explicit-risk";
  /** Rule 8: a degradation rung must not skip an approval. */
  public static final String APPROVAL_BYPASS = "hfr/approval-bypass";
  /** Warning: approval on a read-only method. */
  public static final String APPROVAL_READ = "hfr/approval-read";

  private RiskMessages() {}

  public static String missingSideEffect(String method) {
    return "[" + EXPLICIT_RISK + "] " + method + " is public in a tool class but declares no risk: add"
        + " @SideEffect(Risk.R0) if it only reads, R1..R3 if it writes, or make it non-public";
  }

  public static String annotatedWithoutSideEffect(String method, String annotation) {
    return "[" + EXPLICIT_RISK + "] " + method + " carries @" + annotation + " but declares no risk: add"
        + " @SideEffect(...) to make it a tool, or remove @" + annotation;
  }

  public static String approvalBypass(String method, String target) {
    return "[" + APPROVAL_BYPASS + "] " + method + " needs no approval but degrades to " + target
        + ", which requires approval: the rung would bypass it; set requiresApproval = true on " + method
        + " as well, or remove the rung";
  }

  public static String approvalOnRead(String method) {
    return "[" + APPROVAL_READ + "] " + method + " is R0 (read-only) but requires approval: every read"
        + " waits for a human; remove requiresApproval unless reading itself is sensitive";
  }
}
