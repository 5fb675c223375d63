package dev.hfr.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OneArgumentCall;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.breaker.BreakerTransitionLog;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.InMemoryLedger;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The default decision log in production: a breaker that stays open in front of a thousand calls costs a few
 * INFO lines (its opening, one summary of the refusals), not a line per refused call; at DEBUG each is there.
 */
@DisplayName("Calls refused by an open breaker are summarised at INFO and logged one by one at DEBUG")
class DecisionLogLevelsTest {

  private static final ToolDescriptor DOWN = ToolDescriptor.builder("com.acme.Search", "find", Risk.R0).parameters("q")
      .retry(RetrySpec.of(1, 100, 1000, Fault.T1)).resultType(String.class).build();
  private static final int REFUSED = 1_000;

  private static final ToolInvocation<String> FAILING = OneArgumentCall.of("q", () -> {
    throw new HttpCallException(503, Map.of(), "{\"error\":{\"type\":\"service_unavailable\"}}");
  });

  /** Opens the breaker with one failed call, then makes {@link #REFUSED} calls it refuses. */
  private static void outage() {
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).config(HfrConfigLoader.parse(
        "hfr:\n  circuit_breaker:\n    consecutive_failures: 1\n    cooldown_ms: 600000\n", "hfr.yaml")).build()) {
      for (int i = 0; i <= REFUSED; i++) {
        catchThrowableOfType(ToolCallException.class, () -> hfr.execute(DOWN, FAILING));
      }
    }
  }

  @Test
  @DisplayName("at INFO: the breaker's opening once, and one summary counting the refused calls")
  void infoSummarises() {
    try (CapturedLogger decisions = CapturedLogger.at(Level.INFO);
        CapturedLogger breakers = CapturedLogger.of(BreakerTransitionLog.LOGGER_NAME, Level.INFO)) {
      List<LogRecord> transitions = breakers.records;
      outage();
      System.out.println("FIGURE decision log lines at INFO for " + REFUSED + " calls refused by an open breaker: "
          + decisions.records.size() + " (+ " + transitions.size() + " breaker line)");
      assertThat(decisions.records).as("a few lines, not one per refused call").hasSizeLessThan(10);
      assertThat(decisions.messages()).anySatisfy(m -> assertThat(m).contains(REFUSED + " circuit_open").contains("DEBUG"));
      assertThat(transitions).singleElement().satisfies(r -> assertThat(r.getMessage()).contains("opened"));
    }
  }

  @Test
  @DisplayName("at DEBUG: each refused call is its own event")
  void debugShowsEach() {
    try (CapturedLogger decisions = CapturedLogger.at(Level.FINE)) {
      outage();
      assertThat(decisions.messages().stream().filter(m -> m.contains("\"reason\":\"circuit_open\""))).hasSize(REFUSED);
    }
  }
}
