package dev.hfr.runtime.ledger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The idempotency key of a compensation (§4.5: "the compensation itself needs an idempotency key and an
 * audit record"): {@code SHA-256("hfr-compensation-key-v1" ‖ len(k) k)} of the original write's key
 * {@code k}, as 64 lower-case hex characters.
 *
 * <p>Derived from the original key alone, so every request to undo one write — a retry, another JVM,
 * a run after a crash — finds the same compensation record and never applies the compensation twice.
 * The version tag keeps it apart from every {@link IdempotencyKeys#key} of a call.
 */
public final class CompensationKeys {

  private static final byte[] TAG = "hfr-compensation-key-v1".getBytes(StandardCharsets.UTF_8);

  private CompensationKeys() {}

  /**
   * The compensation key of the write whose key is {@code originalKey}.
   *
   * @throws IllegalArgumentException if {@code originalKey} is blank
   */
  public static String of(String originalKey) {
    Objects.requireNonNull(originalKey, "originalKey");
    if (originalKey.isBlank()) {
      throw new IllegalArgumentException("originalKey must not be blank");
    }
    byte[] key = originalKey.getBytes(StandardCharsets.UTF_8);
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
    sha.update(TAG);
    int n = key.length;
    sha.update(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
    sha.update(key);
    return HexFormat.of().formatHex(sha.digest());
  }
}
