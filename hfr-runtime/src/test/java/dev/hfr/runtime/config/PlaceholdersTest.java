package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code ${NAME}} and {@code ${NAME:default}} in hfr.yaml, and secrets kept out of error messages. */
@DisplayName("${VAR} in hfr.yaml comes from the environment or system properties; secrets are never shown")
class PlaceholdersTest {

  private static HfrConfig parse(String yaml, Map<String, String> variables) {
    return HfrConfigLoader.parse(yaml, "hfr.yaml", variables::get);
  }

  @Test
  @DisplayName("${NAME} takes the environment variable, then the system property")
  void environmentThenSystemProperties() {
    String home = System.getenv("PATH");
    HfrConfig fromEnv = HfrConfigLoader.parse("hfr:\n  idempotency:\n    path: \"${PATH}\"\n", "hfr.yaml");
    assertThat(fromEnv.idempotency().path()).isEqualTo(home);

    System.setProperty("hfr.test.db", "jdbc:postgresql://db:5432/hfr?user=hfr");
    try {
      HfrConfig fromProperty = HfrConfigLoader.parse("hfr:\n  idempotency:\n    ledger: postgres\n"
          + "    jdbc_url: ${hfr.test.db}\n", "hfr.yaml");
      assertThat(fromProperty.idempotency().jdbcUrl()).isEqualTo("jdbc:postgresql://db:5432/hfr?user=hfr");
    } finally {
      System.clearProperty("hfr.test.db");
    }
  }

  @Test
  @DisplayName("${NAME:default} takes the default when NAME is unset; a value that is one placeholder keeps its type")
  void defaultsAndTypes() {
    String yaml = "hfr:\n  fleet:\n    enabled: ${FLEET:true}\n    expected_workers: ${WORKERS:4}\n"
        + "    jdbc_url: \"jdbc:postgresql://${DB_HOST:localhost}:5432/hfr\"\n";
    HfrConfig defaults = parse(yaml, Map.of());
    assertThat(defaults.fleet().enabled()).isTrue();
    assertThat(defaults.fleet().expectedWorkers()).isEqualTo(4);
    assertThat(defaults.fleet().jdbcUrl()).isEqualTo("jdbc:postgresql://localhost:5432/hfr");

    HfrConfig set = parse(yaml, Map.of("WORKERS", "12", "DB_HOST", "db.internal"));
    assertThat(set.fleet().expectedWorkers()).isEqualTo(12);
    assertThat(set.fleet().jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:5432/hfr");
  }

  @Test
  @DisplayName("an unset ${NAME} without a default is an error naming the file, the line and the variable")
  void unsetWithoutDefault() {
    assertThatThrownBy(() -> parse("hfr:\n  idempotency:\n    ledger: postgres\n    jdbc_url: ${HFR_DB_URL}\n", Map.of()))
        .isInstanceOf(HfrConfigException.class)
        .hasMessageContaining("hfr.yaml:4")
        .hasMessageContaining("${HFR_DB_URL}")
        .hasMessageContaining("${HFR_DB_URL:value}");
  }

  @Test
  @DisplayName("$${ writes a literal ${")
  void escaped() {
    assertThat(parse("hfr:\n  idempotency:\n    path: \"ledger-$${x}\"\n", Map.of()).idempotency().path())
        .isEqualTo("ledger-${x}");
  }

  @Test
  @DisplayName("a URL's password and the value of a secret-looking key never appear in an error")
  void secretsAreHidden() {
    assertThatThrownBy(() -> parse("hfr:\n  idempotency:\n    jdbc_url: \"${URL}\"\n",
        Map.of("URL", "postgresql://hfr:hunter2@db/hfr?password=hunter2")))
        .isInstanceOf(HfrConfigException.class)
        .hasMessageContaining("jdbc_url")
        .hasMessageNotContaining("hunter2");
    for (String key : List.of("password", "api_key", "token", "client_secret")) {
      assertThat(SecretValues.shown("hfr.mcp.servers.x." + key, "s3cr3t")).as(key).doesNotContain("s3cr3t");
    }
    assertThat(SecretValues.shown("hfr.idempotency.key_fields", "tenant")).isEqualTo("tenant");
  }
}
