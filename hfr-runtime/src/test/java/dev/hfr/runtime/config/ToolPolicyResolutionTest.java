package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Per-tenant and per-tool overrides apply over the annotation defaults, within the safety rules")
class ToolPolicyResolutionTest {

  private static final ToolDescriptor SEARCH = ToolDescriptor.builder("com.acme.ShopTools", "search", Risk.R0).build();
  private static final ToolDescriptor RESERVE = ToolDescriptor.builder("com.acme.ShopTools", "reserve", Risk.R1)
      .parameters("key").idempotencyKeyParameter(0).build();
  private static final ToolDescriptor PLACE_ORDER = ToolDescriptor.builder("com.acme.ShopTools", "placeOrder", Risk.R2)
      .reconcile("findOrder").build();
  private static final ToolDescriptor SEND_MAIL = ToolDescriptor.builder("com.acme.MailTools", "send", Risk.R3)
      .criticality(Criticality.Level.HIGH).build();
  private static final ToolDescriptor CUSTOM = ToolDescriptor.builder("com.acme.ShopTools", "quote", Risk.R0)
      .retry(RetrySpec.of(6, 50, 2000, Fault.T1)).verify(VerifyLevel.V3).build();

  @Test
  @DisplayName("with the paper's defaults, T3 (T3_readonly) is retried where the resend is safe: reads, R1 under its key, "
      + "R2 once reconciled absent (the retry gate reconciles first)")
  void defaultsRetryTimeoutsWhereSafe() {
    HfrConfig c = HfrConfig.defaults();
    assertThat(c.policyFor("acme", SEARCH).retry().retryOn()).containsExactlyInAnyOrder(Fault.T1, Fault.T2, Fault.T3, Fault.T6);
    assertThat(c.policyFor("acme", RESERVE).retry().retryOn()).containsExactlyInAnyOrder(Fault.T1, Fault.T2, Fault.T3, Fault.T6);
    assertThat(c.policyFor("acme", PLACE_ORDER).retries(Fault.T3)).isTrue();
    assertThat(c.policyFor("acme", SEARCH).retry().maxAttempts()).isEqualTo(4);
  }

  @Test
  void anR3ToolIsNeverRetried() {
    ToolPolicy p = HfrConfig.defaults().policyFor(null, SEND_MAIL);
    assertThat(p.retry()).isEqualTo(RetrySpec.NONE);
    assertThat(p.retries(Fault.T1)).isFalse();
    assertThat(p.humanRequiredLevels()).contains(DegradeLevel.L2, DegradeLevel.L3, DegradeLevel.L4);
    assertThat(p.mayDegradeAutomatically(DegradeLevel.L2)).isFalse();
    assertThat(p.mayDegradeAutomatically(DegradeLevel.L1)).isTrue();
  }

  @Test
  @DisplayName("the annotation's explicit values beat the file's global values; the file's tool section beats both")
  void layering() {
    String yaml = String.join("\n", "hfr:", "  retry:", "    max_attempts_per_step: 3", "    base_delay_ms: 100",
        "  tools:", "    \"ShopTools.quote\":", "      retry:", "        max_delay_ms: 5000", "");
    HfrConfig c = HfrConfigLoader.parse(yaml, "hfr.yaml");
    RetrySpec quote = c.policyFor(null, CUSTOM).retry();
    assertThat(quote.maxAttempts()).as("annotation 6 beats global 3").isEqualTo(6);
    assertThat(quote.baseDelayMs()).as("annotation 50 beats global 100").isEqualTo(50);
    assertThat(quote.maxDelayMs()).as("tool section beats annotation").isEqualTo(5000);
    assertThat(quote.retryOn()).containsExactly(Fault.T1);
    RetrySpec search = c.policyFor(null, SEARCH).retry();
    assertThat(search.maxAttempts()).as("global fills the annotation defaults").isEqualTo(3);
    assertThat(search.baseDelayMs()).isEqualTo(100);
  }

  @Test
  void tenantAndTenantToolOverrides() {
    String yaml = String.join("\n",
        "hfr:",
        "  tools:",
        "    \"ShopTools.search\":",
        "      retry: {max_attempts_per_step: 5}",
        "      criticality: high",
        "  tenants:",
        "    acme:",
        "      retry:",
        "        max_retries_per_task: 3",
        "        max_retries_per_tenant_per_min: 60",
        "      limits:",
        "        max_same_tool_calls: 2",
        "      circuit_breaker: {consecutive_failures: 3}",
        "      tools:",
        "        \"com.acme.ShopTools.search\":",
        "          retry: {max_attempts_per_step: 2}",
        "          verification: {level: V3}",
        "");
    HfrConfig c = HfrConfigLoader.parse(yaml, "hfr.yaml");
    ToolPolicy acme = c.policyFor("acme", SEARCH);
    ToolPolicy other = c.policyFor("globex", SEARCH);
    assertThat(acme.retry().maxAttempts()).isEqualTo(2);
    assertThat(acme.verifyLevel()).isEqualTo(VerifyLevel.V3);
    assertThat(acme.breaker().consecutiveFailures()).isEqualTo(3);
    assertThat(acme.tenant()).isEqualTo("acme");
    assertThat(other.retry().maxAttempts()).isEqualTo(5);
    assertThat(other.tenant()).isEqualTo(HfrConfig.DEFAULT_TENANT);
    assertThat(other.criticality()).isEqualTo(Criticality.Level.HIGH);
    assertThat(other.qualityFloor()).isEqualTo(0.92);
    assertThat(other.verifyLevel()).isEqualTo(VerifyLevel.V2);
    assertThat(other.breaker().consecutiveFailures()).isEqualTo(5);

    TenantPolicy t = c.tenant("acme");
    assertThat(t.maxRetriesPerTask()).isEqualTo(3);
    assertThat(t.maxRetriesPerTenantPerMinute()).isEqualTo(60);
    assertThat(t.maxSameToolCalls()).isEqualTo(2);
    assertThat(c.tenant("globex").maxRetriesPerTask()).isEqualTo(10);
    assertThat(c.tenant(null).tenant()).isEqualTo(HfrConfig.DEFAULT_TENANT);
  }

  @Test
  @DisplayName("a policy is resolved once per (tenant, tool) and cached, not per call")
  void resolutionIsCached() {
    HfrConfig c = HfrConfigLoader.parse("hfr:\n  tenants:\n    acme: {retry: {max_retries_per_task: 2}}\n", "hfr.yaml");
    assertThat(c.policyFor("acme", SEARCH)).isSameAs(c.policyFor("acme", SEARCH));
    assertThat(c.policyFor("a", SEARCH)).isSameAs(c.policyFor("b", SEARCH));
    assertThat(c.tenant("acme")).isSameAs(c.tenant("acme"));
  }

  @Test
  @DisplayName("threads resolving the same (tenant, tool) at once all get the one cached policy")
  void concurrentResolutionAgrees() throws Exception {
    HfrConfig c = HfrConfigLoader.parse("hfr:\n  tenants:\n    acme: {retry: {max_attempts_per_step: 2}}\n", "hfr.yaml");
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    try {
      java.util.List<java.util.concurrent.Future<ToolPolicy>> futures = new java.util.ArrayList<>();
      for (int i = 0; i < 64; i++) {
        futures.add(pool.submit(() -> c.policyFor("acme", RESERVE)));
      }
      ToolPolicy first = futures.get(0).get();
      for (java.util.concurrent.Future<ToolPolicy> f : futures) {
        assertThat(f.get()).isSameAs(first);
      }
      assertThat(first.retry().maxAttempts()).isEqualTo(2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  @DisplayName("config can never make an R3 tool retryable: the override is refused, listed, and check() fails fast")
  void configCannotRetryAnR3Tool() {
    String yaml = String.join("\n", "hfr:", "  tools:", "    \"MailTools.send\":", "      retry:",
        "        max_attempts_per_step: 3", "        retry_on: [T1]", "");
    HfrConfig c = HfrConfigLoader.parse(yaml, "hfr.yaml");
    ToolPolicy p = c.policyFor(null, SEND_MAIL);
    assertThat(p.retry()).isEqualTo(RetrySpec.NONE);
    assertThat(p.adjustments()).hasSize(2);
    assertThat(p.adjustments().get(0)).startsWith("hfr.yaml:5:32 hfr.tools[\"MailTools.send\"].retry.max_attempts_per_step: "
        + "MailTools.send is R3 (irreversible) and is never retried");
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> c.check(List.of(SEND_MAIL, SEARCH)));
    assertThat(e.line()).isEqualTo(5);
  }

  @Test
  void checkReportsToolNamesThatMatchNoTool() {
    HfrConfig c = HfrConfigLoader.parse("hfr:\n  tools:\n    \"ShopTools.serch\": {criticality: low}\n", "hfr.yaml");
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> c.check(List.of(SEARCH, RESERVE)));
    assertThat(e.getMessage()).startsWith("hfr.yaml:3:24 hfr.tools[\"ShopTools.serch\"]: no tool is named ShopTools.serch; "
        + "did you mean ShopTools.search?");
  }

  @Test
  void aHighToolCannotBeGivenAutomaticL3() {
    String yaml = "hfr:\n  tools:\n    \"MailTools.send\":\n      degradation: {allow_auto_degrade: [L1, L3]}\n";
    HfrConfig c = HfrConfigLoader.parse(yaml, "hfr.yaml");
    ToolPolicy p = c.policyFor(null, SEND_MAIL);
    assertThat(p.autoDegradeLevels()).containsExactly(DegradeLevel.L1);
    assertThat(p.adjustments()).singleElement().asString().contains("may not degrade to [L3] without a human");
  }

  @Test
  @DisplayName("the annotation's verify level is a floor the file cannot lower")
  void verifyLevelIsTheStricter() {
    String yaml = "hfr:\n  tools:\n    \"ShopTools.quote\": {verification: {level: V1}}\n";
    assertThat(HfrConfigLoader.parse(yaml, "hfr.yaml").policyFor(null, CUSTOM).verifyLevel()).isEqualTo(VerifyLevel.V3);
  }

  @Test
  void annotationRetryOnIsKeptAsDeclared() {
    ToolDescriptor odd = ToolDescriptor.builder("com.acme.ShopTools", "odd", Risk.R0)
        .retry(RetrySpec.of(3, 100, 1000, Fault.T4, Fault.T6, Fault.UNCLASSIFIED)).build();
    assertThat(HfrConfig.defaults().policyFor(null, odd).retry().retryOn()).containsExactlyInAnyOrder(Fault.T4, Fault.T6);
  }

  @Test
  @DisplayName("T3 and T3_readonly mean the same; an R1 write without a key (idempotency off) never retries a timeout")
  void plainT3AndT3ReadonlyAgree() {
    HfrConfig t3 = HfrConfigLoader.parse("hfr:\n  retry:\n    retry_on: [T1, T3]\n", "hfr.yaml");
    HfrConfig readonly = HfrConfigLoader.parse("hfr:\n  retry:\n    retry_on: [T1, T3_readonly]\n", "hfr.yaml");
    for (ToolDescriptor tool : new ToolDescriptor[] {SEARCH, RESERVE, PLACE_ORDER, SEND_MAIL}) {
      assertThat(t3.policyFor(null, tool).retry()).as(tool.name()).isEqualTo(readonly.policyFor(null, tool).retry());
    }
    HfrConfig unkeyed = HfrConfigLoader.parse("hfr:\n  idempotency:\n    enabled: false\n", "hfr.yaml");
    assertThat(unkeyed.policyFor(null, RESERVE).retries(Fault.T3)).isFalse();
    assertThat(unkeyed.policyFor(null, SEARCH).retries(Fault.T3)).isTrue();
  }

  @Test
  @DisplayName("T3_write_without_idempotency is always in never_retry_on, listed or not: the retry gate's own rule")
  void writeWithoutIdempotencyIsAlwaysNeverRetried() {
    HfrConfig c = HfrConfigLoader.parse("hfr:\n  retry:\n    never_retry_on: [T7]\n", "hfr.yaml");
    assertThat(c.retry().neverRetryOn()).contains(RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY, RetryCondition.T8);
  }
}
