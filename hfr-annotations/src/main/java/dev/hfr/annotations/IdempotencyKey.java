package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the one {@code String} parameter of an {@link Idempotent} method through which the runtime passes
 * the idempotency key. A caller may pass {@code null}; the runtime then supplies the ledger's key.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface IdempotencyKey {}
