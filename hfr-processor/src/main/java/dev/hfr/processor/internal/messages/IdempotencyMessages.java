package dev.hfr.processor.internal.messages;

/** Rule 4 (idempotent writes and their key) and the idempotency warnings. */
public final class IdempotencyMessages {

  /** Rule 4: R1 is {@code @Idempotent} with exactly one {@code @IdempotencyKey String} parameter. */
  public static final String IDEMPOTENCY_KEY = "hfr/idempotency-key";
  /** Warning: {@code @Idempotent} on a read-only method. */
  public static final String IDEMPOTENT_READ = "hfr/idempotent-read";
  /** Warning: {@code @Idempotent} on an R2 or R3 write. */
  public static final String IDEMPOTENT_WRITE = "hfr/idempotent-write";
  /** Warning: {@code @IdempotencyKey} on a method that is not {@code @Idempotent}. */
  public static final String KEY_WITHOUT_IDEMPOTENT = "hfr/key-without-idempotent";

  private IdempotencyMessages() {}

  public static String r1WithoutIdempotent(String method) {
    return "[" + IDEMPOTENCY_KEY + "] " + method + " is R1 (idempotent write) but not @Idempotent: add"
        + " @Idempotent and a String parameter marked @IdempotencyKey, or declare R2 with a reconcile method";
  }

  public static String noKey(String method) {
    return "[" + IDEMPOTENCY_KEY + "] " + method + " is @Idempotent but has no @IdempotencyKey parameter:"
        + " add a String parameter marked @IdempotencyKey; the runtime passes the same key on every attempt";
  }

  public static String severalKeys(String method, int count) {
    return "[" + IDEMPOTENCY_KEY + "] " + method + " has " + count + " @IdempotencyKey parameters: keep"
        + " exactly one";
  }

  public static String keyNotString(String method, String parameter, String type) {
    return "[" + IDEMPOTENCY_KEY + "] @IdempotencyKey parameter " + parameter + " of " + method + " is "
        + type + ": make it a String";
  }

  public static String idempotentRead(String method) {
    return "[" + IDEMPOTENT_READ + "] " + method + " is R0 (read-only), which is idempotent already:"
        + " remove @Idempotent";
  }

  public static String idempotentWrite(String method, String risk) {
    return "[" + IDEMPOTENT_WRITE + "] " + method + " is @Idempotent but declared " + risk + ": if the"
        + " service commits at most one effect per key, declare R1 so failures are retried with the key;"
        + " otherwise remove @Idempotent";
  }

  public static String keyWithoutIdempotent(String method) {
    return "[" + KEY_WITHOUT_IDEMPOTENT + "] " + method + " has an @IdempotencyKey parameter but is not"
        + " @Idempotent, so the runtime passes no key: add @Idempotent or remove @IdempotencyKey";
  }
}
