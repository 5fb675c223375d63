package dev.hfr.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RecoveryEngine;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

@DisplayName("@InjectFault naming a tool that does not exist fails the test before it runs")
class MisspelledToolTest {

  /** A user's test with a typo in the tool name; run through the real JUnit engine below. */
  @HfrFaults
  static class UsersTest {
    @Test
    @InjectFault(tool = "Warehouse.shipp", fault = Fault.T1)
    void shipsDespiteA503(RecoveryEngine engine) {
      Warehouse_Recovering.create(engine).ship("SKU-1", 1);
    }
  }

  @Test
  void theFailureNamesTheUnknownToolAndTheKnownOnes() {
    var results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(UsersTest.class)).execute();

    results.testEvents().assertStatistics(stats -> stats.started(1).failed(1).succeeded(0));
    Throwable failure = results.testEvents().failed().stream().findFirst()
        .flatMap(Event::getPayload)
        .map(p -> ((org.junit.platform.engine.TestExecutionResult) p).getThrowable().orElseThrow())
        .orElseThrow();
    assertThat(failure).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("@InjectFault(tool = \"Warehouse.shipp\") names no HFR tool")
        .hasMessageContaining("Warehouse.ship,");
  }
}
