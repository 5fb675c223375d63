package dev.hfr.annotations;

/**
 * A rung of the degradation ladder (the paper's Table 5). Higher rungs trade quality for availability
 * and need stricter verification.
 */
public enum DegradeLevel {
  /** No degradation: the normal path. */
  L0,
  /** Compressed context or narrower retrieval; allowed automatically at every criticality; verified at V1. */
  L1,
  /** An equivalent alternative model, provider or tool; allowed at every criticality; verified at V1/V2. */
  L2,
  /** A smaller or cheaper model, or a narrower task; automatic only for LOW and MEDIUM criticality; verified at V2. */
  L3,
  /** A deterministic fallback (cache, template, partial result) or a human; automatic only for LOW criticality. */
  L4
}
