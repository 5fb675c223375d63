package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How much a failure of this method costs the task owner; on a method or its class (the method wins).
 * It sets the quality floor and which degradation levels may run without a human (Table 5), and sends
 * unclassified failures of HIGH methods straight to escalation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Criticality {

  /** The criticality level. */
  Level value();

  /** Criticality levels. */
  enum Level {
    /** Automatic degradation up to L4; quality floor 0.60. */
    LOW,
    /** Automatic degradation up to L3; quality floor 0.80. */
    MEDIUM,
    /** Automatic degradation up to L2 only; quality floor 0.92; unclassified failures escalate. */
    HIGH
  }
}
