package dev.hfr.runtime.ledger;

import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ledger.internal.LedgerRules;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Idempotency keys and argument hashes (DESIGN.md §3, paper §4.5):
 *
 * <pre>k = SHA-256("hfr-idempotency-key-v2" ‖ tenant ‖ task ‖ tool ‖ canonical(args) ‖ occurrence)</pre>
 *
 * <p>{@code occurrence} counts the earlier writes of the same tool with the same canonical arguments in
 * the task (0 for the first). Unlike a global step number it does not move when a replay inserts a read,
 * re-plans, or runs independent writes in another order or concurrently: each write keeps its key, so a
 * re-run finds its earlier ledger record. An agent that numbers its own steps passes a step id instead
 * ({@link #keyForStep}, tag {@code hfr-idempotency-key-v2-step}), which replaces the occurrence.
 *
 * <p>Every text field is written as its UTF-8 length (4 bytes, big-endian) followed by its bytes, and the
 * occurrence as 4 bytes, after the version tag; so concatenation is unambiguous: tenant {@code "ab"} +
 * task {@code "c"} and tenant {@code "a"} + task {@code "bc"} give different keys. The arguments enter
 * through their {@link Canonical} form, so arguments with the same content give the same key however
 * they were built. Keys are lower-case hex, 64 characters. Thread-safe.
 *
 * <p>Tenant, task id and step id are checked on entry ({@code LedgerRules.checkId}: not blank, at most
 * 256 chars, no control characters, no lone surrogates), so that no two different ids hash alike.
 *
 * <p>Ledgers written before version 2 keyed writes by the task's global step number ({@link
 * #legacyStepKey}, tag {@code hfr-idempotency-key-v1}); the engine still finds those records (see
 * docs/LEDGER.md, "Keys").
 */
public final class IdempotencyKeys {

  private static final byte[] KEY_TAG = "hfr-idempotency-key-v2".getBytes(StandardCharsets.UTF_8);
  private static final byte[] STEP_KEY_TAG = "hfr-idempotency-key-v2-step".getBytes(StandardCharsets.UTF_8);
  private static final byte[] LEGACY_KEY_TAG = "hfr-idempotency-key-v1".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ARGS_TAG = "hfr-args-v1".getBytes(StandardCharsets.UTF_8);
  private static final HexFormat HEX = HexFormat.of();

  private IdempotencyKeys() {}

  /**
   * The idempotency key of one logical write.
   *
   * @param canonicalArgs the call's arguments (without the {@code @IdempotencyKey} parameter itself);
   *     reduced to their {@link Canonical} form here
   * @param occurrence how many writes of {@code tool} with the same canonical arguments the task made
   *     before this one (0 for the first)
   * @throws CanonicalFormException if an argument has no canonical form
   */
  public static String key(String tenant, String taskId, String tool, List<?> canonicalArgs, int occurrence) {
    if (occurrence < 0) {
      throw new IllegalArgumentException("occurrence must be >= 0, was " + occurrence);
    }
    MessageDigest sha = start(KEY_TAG, tenant, taskId, tool, canonicalArgs);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(occurrence).array());
    return HEX.formatHex(sha.digest());
  }

  /**
   * The key of a write whose step the caller names ({@code TaskScope.step}): the step id takes the place
   * of the occurrence, so the same step id, tool and arguments give the same key in any run.
   *
   * @throws IllegalArgumentException if {@code stepId} is blank
   */
  public static String keyForStep(String tenant, String taskId, String stepId, String tool, List<?> canonicalArgs) {
    Objects.requireNonNull(stepId, "stepId");
    if (stepId.isBlank()) {
      throw new IllegalArgumentException("stepId must not be blank");
    }
    LedgerRules.checkId(stepId, "stepId", LedgerRules.MAX_NAME);
    MessageDigest sha = start(STEP_KEY_TAG, tenant, taskId, tool, canonicalArgs);
    field(sha, stepId);
    return HEX.formatHex(sha.digest());
  }

  /**
   * The key version 1 gave the write at global step {@code step} (1, 2, ... over every call of the
   * task): {@code SHA-256("hfr-idempotency-key-v1" ‖ tenant ‖ task ‖ step ‖ tool ‖ canonical(args))}.
   * Only for finding records written before version 2.
   */
  public static String legacyStepKey(String tenant, String taskId, long step, String tool, List<?> canonicalArgs) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(canonicalArgs, "canonicalArgs");
    LedgerRules.checkId(tenant, "tenant", LedgerRules.MAX_NAME);
    LedgerRules.checkId(taskId, "taskId", LedgerRules.MAX_NAME);
    MessageDigest sha = sha256();
    sha.update(LEGACY_KEY_TAG);
    field(sha, tenant);
    field(sha, taskId);
    sha.update(ByteBuffer.allocate(Long.BYTES).putLong(step).array());
    field(sha, tool);
    field(sha, Canonical.of(canonicalArgs));
    return HEX.formatHex(sha.digest());
  }

  private static MessageDigest start(byte[] tag, String tenant, String taskId, String tool, List<?> canonicalArgs) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(canonicalArgs, "canonicalArgs");
    LedgerRules.checkId(tenant, "tenant", LedgerRules.MAX_NAME);
    LedgerRules.checkId(taskId, "taskId", LedgerRules.MAX_NAME);
    MessageDigest sha = sha256();
    sha.update(tag);
    field(sha, tenant);
    field(sha, taskId);
    field(sha, tool);
    field(sha, Canonical.of(canonicalArgs));
    return sha;
  }

  /** Hex SHA-256 of the arguments' canonical form: what the ledger stores instead of the arguments. */
  public static String argsHash(List<?> args) {
    Objects.requireNonNull(args, "args");
    MessageDigest sha = sha256();
    sha.update(ARGS_TAG);
    field(sha, Canonical.of(args));
    return HEX.formatHex(sha.digest());
  }

  /** Hex SHA-256 of a result's canonical form: the evidence a COMMITTED record keeps. */
  public static String resultHash(Object result) {
    MessageDigest sha = sha256();
    field(sha, Canonical.of(result));
    return HEX.formatHex(sha.digest());
  }

  /**
   * The arguments of {@code invocation} that identify the write: all of them except the
   * {@code @IdempotencyKey} parameter (which the runtime fills in, so it is not part of the intent).
   */
  public static List<Object> arguments(ToolDescriptor tool, ToolInvocation<?> invocation) {
    int n = invocation.argumentCount();
    List<Object> args = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (i != tool.idempotencyKeyParameter()) {
        args.add(invocation.argument(i));
      }
    }
    return Collections.unmodifiableList(args);
  }

  private static void field(MessageDigest sha, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    // The length prefix, big-endian, written byte by byte (no buffer per field).
    int n = bytes.length;
    sha.update((byte) (n >>> 24));
    sha.update((byte) (n >>> 16));
    sha.update((byte) (n >>> 8));
    sha.update((byte) n);
    sha.update(bytes);
  }

  private static MessageDigest sha256() {
    // Cloning a fresh digest skips the provider lookup of getInstance on every hash.
    if (SHA256_PROTOTYPE != null) {
      try {
        return (MessageDigest) SHA256_PROTOTYPE.clone();
      } catch (CloneNotSupportedException notCloneable) {
        // Fall through to a lookup.
      }
    }
    return newSha256();
  }

  private static final MessageDigest SHA256_PROTOTYPE = newSha256();

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }
}
