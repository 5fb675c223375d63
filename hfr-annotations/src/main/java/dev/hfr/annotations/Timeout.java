package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Bounds each attempt of a method (on a method or its class; the method wins). The attempt runs on the
 * caller's thread; when the time is up it is interrupted and abandoned if it does not stop. A timed-out
 * read is a T3 and retried under the usual rules; a timed-out write has an unknown outcome: it is
 * reconciled before anything else and never resent blindly. The task's deadline shortens the timeout
 * when less time remains. YAML {@code timeout_ms} per tool or tenant overrides it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Timeout {

  /** The longest one attempt may take, in milliseconds; at least 1. */
  long ms();
}
