package dev.hfr.samples.langchain4j.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.samples.langchain4j.loop.FlakyShop.Effect;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The agent loop through the user's path (AiServices → HfrTools → generated proxy → engine → ledger → loopback
 * services): a model that calls failing tools again makes duplicates without HFR and none with it.
 */
class RecallLoopTest {

  @Test
  @DisplayName("20 conversations at p = 0.3, the model re-calling failed tools: no duplicate with HFR, no breaker opened")
  void theModelsReCallsDoNothingTwice() throws Exception {
    RecallLoop.Run plain = RecallLoop.run(false, 20, 0.3, 42);
    RecallLoop.Run hfr = RecallLoop.run(true, 20, 0.3, 42);
    System.out.println("without HFR: " + plain + "\nwith HFR:    " + hfr);

    assertThat(hfr.faults()).as("faults were injected").isGreaterThan(10);
    for (Effect e : Effect.values()) {
      assertThat(hfr.duplicates().get(e)).as("%s duplicated with HFR", e).isZero();
    }
    assertThat(plain.duplicates().values().stream().mapToInt(Integer::intValue).sum())
        .as("the model's re-calls duplicate writes without HFR").isPositive();
    assertThat(hfr.breakersOpened()).as("re-calls and refusals open no breaker").isZero();
    assertThat(hfr.completed()).as("conversations completed with HFR").isGreaterThanOrEqualTo(15);
    assertThat(hfr.unfinished()).as("a conversation that cannot complete stops at an irreversible write, the model told why")
        .hasSize(20 - hfr.completed())
        .allSatisfy(answer -> assertThat(answer).contains("at sendReceipt").contains("Do not call it again"));
  }
}
