package dev.hfr.runtime.internal.engine;

import java.util.HashMap;
import java.util.Map;

/**
 * The occurrence part of a write's idempotency key: how many writes of the same tool with the same
 * canonical arguments the task made before (0 for the first). Kept per task; reads never count, so an
 * inserted read, a re-plan or concurrent independent writes leave every key where it was. Thread-safe.
 */
final class WriteOccurrences {

  private final Map<String, Integer> seen = new HashMap<>();

  /** The occurrence of the next write of {@code tool} with arguments hashed to {@code argsHash}. */
  synchronized int next(String tool, String argsHash) {
    // The args hash is fixed-length hex, so the separator cannot make two pairs collide.
    Integer before = seen.merge(tool + '|' + argsHash, 1, Integer::sum);
    return before - 1;
  }
}
