package dev.hfr.runtime.internal.engine;

import java.util.HashMap;
import java.util.Map;

/**
 * The occurrence part of a write's idempotency key: which logical write of the same tool with the same
 * canonical arguments this is in the task (0 for the first). A call repeating an earlier write whose outcome
 * may stand (a model calling a tool again) keeps that write's occurrence and so its key; only a write after
 * one that provably did not happen starts a new occurrence ({@link WriteClaims#key}). Kept per task; reads
 * never count, so an inserted read, a re-plan or concurrent independent writes leave every key where it was.
 * Thread-safe.
 */
final class WriteOccurrences {

  private final Map<String, Integer> latest = new HashMap<>();

  /** The occurrence of the task's latest write of {@code tool} with arguments hashed to {@code argsHash}, or -1. */
  synchronized int latest(String tool, String argsHash) {
    // The args hash is fixed-length hex, so the separator cannot make two pairs collide.
    Integer n = latest.get(tool + '|' + argsHash);
    return n == null ? -1 : n;
  }

  /**
   * Starts the write after occurrence {@code after} (-1: the first) and returns its occurrence; when another
   * call of the task started one meanwhile, that one is the same logical write and its occurrence is returned.
   */
  synchronized int startAfter(String tool, String argsHash, int after) {
    return latest.compute(tool + '|' + argsHash, (k, n) -> n == null || n <= after ? after + 1 : n);
  }
}
