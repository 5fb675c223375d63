package dev.hfr.runtime.internal.telemetry;

import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import java.util.ArrayList;
import java.util.List;

/**
 * Hashes of arguments and results for events and ledger records, over the ledger's canonical form
 * ({@link IdempotencyKeys#argsHash}): the same content always gives the same hash, and nothing raw is
 * ever recorded. A value the canonical form cannot read is hashed by its type name only, so hashing can
 * never fail a call.
 */
public final class Hashes {

  private Hashes() {}

  /** SHA-256 of the invocation's arguments, leaving out the idempotency-key parameter at {@code keyParameter}. */
  public static String arguments(ToolInvocation<?> invocation, int keyParameter) {
    return IdempotencyKeys.argsHash(canonicalArguments(invocation, keyParameter));
  }

  /**
   * The arguments the idempotency key is derived from: every argument except the key parameter itself
   * (the key cannot be an input of its own derivation).
   */
  public static List<Object> canonicalArguments(ToolInvocation<?> invocation, int keyParameter) {
    int n = invocation.argumentCount();
    List<Object> args = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (i != keyParameter) {
        args.add(invocation.argument(i));
      }
    }
    return args;
  }

  /** SHA-256 of a result, or {@code null} for a {@code null} result. */
  public static String result(Object result) {
    if (result == null) {
      return null;
    }
    List<Object> one = new ArrayList<>(1);
    one.add(result);
    try {
      return IdempotencyKeys.argsHash(one);
    } catch (RuntimeException unreadable) {
      one.set(0, "type:" + result.getClass().getName());
      return IdempotencyKeys.argsHash(one);
    }
  }
}
