package dev.hfr.agent.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Criticality;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {

  @Test
  @DisplayName("no options: shadow mode, no events file, no endpoint, a summary every minute")
  void defaults() {
    AgentOptions o = AgentOptions.parse(null);
    assertThat(o.enforce()).isFalse();
    assertThat(o.events()).isNull();
    assertThat(o.prometheusPort()).isEqualTo(-1);
    assertThat(o.prometheusHost()).isEqualTo("127.0.0.1");
    assertThat(o.summaryInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.criticality()).isEqualTo(Criticality.Level.MEDIUM);
    assertThat(o.watch()).isEqualTo(AgentOptions.Watch.AUTO);
    assertThat(o.retryBudget()).isEqualTo(600);
    assertThat(o.problems()).isEmpty();
    assertThat(AgentOptions.parse("  ").problems()).isEmpty();
  }

  @Test
  @DisplayName("key=value pairs separated by commas set the options")
  void parsesPairs() {
    AgentOptions o = AgentOptions.parse(
        "prometheus.port=9464,events=/tmp/hfr-events.jsonl,enforce=true,summary.interval=90s,criticality=high,"
            + "retry.base=20ms,retry.cap=1s,retry.max.attempts=4,hosts.max=7,instrument.okhttp=false,retry.budget=12");
    assertThat(o.problems()).isEmpty();
    assertThat(o.prometheusPort()).isEqualTo(9464);
    assertThat(o.events()).isEqualTo(Path.of("/tmp/hfr-events.jsonl"));
    assertThat(o.enforce()).isTrue();
    assertThat(o.summaryInterval()).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.criticality()).isEqualTo(Criticality.Level.HIGH);
    assertThat(o.retryBase()).isEqualTo(Duration.ofMillis(20));
    assertThat(o.retryCap()).isEqualTo(Duration.ofSeconds(1));
    assertThat(o.retryMaxAttempts()).isEqualTo(4);
    assertThat(o.maxHosts()).isEqualTo(7);
    assertThat(o.retryBudget()).isEqualTo(12);
    assertThat(o.instruments(2)).isFalse();
    assertThat(o.instruments(0)).isTrue();
  }

  @Test
  @DisplayName("watch=auto|all|jdk, in any case; anything else keeps auto and says what is expected")
  void watch() {
    assertThat(AgentOptions.parse("watch=all").watch()).isEqualTo(AgentOptions.Watch.ALL);
    assertThat(AgentOptions.parse("watch=JDK").watch()).isEqualTo(AgentOptions.Watch.JDK);
    assertThat(AgentOptions.parse("watch=auto").watch()).isEqualTo(AgentOptions.Watch.AUTO);
    AgentOptions bad = AgentOptions.parse("watch=none");
    assertThat(bad.watch()).isEqualTo(AgentOptions.Watch.AUTO);
    assertThat(bad.problems()).singleElement().asString().contains("watch=none", "auto, all or jdk");
  }

  @Test
  @DisplayName("an unknown key is reported once and ignored; the other options still apply")
  void unknownKeysAreReportedAndIgnored() {
    AgentOptions o = AgentOptions.parse("enforce=true,prometheus.prot=9464");
    assertThat(o.enforce()).isTrue();
    assertThat(o.prometheusPort()).isEqualTo(-1);
    assertThat(o.problems()).singleElement().asString().contains("unknown option 'prometheus.prot'").contains("prometheus.port");
  }

  @Test
  @DisplayName("a bad value keeps the default and says why")
  void badValuesKeepTheDefault() {
    AgentOptions o = AgentOptions.parse("enforce=maybe,summary.interval=60,prometheus.port=70000,retry.base=5s,retry.cap=1s,criticality=extreme,oops");
    assertThat(o.enforce()).isFalse();
    assertThat(o.summaryInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.prometheusPort()).isEqualTo(-1);
    assertThat(o.retryBase()).isEqualTo(Duration.ofMillis(100));
    assertThat(o.retryCap()).isEqualTo(Duration.ofSeconds(2));
    assertThat(o.criticality()).isEqualTo(Criticality.Level.MEDIUM);
    assertThat(o.problems()).hasSize(6).anySatisfy(p -> assertThat(p).contains("enforce=maybe", "true or false"))
        .anySatisfy(p -> assertThat(p).contains("summary.interval=60", "unit"))
        .anySatisfy(p -> assertThat(p).contains("'oops' is not key=value"))
        .anySatisfy(p -> assertThat(p).contains("retry.base", "exceeds retry.cap"));
  }

  @Test
  @DisplayName("every known key is documented")
  void everyKeyIsDocumented() {
    assertThat(AgentOptions.KEYS).allSatisfy((key, doc) -> assertThat(doc).isNotBlank());
  }
}
