package dev.hfr.bench.workload;

/**
 * How the simulated write tool behaves where the paper does not say: the two modelling assumptions about
 * writes that move the headline figures most (see the "Modelling assumptions" section of the report).
 *
 * @param rejectedWritesCommit whether a write whose result the verifier rejects has already taken effect
 *     ({@code true}: the tool commits, then the result is judged — our stricter model) or not ({@code false}:
 *     the write's result is judged before it takes effect, so a rejected write left nothing behind — what
 *     the paper's figures imply: its FixedRetry3 DUP (17.47) matches its HFR − idempotency ΔDUP (17.68),
 *     so only timed-out writes were ever duplicated)
 * @param writeLadder whether the write tool may degrade to an equivalent alternative tool at L2 (Table 5:
 *     "same-tier alternative model/provider, or an equivalent tool"; §4.4 forbids only a "semantically
 *     approximate" substitute, and only for irreversible writes — so never to the cache)
 * @param writesReconcilable whether the write tool can be looked up by its business id (a reconcile method)
 *     and undone (a compensate method), as an R1 payment or creation API with an idempotency key can (Table
 *     7, §4.5): the engine then finds out whether a write whose result the verifier rejected took effect,
 *     undoes it if it did and retries it, which the paper's simulator does for every V1 ("RETRY with new
 *     evidence"); without them the engine escalates such a write, since it cannot tell. A lookup or an undo
 *     takes one primary-tool call's latency and cost.
 */
public record WriteModel(boolean rejectedWritesCommit, boolean writeLadder, boolean writesReconcilable) {

  /** The paper-consistent model: a rejected write did not commit; writes have the L2 alternative tool; reconcilable. */
  public static final WriteModel PAPER = new WriteModel(false, true, true);

  /** Our stricter model: a write commits before its result is judged; writes have no ladder; still reconcilable. */
  public static final WriteModel STRICT = new WriteModel(true, false, true);

  /** A short name for reports. */
  public String describe() {
    return (rejectedWritesCommit ? "rejected writes had committed" : "rejected writes did not commit") + ", "
        + (writeLadder ? "writes degrade to an equivalent tool (L2)" : "writes have no ladder") + ", "
        + (writesReconcilable ? "writes can be reconciled and compensated" : "writes can be neither reconciled nor compensated");
  }
}
