package dev.hfr.bench.live;

import java.util.List;

/**
 * What the breaker scenarios measured ({@link BreakerScenarios}).
 *
 * @param tasks orders per transient run
 * @param threads callers of a transient run
 * @param outageSeconds how long the order service was down
 * @param outageThreads callers during the outage
 * @param wallSeconds how long the scenarios took
 */
public record BreakerResults(long seed, int tasks, int threads, long outageSeconds, int outageThreads,
    List<Transient> transients, List<Outage> outages, List<Rejected> rejected, double wallSeconds) {

  /**
   * One run of orders whose receipt is sometimes wrong (the verifier rejects it).
   *
   * @param committed whether the order was placed before the wrong receipt was sent
   * @param failureRate the chance that a {@code POST /orders} answers a wrong receipt
   * @param accepted orders the caller got an accepted receipt for
   * @param escalated orders handed to a person
   * @param standing orders standing at the end (placed and not cancelled)
   * @param duplicates references with more than one standing order
   * @param cancelled orders cancelled (compensations)
   * @param requests requests the order service received (places, lookups, cancellations)
   */
  public record Rejected(boolean committed, double failureRate, String strategy, int tasks, int accepted, int escalated,
      int standing, int duplicates, int cancelled, int requests) {}

  /**
   * One transient run.
   *
   * @param failureRate the chance that a {@code POST /orders} fails with a 500 before committing
   * @param succeeded orders the caller got a receipt for
   * @param duplicates orders the service created more than once for one reference
   * @param requests requests the order service received (creates and lookups)
   * @param breakerStops attempts HFR did not make because the breaker was open
   */
  public record Transient(double failureRate, String strategy, int tasks, int succeeded, int duplicates, int requests,
      int breakerStops) {}

  /**
   * The outage run of one strategy.
   *
   * @param calls orders attempted during the outage
   * @param requests requests the order service received during it
   * @param requestsFirst2s of those, in the outage's first two seconds
   * @param requestsAfter2s of those, later (for HFR: the breaker's half-open probes)
   * @param lastRequestSeconds when, after the outage began, the service last heard from the client
   * @param p50CallMillis median duration of a call
   * @param p95CallMillis 95th percentile duration of a call
   */
  public record Outage(String strategy, int calls, int succeeded, int requests, int requestsFirst2s, int requestsAfter2s,
      double lastRequestSeconds,
      double p50CallMillis, double p95CallMillis, int breakerStops) {}
}
