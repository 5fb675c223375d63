package dev.hfr.annotations;

/** How a result is accepted before the caller sees it (the paper's Table 8). */
public enum VerifyLevel {
  /** Transport: the call returned, the result is non-null and of the declared type. Cheap; always applies. */
  V0,
  /** Deterministic: a verifier checks required fields, exit codes, tests; it gives a reason on rejection. */
  V1,
  /** Semantic: a judge or a cross-check against environment state; costly, for natural-language or complex output. */
  V2,
  /** Authoritative: a human or domain expert approves; for high-stakes and irreversible operations. */
  V3
}
