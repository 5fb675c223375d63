package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("CircuitBreakers: one breaker per provider, model, tool and tenant")
class CircuitBreakersTest {

  private final VirtualTime time = new VirtualTime();

  @Test
  @DisplayName("the same target gets the same breaker; kinds are separate namespaces")
  void oneBreakerPerTarget() {
    CircuitBreakers breakers = CircuitBreakers.builder(time).build();
    CircuitBreaker tool = breakers.forTarget(TargetKind.TOOL, "openai");
    assertThat(breakers.forTarget(TargetKind.TOOL, "openai")).isSameAs(tool);
    assertThat(breakers.forTarget(TargetKind.PROVIDER, "openai")).isNotSameAs(tool);
    assertThat(breakers.find(TargetKind.MODEL, "gpt")).isNull();
    assertThat(breakers.all()).hasSize(2);
    assertThat(tool.kind()).isEqualTo(TargetKind.TOOL);
    assertThat(tool.name()).isEqualTo("openai");
  }

  @Test
  @DisplayName("the listener hears of each breaker once, when it is created")
  void listenerHearsCreation() {
    List<String> created = new ArrayList<>();
    CircuitBreakers breakers = CircuitBreakers.builder(time).listener(new CircuitBreakerListener() {
      @Override
      public void onCreated(CircuitBreaker breaker) {
        created.add(breaker.kind().tag() + ":" + breaker.name());
      }
    }).build();
    breakers.forTarget(TargetKind.TOOL, "a");
    breakers.forTarget(TargetKind.TOOL, "a");
    breakers.forTarget(TargetKind.TENANT, "acme");
    assertThat(created).containsExactly("tool:a", "tenant:acme");
  }

  @Test
  @DisplayName("a config resolver (e.g. per-tool configuration) decides targets without an override")
  void resolver() {
    CircuitBreakerConfig strict = CircuitBreakerConfig.builder().consecutiveFailures(1).build();
    CircuitBreakerConfig pinned = CircuitBreakerConfig.builder().consecutiveFailures(9).build();
    CircuitBreakers breakers = CircuitBreakers.builder(time).override(TargetKind.TOOL, "Pinned.call", pinned)
        .configs((kind, name) -> kind == TargetKind.TOOL ? strict : null).build();
    assertThat(breakers.forTarget(TargetKind.TOOL, "Pinned.call").config()).isSameAs(pinned);
    assertThat(breakers.forTarget(TargetKind.TOOL, "Other.call").config()).isSameAs(strict);
    assertThat(breakers.forTarget(TargetKind.MODEL, "m").config()).isSameAs(CircuitBreakerConfig.defaults());
  }

  @Test
  @DisplayName("one target tripping leaves the others closed")
  void targetsAreIsolated() {
    CircuitBreakers breakers = CircuitBreakers.builder(time)
        .defaults(CircuitBreakerConfig.builder().consecutiveFailures(2).build()).build();
    CircuitBreaker bad = breakers.forTarget(TargetKind.MODEL, "bad");
    for (int i = 0; i < 2; i++) {
      bad.tryAcquire();
      bad.onFailure(Fault.T4, 1);
    }
    assertThat(bad.state()).isEqualTo(CircuitState.OPEN);
    assertThat(breakers.forTarget(TargetKind.MODEL, "good").state()).isEqualTo(CircuitState.CLOSED);
  }

  @Test
  @DisplayName("overrides apply to their target only; the same seed gives the same cooldowns")
  void overridesAndSeed() {
    CircuitBreakerConfig slow = CircuitBreakerConfig.builder().cooldown(Duration.ofMinutes(2)).build();
    CircuitBreakers breakers = CircuitBreakers.builder(time).override(TargetKind.PROVIDER, "anthropic", slow).seed(9).build();
    assertThat(breakers.forTarget(TargetKind.PROVIDER, "anthropic").config()).isSameAs(slow);
    assertThat(breakers.forTarget(TargetKind.PROVIDER, "openai").config()).isSameAs(CircuitBreakerConfig.defaults());

    long[] cooldowns = new long[2];
    for (int run = 0; run < 2; run++) {
      CircuitBreakers again = CircuitBreakers.builder(time)
          .defaults(CircuitBreakerConfig.builder().consecutiveFailures(1).build()).seed(9).build();
      CircuitBreaker b = again.forTarget(TargetKind.TOOL, "t");
      b.tryAcquire();
      b.onFailure(Fault.T1, 1);
      cooldowns[run] = b.openUntilNanos();
    }
    assertThat(cooldowns[0]).isEqualTo(cooldowns[1]);
    assertThatThrownBy(() -> CircuitBreakers.builder(time).override(TargetKind.TOOL, "", slow)).hasMessageContaining("name");
  }
}
