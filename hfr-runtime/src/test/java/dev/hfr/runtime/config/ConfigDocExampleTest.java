package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The full example of docs/CONFIG.md is a valid configuration that means what the doc says")
class ConfigDocExampleTest {

  static String docExample() throws Exception {
    Path doc = Path.of("..", "docs", "CONFIG.md");
    String text = Files.readString(doc);
    int section = text.indexOf("## Full example");
    int start = text.indexOf("```yaml\n", section) + "```yaml\n".length();
    int end = text.indexOf("```", start);
    return text.substring(start, end);
  }

  @Test
  void theDocumentedExampleLoadsAndResolves() throws Exception {
    HfrConfig c = HfrConfigLoader.parse(docExample(), "CONFIG.md");
    ToolDescriptor search = ToolDescriptor.builder("com.acme.ShopTools", "search", Risk.R0).build();
    ToolDescriptor charge = ToolDescriptor.builder("com.acme.PaymentTools", "charge", Risk.R1)
        .parameters("key").idempotencyKeyParameter(0).build();
    c.check(List.of(search, charge));

    assertThat(c.policyFor(null, search).retry().maxAttempts()).isEqualTo(5);
    assertThat(c.policyFor(null, search).retry().retryOn()).containsExactlyInAnyOrder(Fault.T1, Fault.T2, Fault.T3);
    assertThat(c.policyFor("acme", search).retry().maxAttempts()).isEqualTo(3);
    assertThat(c.policyFor("acme", search).breaker().cooldownMs()).isEqualTo(60_000);
    assertThat(c.policyFor("acme", search).breaker().consecutiveFailures()).isEqualTo(10);
    assertThat(c.policyFor(null, charge).criticality()).isEqualTo(Criticality.Level.HIGH);
    assertThat(c.policyFor(null, charge).qualityFloor()).isEqualTo(0.95);
    assertThat(c.tenant("acme").maxToolCalls()).isEqualTo(80);
    assertThat(c.tenant("acme").maxRetriesPerTenantPerMinute()).isEqualTo(120);
    assertThat(c.retry().retryRatio()).isEqualTo(1.0);
    assertThat(c.tenant("other").maxToolCalls()).isEqualTo(200);
  }
}
