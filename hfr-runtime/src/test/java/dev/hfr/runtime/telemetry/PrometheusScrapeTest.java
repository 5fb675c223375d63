package dev.hfr.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.time.VirtualTime;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The meters in a Prometheus scrape")
class PrometheusScrapeTest {

  private static final ToolDescriptor MODEL = ToolDescriptor.builder("com.acme.Llm", "complete", Risk.R0)
      .parameters("prompt").retry(RetrySpec.of(4, 10, 100, Fault.T1, Fault.T2, Fault.T3)).resultType(String.class)
      .degradeTo("completeWithBackup", DegradeLevel.L2, Risk.R0).build();

  private static final ToolDescriptor ORDER = ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2)
      .parameters("sku").reconcile("findOrder").resultType(String.class).build();

  private static final ToolDescriptor SHORT = ToolDescriptor.builder("com.acme.Search", "search", Risk.R0)
      .parameters("q").retry(RetrySpec.of(2, 10, 100, Fault.T1)).resultType(String.class).build();

  private static final ToolDescriptor MAIL = ToolDescriptor.builder("com.acme.Mail", "send", Risk.R3)
      .parameters("to").resultType(String.class).build();

  /** Fails {@code failures} times with {@code error}, then answers; rung 0 answers "backup". */
  static final class Call extends ToolInvocation<String> {
    private final RuntimeException error;
    private int failures;

    Call(RuntimeException error, int failures) {
      this.error = error;
      this.failures = failures;
    }

    @Override
    public String proceed(String key) {
      if (failures-- > 0) {
        throw error;
      }
      return "ok";
    }

    @Override
    public String degrade(int index) {
      return "backup";
    }

    @Override
    public Optional<String> reconcile() {
      return Optional.of("order-1");
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return "x";
    }
  }

  @Test
  @DisplayName("exports harness.attempts as harness_attempts_total with bounded tags, and the other §5.5 meters")
  void scrape() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    VirtualTime time = new VirtualTime();
    Hfr hfr = Hfr.builder().clock(time).sleeper(time).seed(1).ledger(new InMemoryLedger(time)).meterRegistry(registry)
        .decisionSink(DecisionSink.discarding()).build();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "demo").build())) {
      hfr.execute(MODEL, new Call(new HttpCallException(503, Map.of(), "{}"), 2));
      hfr.execute(MODEL, new Call(new HttpCallException(529, Map.of(),
          "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}"), 1));
      hfr.execute(ORDER, new Call(new java.io.UncheckedIOException(new java.net.http.HttpTimeoutException("timed out")), 1));
      RuntimeException unavailable = new HttpCallException(503, Map.of(), "{}");
      assertThatThrownBy(() -> hfr.execute(SHORT, new Call(unavailable, 5))).isInstanceOf(ToolCallException.class);
      RuntimeException timeout = new java.io.UncheckedIOException(new java.net.http.HttpTimeoutException("timed out"));
      assertThatThrownBy(() -> hfr.execute(MAIL, new Call(timeout, 1))).isInstanceOf(ToolCallException.class);
      assertThat(task.report().calls()).isEqualTo(5);
    }
    String scrape = registry.scrape();
    System.out.println(scrape);
    assertThat(scrape).contains(
        "harness_attempts_total{class=\"T1\",outcome=\"failure\",tool=\"Llm.complete\"} 2.0",
        "harness_attempts_total{class=\"none\",outcome=\"success\",tool=\"Llm.complete\"} 2.0",
        "harness_degradation_total{level=\"L2\",reason=\"T4\",tool=\"Llm.complete\"} 1.0",
        "harness_reconcile_total{outcome=\"committed\",tool=\"Orders.createOrder\"} 1.0",
        "harness_decisions_total{action=\"retry\",mode=\"enforce\",tool=\"Llm.complete\"} 2.0",
        "harness_circuit_state{target=\"Llm.complete\",tenant=\"acme\"} 0.0",
        "harness_call_duration_seconds_count{degraded=\"true\",status=\"success\",tool=\"Llm.complete\"} 1",
        "harness_calls_total{tool=\"Llm.complete\"} 2.0",
        // 3 attempts for the 503s, then one 529 and its L2 rung: 5 attempts for 2 calls.
        "harness_retry_amplification{tool=\"Llm.complete\"} 2.5");
    assertThat(scrape).doesNotContain("acme\",tool").doesNotContain("demo");
    List.of("harness_attempts_total", "harness_duplicate_side_effects_total", "harness_retry_budget_exhausted_total",
        "harness_escalations_total", "harness_degradation_quality_delta")
        .forEach(name -> assertThat(scrape).contains("# HELP " + name));
  }
}
