package dev.hfr.spring.boot.actuate;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitState;
import dev.hfr.runtime.ledger.PostgresLedger;
import java.util.List;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * HFR's health: DOWN when the idempotency ledger cannot be read (writes would fail closed), otherwise UP, with the
 * mode and the open breakers as details. An open breaker is a downstream tool's trouble that HFR is handling, so it
 * is reported, not turned into this application's DOWN.
 */
public class HfrHealthIndicator extends AbstractHealthIndicator {

  /** A key no call ever writes (real keys are SHA-256 hex): reading it proves the ledger answers. */
  static final String PROBE_KEY = "hfr-health-probe";

  private final Hfr hfr;

  public HfrHealthIndicator(Hfr hfr) {
    super("HFR health check failed");
    this.hfr = hfr;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    if (hfr.ledger() instanceof PostgresLedger pg && !pg.available()) {
      // Reads go on; writes are refused until the database answers, and the ledger asks again by itself.
      builder.down()
          .withDetail("mode", hfr.mode().name())
          .withDetail("ledger", "PostgresLedger")
          .withDetail("ledgerAvailable", false)
          .withDetail("writes", "refused (ledger_unavailable) until the database answers; reads go on");
      return;
    }
    hfr.ledger().find(Hfr.DEFAULT_TENANT, PROBE_KEY);
    List<String> open = hfr.circuitBreakers()
        .map(b -> b.all().stream().filter(c -> c.state() != CircuitState.CLOSED).map(HfrHealthIndicator::describe).toList())
        .orElse(List.of());
    builder.up()
        .withDetail("mode", hfr.mode().name())
        .withDetail("ledger", hfr.ledger().getClass().getSimpleName())
        .withDetail("openBreakers", open);
  }

  private static String describe(CircuitBreaker b) {
    return b.kind() + " " + b.name() + " " + b.state();
  }
}
