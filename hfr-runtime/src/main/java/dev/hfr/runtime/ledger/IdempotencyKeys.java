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
 * Idempotency keys and argument hashes (paper §4.5):
 *
 * <pre>k = SHA-256(tenant ‖ task ‖ step ‖ tool ‖ canonical(args))</pre>
 *
 * <p>Every text field is written as its UTF-8 length (4 bytes, big-endian) followed by its bytes, and the
 * step as 8 bytes, after a version tag; so concatenation is unambiguous: tenant {@code "ab"} + task {@code
 * "c"} and tenant {@code "a"} + task {@code "bc"} give different keys. The arguments enter through their
 * {@link Canonical} form, so arguments with the same content give the same key however they were built.
 *
 * <p>Tenant and task id are checked on entry ({@code LedgerRules.checkId}: not blank, at most 256 chars,
 * no control characters, no lone surrogates), so that no two different ids hash alike.
 *
 * <p>The same logical action (same tenant, task, step, tool and arguments) always gets the same key: a
 * retry, or a re-run of the task after a crash, finds its earlier ledger record. Keys are lower-case hex,
 * 64 characters. Thread-safe.
 */
public final class IdempotencyKeys {

  private static final byte[] KEY_TAG = "hfr-idempotency-key-v1".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ARGS_TAG = "hfr-args-v1".getBytes(StandardCharsets.UTF_8);
  private static final HexFormat HEX = HexFormat.of();

  private IdempotencyKeys() {}

  /**
   * The idempotency key of one logical write.
   *
   * @param canonicalArgs the call's arguments (without the {@code @IdempotencyKey} parameter itself);
   *     reduced to their {@link Canonical} form here
   * @throws CanonicalFormException if an argument has no canonical form
   */
  public static String key(String tenant, String taskId, long step, String tool, List<?> canonicalArgs) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(canonicalArgs, "canonicalArgs");
    LedgerRules.checkId(tenant, "tenant", LedgerRules.MAX_NAME);
    LedgerRules.checkId(taskId, "taskId", LedgerRules.MAX_NAME);
    MessageDigest sha = sha256();
    sha.update(KEY_TAG);
    field(sha, tenant);
    field(sha, taskId);
    sha.update(ByteBuffer.allocate(Long.BYTES).putLong(step).array());
    field(sha, tool);
    field(sha, Canonical.of(canonicalArgs));
    return HEX.formatHex(sha.digest());
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
