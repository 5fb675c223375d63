package dev.hfr.runtime.verify;

import dev.hfr.runtime.ToolDescriptor;

/**
 * A verification step beyond the method's own {@link Verifier}: the V2 hook (a judge, a cross-check
 * against environment state) or the V3 hook (an authoritative human or domain system), registered on the
 * engine per level. It must not change the outside world.
 */
@FunctionalInterface
public interface VerificationHook {

  /** Judges {@code result} of a call of {@code tool}; never returns {@code null}. */
  Verdict verify(ToolDescriptor tool, Object result) throws Exception;
}
