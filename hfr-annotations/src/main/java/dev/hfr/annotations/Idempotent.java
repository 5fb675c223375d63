package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The method honours an idempotency key: the service commits at most one side effect per key. The
 * runtime creates the key before the first attempt, makes it durable in the ledger, and passes the same
 * key on every retry through the parameter marked {@link IdempotencyKey}. Required for {@link Risk#R1}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Idempotent {}
