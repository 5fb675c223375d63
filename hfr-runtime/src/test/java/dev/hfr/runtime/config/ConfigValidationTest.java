package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15: configuration inputs that used to escape validation — an empty {@code hfr:} (a raw
 * IndexOutOfBoundsException), a breaker that parses but cannot be built (refused only at build(), with
 * no file or line), a 10 MB value (37 s to refuse) — are refused at load, fast, with file, line and key.
 */
@DisplayName("Config validation: empty sections, cross-field rules and oversized values refused at load with file, line and key")
class ConfigValidationTest {

  @TempDir Path tmp;

  private static HfrConfigException refused(String yaml) {
    return catchThrowableOfType(() -> HfrConfigLoader.parse(yaml, "hfr.yaml"), HfrConfigException.class);
  }

  @Test
  @DisplayName("an empty `hfr:` is a configuration error at its line, not an IndexOutOfBoundsException")
  void emptyHfrSection() {
    HfrConfigException e = refused("hfr:\n");
    assertThat(e).isNotNull();
    assertThat(e.key()).isEqualTo("hfr");
    assertThat(e.line()).isEqualTo(1);
    assertThat(e.why()).contains("the section is empty");
    assertThat(HfrConfigLoader.parse("hfr: {}\n", "hfr.yaml").retry()).as("an explicit empty mapping keeps the defaults")
        .isEqualTo(HfrConfig.defaults().retry());
  }

  @Test
  @DisplayName("an empty sub-section (keys that lost their indentation) is reported at its line")
  void emptySubSection() {
    HfrConfigException e = refused("hfr:\n  retry:\n  base_delay_ms: 100\n");
    assertThat(e.problems()).anySatisfy(p -> {
      assertThat(p.key()).isEqualTo("hfr.retry");
      assertThat(p.why()).contains("the section is empty");
    });
  }

  @Test
  @DisplayName("circuit_breaker.min_calls: 1000000 is refused at load at its line (the breaker keeps 50 calls), not at build()")
  void minCallsAboveTheWindow() {
    HfrConfigException e = refused("hfr:\n  circuit_breaker:\n    window_ms: 60000\n    min_calls: 1000000\n");
    assertThat(e).isNotNull();
    assertThat(e.source()).isEqualTo("hfr.yaml");
    assertThat(e.line()).isEqualTo(4);
    assertThat(e.key()).isEqualTo("hfr.circuit_breaker.min_calls");
    assertThat(e.why()).contains("minimumCalls (1000000) must not exceed windowSize (50)").contains("lower min_calls");
  }

  @Test
  @DisplayName("the same rule holds for a tool's and a tenant's breaker")
  void breakerRulesPerToolAndTenant() {
    HfrConfigException tool = refused("hfr:\n  tools:\n    Shop.buy:\n      circuit_breaker:\n        min_calls: 51\n");
    assertThat(tool.key()).isEqualTo("hfr.tools[\"Shop.buy\"].circuit_breaker.min_calls");
    assertThat(tool.line()).isEqualTo(5);
    HfrConfigException tenant = refused("hfr:\n  tenants:\n    acme:\n      circuit_breaker:\n        min_calls: 400\n");
    assertThat(tenant.key()).isEqualTo("hfr.tenants.acme.circuit_breaker.min_calls");
  }

  @Test
  @DisplayName("a cooldown longer than max_cooldown_ms is refused at max_cooldown_ms; without it the cap follows the cooldown")
  void cooldownAboveTheMaximum() {
    HfrConfigException e = refused("hfr:\n  circuit_breaker:\n    cooldown_ms: 600000\n    max_cooldown_ms: 300000\n");
    assertThat(e.key()).isEqualTo("hfr.circuit_breaker.max_cooldown_ms");
    assertThat(e.why()).contains("maxCooldown");
    HfrConfig c = HfrConfigLoader.parse("hfr:\n  circuit_breaker:\n    cooldown_ms: 600000\n", "hfr.yaml");
    assertThat(c.circuitBreaker().toBreakerConfig().maxCooldown()).isEqualTo(java.time.Duration.ofMinutes(10));
  }

  @Test
  @DisplayName("a breaker that works is accepted and builds")
  void workingBreaker() {
    HfrConfig c = HfrConfigLoader.parse("hfr:\n  circuit_breaker:\n    min_calls: 50\n    cooldown_ms: 300000\n", "hfr.yaml");
    assertThat(c.circuitBreaker().toBreakerConfig().minimumCalls()).isEqualTo(50);
  }

  @Test
  @DisplayName("a 10 MB value is refused in well under 100 ms of CPU, from a string and from a file, without parsing it")
  void tenMegabyteValue() throws Exception {
    String yaml = "hfr:\n  idempotency:\n    ledger: \"" + "x".repeat(10 * 1024 * 1024) + "\"\n";
    Path file = tmp.resolve("hfr.yaml");
    Files.writeString(file, yaml);

    // this thread's CPU time, not the wall clock: on a busy machine the wall clock also counts other processes' turns
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long t0 = threads.getCurrentThreadCpuTime();
    HfrConfigException fromString = refused(yaml);
    HfrConfigException fromFile = catchThrowableOfType(() -> HfrConfigLoader.load(file), HfrConfigException.class);
    long millis = (threads.getCurrentThreadCpuTime() - t0) / 1_000_000;

    assertThat(fromString.why()).contains("an HFR configuration is at most 1048576 bytes");
    assertThat(fromFile.why()).contains("the file is " + Files.size(file) + " bytes");
    assertThat(fromFile.source()).isEqualTo(file.toString());
    assertThat(millis).as("both refusals, in ms of CPU (parsing 10 MB takes seconds)").isLessThan(100);
  }

  @Test
  @DisplayName("a long value inside a small file is refused at its line, and the message shows only its start")
  void longValueInASmallFile() {
    HfrConfigException e = refused("hfr:\n  idempotency:\n    ledger: " + "y".repeat(100_000) + "\n");
    assertThat(e.problems()).anySatisfy(p -> {
      assertThat(p.line()).isEqualTo(3);
      assertThat(p.key()).isEqualTo("hfr.idempotency.ledger");
      assertThat(p.why()).contains("a value of 100000 characters");
    });
    assertThat(e.getMessage().length()).isLessThan(2_000);
  }
}
