package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * One rung of the method's degradation ladder. Repeat it to build the ladder: rungs are tried in the
 * order written, with strictly ascending levels. The target is a method of the same class with parameters
 * the source's arguments can be passed to and a compatible return type; its result is marked degraded
 * and verified like the source's. A policy refusal (T8) is never degraded around.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(Degrade.List.class)
public @interface Degrade {

  /** The name of the method to call instead. */
  String to();

  /** The ladder level of this rung. */
  DegradeLevel level() default DegradeLevel.L2;

  /** The container of repeated {@code @Degrade}. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  @interface List {
    Degrade[] value();
  }
}
