package dev.hfr.runtime.config;

/** How a retry delay is drawn from the exponential bound {@code min(cap, base·2^(k-1))}. */
public enum Jitter {
  /** Uniform on {@code [0, bound]} (the paper's full jitter): spreads synchronized retries. */
  FULL,
  /** The bound itself: deterministic exponential backoff, for baselines and tests. */
  NONE
}
