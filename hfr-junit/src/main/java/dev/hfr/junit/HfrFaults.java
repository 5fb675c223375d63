package dev.hfr.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Turns on HFR fault injection for a test class or method: registers {@link HfrFaultExtension}, which
 * gives test methods an {@code Hfr} on virtual time and an in-memory ledger, and the
 * {@code RecoveryEngine} to hand the generated proxies (it injects the {@link InjectFault} faults). A
 * test method with an {@code @InjectFault} needs no {@code @HfrFaults}; put it on the class so that every
 * test method gets the parameters.
 *
 * <p>It is deliberately not the container of {@code @InjectFault}: JUnit does not look for
 * {@code @ExtendWith} on the meta-annotations of repeatable-annotation containers.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@ExtendWith(HfrFaultExtension.class)
public @interface HfrFaults {}
