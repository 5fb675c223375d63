package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A result is accepted only after verification at this level. A rejected result is a V1 fault: it is
 * retried only with new evidence, otherwise degraded or escalated — never silently accepted.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Verify {

  /** The verification level. */
  VerifyLevel level() default VerifyLevel.V1;

  /**
   * A class implementing {@code dev.hfr.runtime.verify.Verifier} for the method's result, with a public
   * no-argument constructor. {@code Void.class} (the default) selects the built-in check of the level.
   */
  Class<?> by() default Void.class;
}
