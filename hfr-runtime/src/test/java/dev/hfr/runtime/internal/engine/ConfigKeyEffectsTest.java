package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The keys issue 12 wired, each proven by what the engine does with it (one scenario run with the key,
 * compared with the default). {@code ConfigKeyCoverageTest} checks that every key of the schema names a
 * test like these.
 */
@DisplayName("Each configuration key changes what the engine does")
class ConfigKeyEffectsTest {

  private final Fixtures f = new Fixtures();

  private Hfr engine(String hfrSection) {
    return f.builder().config(HfrConfigLoader.parse("hfr:\n" + hfrSection.indent(2), "hfr.yaml")).build();
  }

  private List<DecisionEvent> retries() {
    return f.sink.events.stream().filter(e -> e.action() == Action.RETRY).toList();
  }

  @Test
  @DisplayName("idempotency.enabled: false — a write gets no ledger record; an ambiguous failure is still never resent")
  void idempotencyDisabled() {
    Hfr hfr = engine("idempotency:\n  enabled: false");
    ScriptedTool<String> create = new ScriptedTool<String>("sku-1").returns("order-1");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      assertThat(hfr.execute(Fixtures.queryableWrite(), create)).isEqualTo("order-1");
      assertThat(task.committedWrites()).isEmpty();
    }
    assertThat(f.ledger.size()).isZero();

    ScriptedTool<String> send = new ScriptedTool<String>("bob").fails(Fixtures.http(500, "")).returns("sent");
    Throwable thrown = catchThrowable(() -> hfr.execute(Fixtures.irreversible(), send));
    assertThat(thrown).isInstanceOf(OutcomeUnknownException.class);
    assertThat(send.methodCalls).isEqualTo(1);
  }

  @Test
  @DisplayName("verification.human_spot_check_rate: 1.0 hands every accepted result to the escalation handler; 0 none")
  void humanSpotCheckRate() {
    Hfr sampled = engine("verification:\n  human_spot_check_rate: 1.0");
    assertThat(sampled.execute(Fixtures.read("search"), new ScriptedTool<String>("q").returns("hits"))).isEqualTo("hits");
    try (TaskScope task = sampled.openTask(TaskSpec.builder("acme", "t-2").build())) {
      sampled.execute(Fixtures.queryableWrite(), new ScriptedTool<String>("sku-2").returns("order-2"));
    }
    List<EvidenceBundle> checks = f.escalations.drain();
    assertThat(checks).hasSize(2).allMatch(e -> e.reason() == Reason.HUMAN_SPOT_CHECK);
    assertThat(checks.get(1).taskId()).isEqualTo("t-2");

    Hfr none = engine("verification:\n  human_spot_check_rate: 0.0");
    none.execute(Fixtures.read("search"), new ScriptedTool<String>("q").returns("hits"));
    assertThat(f.escalations.size()).isZero();
  }

  @Test
  @DisplayName("tools.<tool>.timeout_ms and tenants.<t>.timeout_ms bound the tool's attempts as @Timeout does"
      + " (AttemptTimeoutTest shows a bound at work)")
  void timeouts() {
    ConfigPolicies policies = new ConfigPolicies(HfrConfigLoader.parse("""
        hfr:
          tools:
            Search.search:
              timeout_ms: 250
          tenants:
            acme:
              timeout_ms: 900
        """, "hfr.yaml"), 0);
    assertThat(policies.policy("other", Fixtures.read("search"), Criticality.Level.MEDIUM).timeoutMs()).isEqualTo(250);
    assertThat(policies.policy("acme", Fixtures.read("lookup"), Criticality.Level.MEDIUM).timeoutMs()).isEqualTo(900);
    assertThat(policies.policy("other", Fixtures.read("lookup"), Criticality.Level.MEDIUM).timeoutMs()).isZero();
    ToolDescriptor annotated = Fixtures.readBuilder("lookup").timeoutMs(40).build();
    assertThat(policies.policy("other", annotated, Criticality.Level.MEDIUM).timeoutMs()).as("@Timeout").isEqualTo(40);
    assertThat(policies.policy("acme", annotated, Criticality.Level.MEDIUM).timeoutMs()).as("the tenant's wins").isEqualTo(900);
  }

  @Test
  @DisplayName("retry.jitter: none, base_delay_ms, max_delay_ms — the delays are the bounds min(cap, base·2^(k-1)) themselves")
  void jitterNone() {
    Hfr hfr = engine("retry:\n  jitter: none\n  base_delay_ms: 300\n  max_delay_ms: 400");
    ScriptedTool<String> twice = new ScriptedTool<String>("q").failsTimes(2, Fixtures.http(500, "")).returns("ok");
    hfr.execute(Fixtures.readBuilder("search").retry(RetrySpec.DEFAULT).build(), twice);
    assertThat(retries()).extracting(DecisionEvent::delayMillis).containsExactly(300L, 400L);
  }

  @Test
  @DisplayName("retry.respect_retry_after: false — a 429's Retry-After no longer lengthens the delay")
  void respectRetryAfter() {
    ScriptedTool<String> limited = new ScriptedTool<String>("q")
        .fails(Fixtures.http(429, "Retry-After", "30", "{\"error\":{\"type\":\"rate_limit_error\"}}")).returns("ok");
    engine("retry:\n  respect_retry_after: true").execute(Fixtures.read("search"), limited);
    assertThat(retries()).singleElement().extracting(DecisionEvent::delayMillis).isEqualTo(30_000L);

    f.sink.events.clear();
    ScriptedTool<String> ignored = new ScriptedTool<String>("q")
        .fails(Fixtures.http(429, "Retry-After", "30", "{\"error\":{\"type\":\"rate_limit_error\"}}")).returns("ok");
    engine("retry:\n  respect_retry_after: false").execute(Fixtures.read("search"), ignored);
    assertThat(retries()).singleElement().extracting(DecisionEvent::delayMillis).asInstanceOf(
        org.assertj.core.api.InstanceOfAssertFactories.LONG).isLessThan(30_000L);
  }

  @Test
  @DisplayName("degradation.ladder without L4 — an L4 rung is never taken automatically")
  void ladder() {
    ToolDescriptor quote = ToolDescriptor.builder("com.acme.Quotes", "quote", Risk.R0).parameters("sku")
        .retry(RetrySpec.of(1, 100, 1000, Fault.T1)).criticality(Criticality.Level.LOW).resultType(String.class)
        .degradeTo("cachedQuote", DegradeLevel.L4, Risk.R0).build();
    ScriptedTool<String> withL4 = new ScriptedTool<String>("s").fails(Fixtures.http(500, "")).rungReturns(0, "cached");
    assertThat(engine("degradation:\n  ladder: [L0, L1, L2, L3, L4]").execute(quote, withL4)).isEqualTo("cached");

    ScriptedTool<String> withoutL4 = new ScriptedTool<String>("s").fails(Fixtures.http(500, "")).rungReturns(0, "cached");
    Throwable thrown = catchThrowable(() -> engine("degradation:\n  ladder: [L0, L1, L2, L3]").execute(quote, withoutL4));
    assertThat(thrown).isInstanceOf(ToolCallException.class);
    assertThat(withoutL4.rungCalls[0]).isZero();
  }
}
