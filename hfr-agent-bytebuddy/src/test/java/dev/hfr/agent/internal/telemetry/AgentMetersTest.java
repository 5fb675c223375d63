package dev.hfr.agent.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.internal.record.Decision;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.classify.Classification;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AgentMetersTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AgentMeters meters = new AgentMeters(registry, "shadow");

  @Test
  @DisplayName("an attempt counts in harness.attempts with client, host, method, class, outcome, action and mode")
  void countsAttemptsWithBoundedTags() {
    Decision rateLimited = new Decision(new Classification(Fault.T2, 0.95, null, 1000, "http.429"), Risk.R0, Action.RETRY);
    meters.attempt("okhttp", "api.example.com", "GET", rateLimited, 5_000_000);
    meters.attempt("okhttp", "api.example.com", "GET", rateLimited, 7_000_000);
    meters.attempt("okhttp", "api.example.com", "GET", new Decision(Classification.success(), Risk.R0, null), 1_000_000);

    assertThat(registry.get(AgentMeters.ATTEMPTS)
        .tags("client", "okhttp", "host", "api.example.com", "method", "GET", "class", "T2", "outcome", "failure", "action", "retry", "mode", "shadow")
        .counter().count()).isEqualTo(2.0);
    assertThat(registry.get(AgentMeters.ATTEMPTS).tags("class", "none", "action", "none", "outcome", "success").counter().count()).isEqualTo(1.0);
    assertThat(registry.get(AgentMeters.CALL_DURATION).tags("client", "okhttp", "outcome", "failure").timer().count()).isEqualTo(2);
  }

  @Test
  @DisplayName("the stderr summary lists each client's successes and failures by class and action")
  void summaryLine() {
    assertThat(SummaryReporter.summary(meters)).isEqualTo("[hfr-agent] summary: no HTTP requests seen");
    meters.attempt("jdk-httpclient", "h", "GET", new Decision(Classification.success(), Risk.R0, null), 1);
    meters.attempt("jdk-httpclient", "h", "GET", new Decision(new Classification(Fault.T1, 0.9, null, -1, "http.5xx"), Risk.R0, Action.RETRY), 1);
    meters.attempt("okhttp", "h", "POST", new Decision(new Classification(Fault.T1, 0.9, null, -1, "http.5xx"), Risk.R2, Action.RECONCILE), 1);
    assertThat(SummaryReporter.summary(meters))
        .isEqualTo("[hfr-agent] summary: jdk-httpclient T1->retry 1, ok 1; okhttp T1->reconcile 1");
  }

  @Test
  @DisplayName("without a registry (no Prometheus endpoint) the summary still counts every attempt")
  void summaryWithoutARegistry() {
    AgentMeters own = new AgentMeters();
    own.attempt("okhttp", "h", "GET", new Decision(Classification.success(), Risk.R0, null), 1);
    own.attempt("okhttp", "h", "GET", new Decision(new Classification(Fault.T2, 0.95, null, 1000, "http.429"), Risk.R0, Action.RETRY), 1);
    own.eventDropped();
    assertThat(own.attempts()).isEqualTo(2);
    assertThat(own.eventsDropped()).isEqualTo(1);
    assertThat(SummaryReporter.summary(own)).isEqualTo("[hfr-agent] summary: okhttp T2->retry 1, ok 1");
  }
}
