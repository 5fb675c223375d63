package dev.hfr.samples.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The sample agent runs offline and shows the decisions the README promises")
class ShopAgentSampleTest {

  @Test
  void runsAndPrintsTheDecisions() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      ShopAgentSample.decisions();   // the loop is RecallLoopTest's
    } finally {
      System.setOut(original);
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    original.print(out);

    assertThat(out)
        .contains("T2           -> RETRY         honouring Retry-After 1000 ms")
        .contains("T4           -> DEGRADE_MODEL")
        .contains("degraded=true (L2 gpt-4o@backup)")
        .contains("RECONCILED_COMMITTED")
        .contains("orders stored by the backend: [Order[id=ORD-1001, sku=SKU-42, quantity=2]]")
        .contains("\"status\":\"failed\"", "\"fault\":\"T1\"")
        .contains("T6           -> COMPRESS")
        .contains("no answer: ESCALATED (T8)")
        .contains("decision log of shop/conversation-1: 2 model decisions [RETRY, DEGRADE_MODEL], 2 tool decisions")
        .contains("decision log of shop/conversation-4: 1 model decisions [ESCALATE], 0 tool decisions");
    assertThat(out).as("the backup model is never asked after the refusal")
        .doesNotContain("gpt-4o-backup   14 messages");
    assertThat(out.lines().filter(l -> l.contains("duplicates=")).allMatch(l -> l.contains("duplicates=0"))).isTrue();
  }
}
