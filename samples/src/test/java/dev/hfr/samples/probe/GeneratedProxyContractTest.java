package dev.hfr.samples.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.JsonLinesDecisionSink;
import java.io.FileNotFoundException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the generated proxy promises its callers, checked against the real engine. */
class GeneratedProxyContractTest {

  private Hfr hfr;
  private Mailbox mailbox;

  @BeforeEach
  void start(@TempDir Path dir) {
    hfr = Hfr.builder()
        .ledger(new InMemoryLedger())
        .decisionSink(JsonLinesDecisionSink.open(dir.resolve("decisions.jsonl")))
        .build();
    mailbox = Mailbox_Recovering.create(hfr);
  }

  @AfterEach
  void stop() {
    hfr.close();
  }

  @Test
  @DisplayName("a failed call reaches the caller as an unchecked ToolCallException with the tool's exception as cause,"
      + " never as the bare checked exception a caller might retry on")
  void declaredCheckedExceptionIsTheCauseNeverTheException() {
    assertThatThrownBy(() -> mailbox.send("nobody"))
        .isInstanceOf(ToolCallException.class)
        .isNotInstanceOf(FileNotFoundException.class)
        .hasCauseInstanceOf(FileNotFoundException.class)
        .hasRootCauseMessage("no mailbox for nobody");
  }

  @Test
  @DisplayName("a key the caller passes is used as is")
  void callersKeyWins() {
    assertThat(mailbox.archive("inbox", "caller-key-1")).isEqualTo("inbox@caller-key-1");
    assertThat(mailbox.keysSeen).containsExactly("caller-key-1");
  }

  @Test
  @DisplayName("without a caller's key the runtime supplies one")
  void runtimeSuppliesTheKey() {
    String archived = mailbox.archive("inbox", null);

    assertThat(mailbox.keysSeen).hasSize(1);
    assertThat(mailbox.keysSeen.get(0)).isNotBlank();
    assertThat(archived).isEqualTo("inbox@" + mailbox.keysSeen.get(0));
  }
}
