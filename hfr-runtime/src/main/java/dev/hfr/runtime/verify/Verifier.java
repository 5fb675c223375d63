package dev.hfr.runtime.verify;

/**
 * Checks a tool result before it is accepted ({@code @Verify(by = ...)}). A verifier must not change
 * the outside world; it may read it (a V2 state cross-check).
 *
 * @param <R> the result type it checks
 */
@FunctionalInterface
public interface Verifier<R> {

  /** Judges {@code result}; never returns {@code null}. */
  Verdict verify(R result);
}
