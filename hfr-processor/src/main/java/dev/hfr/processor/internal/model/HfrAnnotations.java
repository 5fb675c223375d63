package dev.hfr.processor.internal.model;

import java.util.List;

/** The qualified names of the annotation contract, as the processor looks them up. */
public final class HfrAnnotations {

  public static final String SIDE_EFFECT = "dev.hfr.annotations.SideEffect";
  public static final String IDEMPOTENT = "dev.hfr.annotations.Idempotent";
  public static final String IDEMPOTENCY_KEY = "dev.hfr.annotations.IdempotencyKey";
  public static final String VERIFY = "dev.hfr.annotations.Verify";
  public static final String DEGRADE = "dev.hfr.annotations.Degrade";
  public static final String DEGRADE_LIST = "dev.hfr.annotations.Degrade.List";
  public static final String RETRY = "dev.hfr.annotations.Retry";
  public static final String CRITICALITY = "dev.hfr.annotations.Criticality";
  public static final String TIMEOUT = "dev.hfr.annotations.Timeout";

  /** Every annotation that makes a method (or its class) processed. */
  public static final List<String> ALL =
      List.of(SIDE_EFFECT, IDEMPOTENT, IDEMPOTENCY_KEY, VERIFY, DEGRADE, DEGRADE_LIST, RETRY, CRITICALITY, TIMEOUT);

  /** The method annotations that only make sense on a tool (one with {@code @SideEffect}). */
  public static final List<String> TOOL_ONLY = List.of(IDEMPOTENT, VERIFY, DEGRADE, DEGRADE_LIST, RETRY, CRITICALITY, TIMEOUT);

  private HfrAnnotations() {}

  /** {@code dev.hfr.annotations.Degrade.List} -> {@code Degrade.List}. */
  public static String simpleName(String qualifiedName) {
    return qualifiedName.substring("dev.hfr.annotations.".length());
  }
}
