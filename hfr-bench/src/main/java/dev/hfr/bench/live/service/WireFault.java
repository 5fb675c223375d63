package dev.hfr.bench.live.service;

/**
 * The faults of the paper's Table 16 that the live services inject on the wire, each answered exactly the
 * way a real provider or service answers it.
 */
public enum WireFault {
  /** No fault: a normal answer. */
  NONE,
  /** 429 with {@code retry-after} (seconds) and {@code retry-after-ms}. */
  RATE_LIMITED,
  /** 500 internal server error. */
  SERVER_ERROR,
  /** 502 bad gateway. */
  BAD_GATEWAY,
  /** 503 service unavailable. */
  UNAVAILABLE,
  /** The response is held past the client's timeout; nothing is committed. */
  TIMEOUT,
  /** The connection is closed without a response; nothing is committed. */
  DROP,
  /** A write commits, then the response is held past the client's timeout. */
  COMMIT_THEN_TIMEOUT,
  /** A write commits, then the connection is closed without a response. */
  COMMIT_THEN_DROP,
  /** 529 {@code overloaded_error} (a model provider under load). */
  OVERLOADED,
  /** 400 {@code context_length_exceeded}. */
  CONTEXT_LENGTH,
  /** 400 {@code content_filter}: a safety refusal. */
  CONTENT_FILTER,
  /** 200 whose body misses a required field (a malformed tool call / schema mismatch). */
  SCHEMA_MISMATCH,
  /** 404 {@code unknown_tool}. */
  UNKNOWN_TOOL,
  /** 403 permission denied. */
  FORBIDDEN,
  /** 507 insufficient storage (disk full). */
  DISK_FULL,
  /** 200, well-formed, wrong: plausible but incorrect content (stale cache, wrong answer). */
  WRONG_BUT_PLAUSIBLE,
  /** A write commits, then answers 2xx with a receipt that names no order (a wrong answer to a done write). */
  COMMIT_THEN_WRONG_RECEIPT,
  /** A write answers 2xx with a receipt that names no order, and commits nothing. */
  WRONG_RECEIPT_NOTHING_COMMITTED;

  /** Faults that persist on the same endpoint for the same task: retrying does not make them go away. */
  public boolean sticky() {
    return this == FORBIDDEN || this == UNKNOWN_TOOL || this == CONTENT_FILTER || this == OVERLOADED;
  }
}
