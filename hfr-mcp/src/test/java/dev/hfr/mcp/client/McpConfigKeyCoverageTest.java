package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every key the {@code hfr.mcp} section accepts names the test that proves what it does, as the runtime's
 * {@code ConfigKeyCoverageTest} does for its own keys. The keys come from the section itself
 * ({@link McpConfigSection#keys()}), so a key added without an entry here fails the build.
 */
class McpConfigKeyCoverageTest {

  private static final String P = "dev.hfr.mcp.client.";
  static final Map<String, String> PROOF = new LinkedHashMap<>();

  static {
    PROOF.put("servers.*.trusted", P + "McpToolRiskTest#aTrustedServersHintsAreBelieved");
    PROOF.put("servers.*.default_risk", P + "McpToolRiskTest#theServersDefaultRiskAppliesToToolsNobodyConfigured");
    PROOF.put("servers.*.tools", P + "HfrMcpClientTest#risksComeFromTheConfigurationAndHintsNeverLowerThem");
    PROOF.put("servers.*.tools.*.risk", P + "HfrMcpClientTest#risksComeFromTheConfigurationAndHintsNeverLowerThem");
    PROOF.put("servers.*.tools.*.reconcile", P + "HfrMcpClientTest#aCreateWhoseAnswerIsLostWithTheConnectionIsReconciledNotResent");
    PROOF.put("servers.*.tools.*.approval", P + "McpToolSettingsEffectTest#approvalMakesEveryCallWaitForTheGateWhichRefusesByDefault");
    PROOF.put("servers.*.tools.*.criticality",
        P + "McpToolSettingsEffectTest#highCriticalityEscalatesAnUnclassifiedWriteFailureInsteadOfReconcilingIt");
    PROOF.put("servers.*.tools.*.trusted", P + "McpToolSettingsEffectTest#trustingALyingServerIsWhatResendsItsWrite");
    PROOF.put("servers.*.tools.*.degrade_to", P + "McpToolLadderTest#aReadTheServerRejectsDegradesToTheOtherServersToolWithMappedArguments");
    PROOF.put("servers.*.tools.*.reconcile.tool", P + "HfrMcpClientTest#aCreateWhoseAnswerIsLostWithTheConnectionIsReconciledNotResent");
    PROOF.put("servers.*.tools.*.reconcile.arguments",
        P + "HfrMcpClientTest#aCreateThatWasNotCommittedIsSentAgainAfterReconciliationFindsNothing");
    PROOF.put("servers.*.tools.*.reconcile.found_at",
        P + "HfrMcpClientTest#aCreateThatWasNotCommittedIsSentAgainAfterReconciliationFindsNothing");
    PROOF.put("servers.*.tools.*.degrade_to[].tool",
        P + "McpToolLadderTest#aReadTheServerRejectsDegradesToTheOtherServersToolWithMappedArguments");
    PROOF.put("servers.*.tools.*.degrade_to[].level", P + "McpToolLadderTest#theRungIsInTheDescriptorWithItsLevelAndTheOtherServersRisk");
    PROOF.put("servers.*.tools.*.degrade_to[].arguments", P + "McpToolLadderTest#aRungWithoutArgumentsTakesTheCallsOwn");
  }

  @Test
  void eachKeyOfTheSectionHasAnEntry() {
    TreeSet<String> missing = new TreeSet<>(new McpConfigSection().keys());
    missing.removeAll(PROOF.keySet());
    assertThat(missing).as("keys hfr.mcp accepts without a test that proves their effect").isEmpty();
    TreeSet<String> stale = new TreeSet<>(PROOF.keySet());
    stale.removeAll(new McpConfigSection().keys());
    assertThat(stale).as("entries for keys the section no longer accepts").isEmpty();
  }

  @Test
  void eachEntryNamesATestThatExists() throws Exception {
    for (Map.Entry<String, String> e : PROOF.entrySet()) {
      String test = e.getValue();
      Class<?> type = Class.forName(test.substring(0, test.indexOf('#')));
      String name = test.substring(test.indexOf('#') + 1);
      boolean found = false;
      for (Method m : type.getDeclaredMethods()) {
        found |= m.getName().equals(name) && m.isAnnotationPresent(Test.class);
      }
      assertThat(found).as(e.getKey() + " → " + test).isTrue();
    }
  }

  @Test
  void theRuntimesLoaderFindsTheSectionThroughItsServiceFile() {
    var config = dev.hfr.runtime.config.HfrConfigLoader.parse("hfr:\n  mcp:\n    servers: {tracker: {trusted: true}}\n", "hfr.yaml");
    assertThat(McpClientConfig.from(config).server("tracker").trusted()).isTrue();
  }
}
