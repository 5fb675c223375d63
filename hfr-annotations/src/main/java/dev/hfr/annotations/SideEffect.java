package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the side-effect risk of a tool method. Every public method of a processed class carries one:
 * the risk decides whether the runtime may retry, must reconcile first, or must never retry.
 *
 * <pre>{@code
 * @SideEffect(value = Risk.R2, reconcile = "findOrder")
 * public Order createOrder(String sku, int quantity) { ... }
 *
 * public Optional<Order> findOrder(String sku, int quantity) { ... }   // read-only by contract
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface SideEffect {

  /** The risk level of this method. */
  Risk value();

  /**
   * The name of a method of the same class that tells whether a write of this method committed. It takes
   * the same parameters and returns {@code Optional<R>} (R: this method's return type): present means
   * committed (with its result), empty means absent, an exception means still unknown. Required for R2.
   */
  String reconcile() default "";

  /**
   * The name of a method of the same class that undoes a committed write of this method. It is itself a
   * write and carries its own {@code @SideEffect}; it runs under its own idempotency key and audit record.
   */
  String compensate() default "";

  /** Whether every call needs an approval first; a denial is a policy refusal (T8) and is never bypassed. */
  boolean requiresApproval() default false;
}
