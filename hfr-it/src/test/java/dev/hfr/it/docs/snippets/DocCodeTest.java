package dev.hfr.it.docs.snippets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.config.HfrConfigException;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Code the reference pages include from this package does what the pages say of it. */
@DisplayName("Code on the reference pages runs as the pages say")
class DocCodeTest {

  @Test
  @DisplayName("CONFIG.md's loading: a tool name no tool has fails build() at its line; a correct file builds")
  void configLoading(@TempDir Path dir) throws Exception {
    Path misspelt = Files.writeString(dir.resolve("hfr.yaml"), """
        hfr:
          tools:
            ShopTools.serch: {timeout_ms: 500}
        """);
    assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(HfrConfigException.class,
        () -> ConfigLoading.engine(misspelt))).hasMessageContaining("hfr.yaml:3").hasMessageContaining("no tool is named ShopTools.serch");

    Path fine = Files.writeString(dir.resolve("fine.yaml"), """
        hfr:
          idempotency: {ledger: memory}
          retry: {max_attempts_per_step: 6, same_fault_limit: 6}
        """);
    ConfigLoading.engine(fine).close();
  }

  @Test
  @DisplayName("CLASSIFIER.md's example: a 429 with Retry-After: 17 is T2, 17000 ms, by the rule the page names")
  void classifierExample() {
    Classification c = ClassifierUse.rateLimited(Clock.system(), "{\"error\":\"rate_limited\"}");

    assertThat(c.fault()).isEqualTo(Fault.T2);
    assertThat(c.retryAfterMillis()).isEqualTo(17_000);
    assertThat(c.rule()).isEqualTo("http.429.retry-after");
  }

  @Test
  @DisplayName("LEDGER.md's keys: 64 hex characters, one per occurrence and per named step")
  void ledgerKeys() {
    List<String> values = LedgerKeys.ofOneWrite();

    assertThat(values.get(0)).matches("[0-9a-f]{64}")
        .isEqualTo(IdempotencyKeys.key("acme", "checkout-42", "ShopTools.createOrder", List.of("sku-lamp", 1), 0))
        .isNotEqualTo(IdempotencyKeys.key("acme", "checkout-42", "ShopTools.createOrder", List.of("sku-lamp", 1), 1));
    assertThat(values.get(1)).matches("[0-9a-f]{64}").isNotEqualTo(values.get(0));
    assertThat(values.get(2)).isEqualTo(IdempotencyKeys.argsHash(List.of("sku-lamp", 1L)));
  }
}
