package dev.hfr.runtime.verify;

import dev.hfr.runtime.ToolDescriptor;
import java.util.Map;

/** The built-in V0 transport check and the verdicts the verification stage produces itself. */
public final class BuiltInChecks {

  private BuiltInChecks() {}

  /** A shared acceptance at full quality (no allocation on the happy path). */
  public static final Verdict ACCEPTED = Verdict.accept();

  static final Verdict NULL_RESULT = Verdict.reject("null_result");
  static final Verdict VERIFIER_RETURNED_NULL = Verdict.reject("verifier_returned_null");

  /**
   * V0: the call returned a non-null result of the declared type. Only checked when the descriptor
   * declares its result type ({@link ToolDescriptor#resultType()}); {@code void} methods return
   * {@code null} legitimately.
   */
  public static Verdict transport(ToolDescriptor tool, Object result) {
    Class<?> type = tool.resultType();
    if (type == null || type == void.class || type == Void.class) {
      return ACCEPTED;
    }
    if (result == null) {
      return NULL_RESULT;
    }
    if (!box(type).isInstance(result)) {
      return Verdict.reject("wrong_type", Map.of("expected", type.getName(), "actual", result.getClass().getName()));
    }
    return ACCEPTED;
  }

  static Verdict verifierFailed(Exception e) {
    return Verdict.reject("verifier_error", Map.of("exception", e.getClass().getName()));
  }

  private static Class<?> box(Class<?> type) {
    if (!type.isPrimitive()) {
      return type;
    }
    if (type == int.class) return Integer.class;
    if (type == long.class) return Long.class;
    if (type == boolean.class) return Boolean.class;
    if (type == double.class) return Double.class;
    if (type == float.class) return Float.class;
    if (type == short.class) return Short.class;
    if (type == byte.class) return Byte.class;
    return Character.class;
  }
}
