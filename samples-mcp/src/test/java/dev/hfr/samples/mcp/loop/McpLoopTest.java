package dev.hfr.samples.mcp.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.samples.mcp.loop.DeskServer.Effect;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The agent loop over MCP through the user's path (HfrMcpToolProvider → HfrMcpClient → engine built with a config →
 * ledger → MCP server on loopback): a model re-calling failed tools duplicates writes without HFR, never with it.
 */
class McpLoopTest {

  @Test
  @DisplayName("20 conversations at p = 0.3, the model re-calling failed tools: no duplicate with HFR, no breaker opened")
  void theModelsReCallsDoNothingTwice() throws Exception {
    McpLoop.Run plain = McpLoop.run(false, 20, 0.3, 42);
    McpLoop.Run hfr = McpLoop.run(true, 20, 0.3, 42);
    System.out.println("without HFR: " + plain + "\nwith HFR:    " + hfr);

    assertThat(hfr.faults()).as("faults were injected").isGreaterThan(10);
    for (Effect e : Effect.values()) {
      assertThat(hfr.duplicates().get(e)).as("%s duplicated with HFR; the run: %s", e, hfr).isZero();
    }
    assertThat(plain.duplicates().values().stream().mapToInt(Integer::intValue).sum())
        .as("the model's re-calls duplicate writes without HFR").isPositive();
    assertThat(hfr.breakersOpened()).as("re-calls and refusals open no breaker").isZero();
    assertThat(hfr.completed()).as("conversations completed with HFR").isGreaterThanOrEqualTo(14);
    assertThat(hfr.unfinished()).as("a conversation that cannot complete stops at an irreversible write, the model told why")
        .hasSize(20 - hfr.completed())
        .allSatisfy(u -> assertThat(u).contains("at send_receipt").contains("Do not call it again"));
  }
}
