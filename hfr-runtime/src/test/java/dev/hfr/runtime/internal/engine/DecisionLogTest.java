package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.telemetry.JsonLinesDecisionSink;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("The decision log")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class DecisionLogTest {

  @Test
  @DisplayName("has one JSON line per decision, with hashes instead of arguments and results")
  void oneLinePerDecisionNothingRaw(@TempDir Path dir) throws Exception {
    Fixtures f = new Fixtures();
    Path file = dir.resolve("hfr-decisions.jsonl");
    String secretSku = "sku-4111-1111-1111-1111";
    try (JsonLinesDecisionSink sink = JsonLinesDecisionSink.open(file)) {
      Hfr hfr = f.builder().decisionSink(sink).build();
      ScriptedTool<String> order = new ScriptedTool<String>(secretSku).fails(Fixtures.timeout()).returns("order-secret-2")
          .reconcileFindsNothing();
      ScriptedTool<String> search = new ScriptedTool<String>("q").fails(Fixtures.http(429, "retry-after", "1", "{}"))
          .returns("hits");
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "checkout-7").build())) {
        hfr.execute(Fixtures.queryableWrite(), order);
        hfr.execute(Fixtures.read("search"), search);
      }
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    lines.forEach(System.out::println);
    assertThat(lines).hasSize(4);
    String all = String.join("\n", lines);
    assertThat(all).doesNotContain(secretSku).doesNotContain("order-secret-2");
    JsonNode first = new ObjectMapper().readTree(lines.get(0));
    assertThat(first.get("argsHash").asText()).isEqualTo(IdempotencyKeys.argsHash(List.of(secretSku)));
    assertThat(first.get("action").asText()).isEqualTo("RECONCILE");
    assertThat(first.get("ledgerState").asText()).isEqualTo("UNKNOWN");
  }
}
