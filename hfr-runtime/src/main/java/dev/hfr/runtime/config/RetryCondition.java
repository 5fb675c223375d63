package dev.hfr.runtime.config;

import dev.hfr.annotations.Fault;
import java.util.Locale;

/**
 * An entry of {@code retry_on} / {@code never_retry_on}: a fault class, possibly narrowed by a condition
 * (the paper's {@code T3_readonly}, {@code T6_after_compress}, {@code T3_write_without_idempotency}).
 */
public enum RetryCondition {
  /** Transient transport or server error. */
  T1(Fault.T1),
  /** Rate limit; waits at least Retry-After. */
  T2(Fault.T2),
  /**
   * Timeout with unknown outcome, retried where a resend cannot repeat an effect: a read (R0), an idempotent
   * write (R1) under its key, a queryable write (R2) after its reconcile found it absent; never an R3 write.
   */
  T3(Fault.T3),
  /** The paper's spelling of {@link #T3}: a timeout is retried only where the resend is safe (the same rule). */
  T3_READONLY(Fault.T3),
  /**
   * Only in {@code never_retry_on}, and always in force: a timed-out write without an idempotency key is never
   * resent before its reconcile found it absent.
   */
  T3_WRITE_WITHOUT_IDEMPOTENCY(Fault.T3),
  /** Overload; usually degraded rather than retried on the same model. */
  T4(Fault.T4),
  /** Tool unavailable; usually degraded rather than retried on the same tool. */
  T5(Fault.T5),
  /** Context overflow: always compressed before the retry (never resent as is); same as {@link #T6_AFTER_COMPRESS}. */
  T6(Fault.T6),
  /** Context overflow, retried after compression. */
  T6_AFTER_COMPRESS(Fault.T6),
  /** Permanent input or permission error: only valid in {@code never_retry_on}. */
  T7(Fault.T7),
  /** Safety or policy refusal: only valid in {@code never_retry_on}. */
  T8(Fault.T8),
  /** Semantic verification failure, retried only with new evidence. */
  V1(Fault.V1);

  private final Fault fault;

  RetryCondition(Fault fault) {
    this.fault = fault;
  }

  /** The fault class this condition is about. */
  public Fault fault() {
    return fault;
  }

  /** The spelling used in the YAML file, e.g. {@code T3_readonly}. */
  public String yamlName() {
    String n = name();
    int underscore = n.indexOf('_');
    return underscore < 0 ? n : n.substring(0, underscore) + n.substring(underscore).toLowerCase(Locale.ROOT);
  }

  /** Reads the YAML spelling, case-insensitively; {@code null} when unknown. */
  public static RetryCondition fromYaml(String text) {
    if (text == null) {
      return null;
    }
    for (RetryCondition c : values()) {
      if (c.name().equalsIgnoreCase(text.trim())) {
        return c;
      }
    }
    return null;
  }
}
