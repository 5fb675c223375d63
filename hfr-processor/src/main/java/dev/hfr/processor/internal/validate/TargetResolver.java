package dev.hfr.processor.internal.validate;

import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * Resolves a method a tool names by string (reconcile, compensate, degradation target) to the one
 * overload that can take the tool's arguments. The validators report each way it can fail; the
 * generators call the resolved method directly.
 */
public final class TargetResolver {

  /** How a name resolved. */
  public enum Status {
    /** Exactly one overload takes the tool's arguments. */
    FOUND,
    /** No method of that name. */
    NOT_FOUND,
    /** Methods of that name exist, but none takes the tool's arguments. */
    WRONG_PARAMETERS,
    /** Several overloads take the tool's arguments. */
    AMBIGUOUS
  }

  /**
   * The result of a resolution.
   *
   * @param status how it resolved
   * @param method the method when {@link Status#FOUND}, else {@code null}
   */
  public record Resolution(Status status, ExecutableElement method) {}

  private final Methods methods;

  public TargetResolver(Methods methods) {
    this.methods = methods;
  }

  public Resolution resolve(TypeElement type, String name, ExecutableElement source) {
    List<ExecutableElement> named = methods.named(type, name);
    if (named.isEmpty()) {
      return new Resolution(Status.NOT_FOUND, null);
    }
    List<ExecutableElement> fitting = named.stream()
        .filter(m -> methods.acceptsArgumentsOf(m, source))
        .collect(Collectors.toList());
    if (fitting.isEmpty()) {
      return new Resolution(Status.WRONG_PARAMETERS, null);
    }
    if (fitting.size() > 1) {
      return new Resolution(Status.AMBIGUOUS, null);
    }
    return new Resolution(Status.FOUND, fitting.get(0));
  }
}
