package dev.hfr.bench.sim;

/**
 * What a simulated model or tool returns: which tier produced it, whether it is in truth correct, and
 * whether the (noisy) verifier will reject it — drawn when the result is produced, so the verification
 * is as reproducible as the result.
 */
public record SimResult(int tier, boolean correct, boolean verifierRejects) {}
