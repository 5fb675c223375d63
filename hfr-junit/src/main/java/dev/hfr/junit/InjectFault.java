package dev.hfr.junit;

import dev.hfr.annotations.Fault;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fails chosen physical calls of an HFR-managed tool with a chosen F2D-9 fault, below the engine — so the
 * engine sees the failure exactly as it would see it in production and recovers (or refuses to) by the
 * tool's declared risk. On a test method or class; repeat it for several faults.
 *
 * <pre>{@code
 * @Test
 * @InjectFault(tool = "ShopTools.createOrder", call = 1, fault = Fault.T3, commitThenDrop = true)
 * void aLostResponseIsReconciledNotRepeated(RecoveryEngine engine, Hfr hfr) { ... }
 * }</pre>
 *
 * What each fault looks like on the wire: T1 503, T2 429 with {@code Retry-After}, T3 a read timeout,
 * T4 529 {@code overloaded_error}, T5 404 {@code unknown_tool}, T6 400 {@code context_length_exceeded},
 * T7 403, T8 400 {@code content_policy_violation}, UNCLASSIFIED an exception with no signal. V1 is a
 * verifier's verdict, not a transport failure, and cannot be injected here.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Repeatable(InjectFault.List.class)
@ExtendWith(HfrFaultExtension.class)
public @interface InjectFault {

  /** The tool's HFR name, {@code SimpleClassName.method} (as in {@code ToolDescriptor.name()}). */
  String tool();

  /** The first physical call (attempts included, counted from 1 within the test) that fails. */
  int call() default 1;

  /** How many consecutive physical calls fail, starting at {@link #call()}. */
  int times() default 1;

  /** The fault injected. */
  Fault fault();

  /**
   * Let the call reach the tool (a write commits) and then lose its answer: the engine sees {@link #fault()}
   * although the side effect happened — the case idempotency keys and reconciliation exist for.
   */
  boolean commitThenDrop() default false;

  /** The {@code Retry-After} of an injected T2, in seconds. */
  int retryAfterSeconds() default 1;

  /** The container of repeated {@code @InjectFault}. */
  @Documented
  @Retention(RetentionPolicy.RUNTIME)
  @Target({ElementType.METHOD, ElementType.TYPE})
  @ExtendWith(HfrFaultExtension.class)
  @interface List {
    InjectFault[] value();
  }
}
