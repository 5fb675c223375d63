package dev.hfr.runtime;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.verify.Verifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything the runtime knows about one tool method, fixed at compile time. The generated proxy holds
 * one {@code static final} descriptor per method and passes it on every call; the runtime never reflects
 * on the tool class.
 *
 * <p>The descriptor also answers the registry metadata of the article's tool registry (read-only,
 * idempotent, reversible, requires approval, requires verification).
 */
public final class ToolDescriptor {

  private final String toolClass;
  private final String method;
  private final String name;
  private final Risk risk;
  private final List<String> parameterNames;
  private final int idempotencyKeyParameter;
  private final String reconcileMethod;
  private final String compensateMethod;
  private final boolean requiresApproval;
  private final VerifyLevel verifyLevel;
  private final Verifier<?> verifier;
  private final RetrySpec retry;
  private final Criticality.Level criticality;
  private final List<DegradeStep> degradeLadder;
  private final Class<?> resultType;
  private final long timeoutMs;

  private ToolDescriptor(Builder b) {
    this.toolClass = b.toolClass;
    this.method = b.method;
    this.name = b.toolClass.substring(b.toolClass.lastIndexOf('.') + 1) + "." + b.method;
    this.risk = b.risk;
    this.parameterNames = List.copyOf(b.parameterNames);
    this.idempotencyKeyParameter = b.idempotencyKeyParameter;
    this.reconcileMethod = b.reconcileMethod;
    this.compensateMethod = b.compensateMethod;
    this.requiresApproval = b.requiresApproval;
    this.verifyLevel = b.verifyLevel;
    this.verifier = b.verifier;
    this.retry = b.retry != null ? b.retry : (b.risk == Risk.R3 ? RetrySpec.NONE : RetrySpec.DEFAULT);
    this.criticality = b.criticality;
    this.degradeLadder = List.copyOf(b.degradeLadder);
    this.resultType = b.resultType;
    this.timeoutMs = b.timeoutMs;
  }

  /** Starts a descriptor of {@code toolClass.method} at the given risk. */
  public static Builder builder(String toolClass, String method, Risk risk) {
    return new Builder(toolClass, method, risk);
  }

  /** The fully qualified name of the annotated class. */
  public String toolClass() { return toolClass; }

  /** The method's simple name. */
  public String method() { return method; }

  /** {@code SimpleClassName.method}: the tool's name in meters, events and the registry. */
  public String name() { return name; }

  public Risk risk() { return risk; }

  /** The method's parameter names, in order. */
  public List<String> parameterNames() { return parameterNames; }

  /** The index of the {@code @IdempotencyKey} parameter, or -1. */
  public int idempotencyKeyParameter() { return idempotencyKeyParameter; }

  /** The reconcile method's name, or {@code null}. */
  public String reconcileMethod() { return reconcileMethod; }

  /** The compensate method's name, or {@code null}. */
  public String compensateMethod() { return compensateMethod; }

  public boolean requiresApproval() { return requiresApproval; }

  public VerifyLevel verifyLevel() { return verifyLevel; }

  /** The user's verifier of {@code @Verify(by = ...)}, or {@code null} for the level's built-in check. */
  public Verifier<?> verifier() { return verifier; }

  public RetrySpec retry() { return retry; }

  public Criticality.Level criticality() { return criticality; }

  /** The degradation ladder, in the order its rungs are tried. */
  public List<DegradeStep> degradeLadder() { return degradeLadder; }

  /**
   * The method's declared return type ({@code void.class} for void methods), checked by the built-in V0
   * verification; {@code null} when the descriptor does not declare it (V0 then skips the type and
   * non-null check).
   */
  public Class<?> resultType() { return resultType; }

  /**
   * The bound of one attempt from {@code @Timeout(ms)} (method, else class), in milliseconds; 0 when the
   * annotations set none (YAML {@code timeout_ms} and the task deadline may still bound it).
   */
  public long timeoutMs() { return timeoutMs; }

  /** Registry metadata: the method has no side effect. */
  public boolean readOnly() { return risk == Risk.R0; }

  /** Registry metadata: repeating the call commits at most one side effect. */
  public boolean idempotent() { return risk == Risk.R0 || risk == Risk.R1; }

  /** Registry metadata: a committed effect can be undone ({@code partial} where only compensation can). */
  public String reversible() {
    if (risk == Risk.R0) {
      return "yes";
    }
    if (compensateMethod != null) {
      return "partial";
    }
    return risk == Risk.R3 ? "no" : "partial";
  }

  /** Registry metadata: results are checked beyond transport (V1 or above). */
  public boolean requiresVerification() { return verifyLevel != VerifyLevel.V0; }

  @Override
  public String toString() {
    return "ToolDescriptor[" + name + ", " + risk + "]";
  }

  /** Builds a {@link ToolDescriptor}; arguments are checked as they are given. */
  public static final class Builder {
    private final String toolClass;
    private final String method;
    private final Risk risk;
    private final List<String> parameterNames = new ArrayList<>();
    private int idempotencyKeyParameter = -1;
    private String reconcileMethod;
    private String compensateMethod;
    private boolean requiresApproval;
    private VerifyLevel verifyLevel = VerifyLevel.V0;
    private Verifier<?> verifier;
    private RetrySpec retry;
    private Criticality.Level criticality = Criticality.Level.MEDIUM;
    private final List<DegradeStep> degradeLadder = new ArrayList<>();
    private Class<?> resultType;
    private long timeoutMs;

    private Builder(String toolClass, String method, Risk risk) {
      this.toolClass = requireText(toolClass, "toolClass");
      this.method = requireText(method, "method");
      this.risk = Objects.requireNonNull(risk, "risk");
    }

    public Builder parameters(String... names) {
      for (String n : names) {
        parameterNames.add(requireText(n, "parameter name"));
      }
      return this;
    }

    public Builder idempotencyKeyParameter(int index) {
      if (index < 0) {
        throw new IllegalArgumentException("idempotencyKeyParameter must be >= 0, was " + index);
      }
      this.idempotencyKeyParameter = index;
      return this;
    }

    public Builder reconcile(String methodName) {
      this.reconcileMethod = requireText(methodName, "reconcile");
      return this;
    }

    public Builder compensate(String methodName) {
      this.compensateMethod = requireText(methodName, "compensate");
      return this;
    }

    public Builder requiresApproval(boolean requiresApproval) {
      this.requiresApproval = requiresApproval;
      return this;
    }

    public Builder verify(VerifyLevel level) {
      this.verifyLevel = Objects.requireNonNull(level, "level");
      return this;
    }

    public Builder verify(VerifyLevel level, Verifier<?> verifier) {
      this.verifyLevel = Objects.requireNonNull(level, "level");
      this.verifier = Objects.requireNonNull(verifier, "verifier");
      return this;
    }

    public Builder retry(RetrySpec retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    public Builder criticality(Criticality.Level criticality) {
      this.criticality = Objects.requireNonNull(criticality, "criticality");
      return this;
    }

    public Builder degradeTo(String target, dev.hfr.annotations.DegradeLevel level, Risk targetRisk) {
      degradeLadder.add(new DegradeStep(target, level, targetRisk));
      return this;
    }

    /** The method's return type, for the V0 check ({@code void.class} for void methods). */
    public Builder resultType(Class<?> type) {
      this.resultType = Objects.requireNonNull(type, "type");
      return this;
    }

    /** {@code @Timeout(ms)}: the bound of one attempt, at least 1 ms. */
    public Builder timeoutMs(long ms) {
      if (ms < 1) {
        throw new IllegalArgumentException("timeoutMs must be at least 1, was " + ms);
      }
      this.timeoutMs = ms;
      return this;
    }

    public ToolDescriptor build() {
      if (idempotencyKeyParameter >= 0 && idempotencyKeyParameter >= parameterNames.size()) {
        throw new IllegalStateException(
            "idempotencyKeyParameter " + idempotencyKeyParameter + " is outside the " + parameterNames.size() + " parameters of " + method);
      }
      if (risk == Risk.R3 && retry != null && retry.maxAttempts() > 1) {
        throw new IllegalStateException(method + " is R3 (irreversible) and cannot be retried: maxAttempts must be 1");
      }
      return new ToolDescriptor(this);
    }

    private static String requireText(String value, String what) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(what + " must not be blank");
      }
      return value;
    }
  }
}
