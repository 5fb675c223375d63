package dev.hfr.runtime.verify;

import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.ToolDescriptor;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Runs the verification levels of Table 8 on a result, cheapest first, stopping at the first rejection:
 * V0 always (the built-in transport check), then the method's own {@link Verifier} (V1 and up), then
 * the V2 hook for V2 and V3 methods and the V3 hook for V3 methods. A verifier that throws or returns
 * {@code null} rejects: an unverifiable result is never silently accepted.
 *
 * <p>When a method asks for a level whose hook is not registered (V2 without a judge, V3 without a
 * human), the result is accepted on the checks that did run and {@link Result#verificationRequired()}
 * tells the caller that verification is still owed.
 */
public final class ResultVerification {

  private final Map<VerifyLevel, VerificationHook> hooks;

  /** Verification with the given V2/V3 hooks (keys V2 and V3; others are ignored). */
  public ResultVerification(Map<VerifyLevel, VerificationHook> hooks) {
    EnumMap<VerifyLevel, VerificationHook> copy = new EnumMap<>(VerifyLevel.class);
    hooks.forEach((level, hook) -> copy.put(Objects.requireNonNull(level, "level"), Objects.requireNonNull(hook, "hook")));
    this.hooks = copy;
  }

  /** What verification concluded. */
  public static final class Result {
    static final Result ACCEPTED = new Result(null, BuiltInChecks.ACCEPTED, false);
    static final Result ACCEPTED_UNVERIFIED = new Result(null, BuiltInChecks.ACCEPTED, true);

    private final VerifyLevel rejectedAt;
    private final Verdict verdict;
    private final boolean verificationRequired;

    Result(VerifyLevel rejectedAt, Verdict verdict, boolean verificationRequired) {
      this.rejectedAt = rejectedAt;
      this.verdict = verdict;
      this.verificationRequired = verificationRequired;
    }

    /** Whether every check that ran accepted the result. */
    public boolean accepted() { return rejectedAt == null; }

    /** The level that rejected it, or {@code null}. */
    public VerifyLevel rejectedAt() { return rejectedAt; }

    /** The deciding verdict (the rejection, or the last acceptance with its quality). */
    public Verdict verdict() { return verdict; }

    /** Whether a requested level could not run here and the caller still has to verify. */
    public boolean verificationRequired() { return verificationRequired; }
  }

  /** Verifies {@code result} of {@code tool} at {@code level}. */
  public Result verify(ToolDescriptor tool, VerifyLevel level, Object result) {
    Verdict v0 = BuiltInChecks.transport(tool, result);
    if (!v0.accepted()) {
      return new Result(VerifyLevel.V0, v0, false);
    }
    if (level == VerifyLevel.V0) {
      return Result.ACCEPTED;
    }
    Verdict last = v0;
    Verifier<?> own = tool.verifier();
    if (own != null) {
      last = runOwn(own, result);
      if (!last.accepted()) {
        return new Result(VerifyLevel.V1, last, false);
      }
    }
    boolean owed = false;
    if (level.compareTo(VerifyLevel.V2) >= 0) {
      VerificationHook v2 = hooks.get(VerifyLevel.V2);
      if (v2 != null) {
        last = runHook(v2, tool, result);
        if (!last.accepted()) {
          return new Result(VerifyLevel.V2, last, false);
        }
      } else if (own == null) {
        owed = true;
      }
    }
    if (level == VerifyLevel.V3) {
      VerificationHook v3 = hooks.get(VerifyLevel.V3);
      if (v3 != null) {
        last = runHook(v3, tool, result);
        if (!last.accepted()) {
          return new Result(VerifyLevel.V3, last, false);
        }
      } else {
        owed = true;
      }
    }
    if (last == BuiltInChecks.ACCEPTED) {
      return owed ? Result.ACCEPTED_UNVERIFIED : Result.ACCEPTED;
    }
    return new Result(null, last, owed);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Verdict runOwn(Verifier own, Object result) {
    try {
      Verdict v = own.verify(result);
      return v != null ? v : BuiltInChecks.VERIFIER_RETURNED_NULL;
    } catch (RuntimeException e) {
      return BuiltInChecks.verifierFailed(e);
    }
  }

  private static Verdict runHook(VerificationHook hook, ToolDescriptor tool, Object result) {
    try {
      Verdict v = hook.verify(tool, result);
      return v != null ? v : BuiltInChecks.VERIFIER_RETURNED_NULL;
    } catch (Exception e) {
      return BuiltInChecks.verifierFailed(e);
    }
  }
}
