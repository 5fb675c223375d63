package dev.hfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Every option of {@code Hfr.builder()} names the test that shows, through a running call, what it
 * changes. The options are read from {@link Hfr.Builder} by reflection, so an option added without an
 * entry here fails the build, as does an entry naming a test method that does not exist.
 */
@DisplayName("Every Hfr.builder() option has a test that proves its effect")
class BuilderOptionCoverageTest {

  private static final String ENGINE = "dev.hfr.runtime.internal.engine.";
  private static final String EFFECTS = ENGINE + "BuilderOptionEffectsTest#";

  /** option → the test that shows its effect on a call. */
  static final Map<String, String> PROOF = new LinkedHashMap<>();

  static {
    PROOF.put("clock", EFFECTS + "clock");
    PROOF.put("sleeper", EFFECTS + "sleeper");
    PROOF.put("scheduler", EFFECTS + "scheduler");
    PROOF.put("random", EFFECTS + "random");
    PROOF.put("seed", EFFECTS + "seed");
    PROOF.put("classifier", EFFECTS + "classifier");
    PROOF.put("ledger", ENGINE + "AsyncCallsTest#idempotentWriteResentUnderItsKey");
    PROOF.put("ledgerPath", "dev.hfr.runtime.LedgerSettingsTest#builderPath");
    PROOF.put("ledgerDataSource", "dev.hfr.runtime.LedgerSettingsTest#postgres");
    PROOF.put("meterRegistry", ENGINE + "CallTimingTest#everyCall");
    PROOF.put("observationRegistry", ENGINE + "ToolCallObservationTest#aRetriedReadIsOneSpanWithEachDecisionAsAnEvent");
    PROOF.put("observationConvention", ENGINE + "ToolCallObservationTest#anApplicationsConventionNamesTheObservation");
    PROOF.put("callTiming", ENGINE + "CallTimingTest#everyCall");
    PROOF.put("decisionSink", ENGINE + "DecisionEventRoutingTest#redactPii");
    PROOF.put("escalationHandler", EFFECTS + "escalationHandler");
    PROOF.put("approvalGate", ENGINE + "RecoveryRulesTest$Approvals#approvedRuns");
    PROOF.put("inbox", ENGINE + "InboxRecallTest#inboxOff");
    PROOF.put("inboxStore", ENGINE + "InboxRecallTest#storeOfYourOwn");
    PROOF.put("approvalTtl", ENGINE + "InboxRecallTest$Approvals#expiredRefused");
    PROOF.put("mode", ENGINE + "HttpToolsTest#shadowModeChangesNothing");
    PROOF.put("features", EFFECTS + "features");
    PROOF.put("config", ENGINE + "ConfigPoliciesTest#tenantOverrides");
    PROOF.put("policies", ENGINE + "RecoveryRulesTest$ControllerFailure#failsClosedForWrites");
    PROOF.put("tenantBudgets", ENGINE + "TenantIsolationTest#stormDoesNotStarveTheOtherTenant");
    PROOF.put("fleet", "dev.hfr.runtime.fleet.FleetTest#theEngineDrawsItsRetriesFromTheFleet");
    PROOF.put("circuitBreakers", EFFECTS + "circuitBreakers");
    PROOF.put("bulkheads", EFFECTS + "bulkheads");
    PROOF.put("contextCompressor", EFFECTS + "contextCompressor");
    PROOF.put("verificationHook", EFFECTS + "verificationHook");
    PROOF.put("leaseTtl", ENGINE + "WriteOwnershipTest#lapsedLeaseEndsKeyInUse");
    PROOF.put("ledgerRetention", "dev.hfr.runtime.LedgerSettingsTest#builderRetention");
    PROOF.put("maxRetryAfter", EFFECTS + "maxRetryAfter");
    PROOF.put("stackTraces", ENGINE + "StackTraceOptionTest#stackTraceWhenAsked");
    PROOF.put("checkpointTasksAtOpen", ENGINE + "TaskCheckpointsTest#checkpointsAtOpenOnRequest");
    PROOF.put("sameFaultLimit", EFFECTS + "sameFaultLimit");
    PROOF.put("checkConfig", "dev.hfr.runtime.config.ConfigCheckedAtBuildTest#optOutForASharedFile");
    PROOF.put("toolRegistry", "dev.hfr.runtime.config.ConfigCheckedAtBuildTest#misspeltToolName");
  }

  /** The builder's options: its public instance methods except {@code build()} and Object's. */
  private static TreeSet<String> options() {
    TreeSet<String> options = new TreeSet<>();
    for (Method m : Hfr.Builder.class.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && !m.getName().equals("build")) {
        options.add(m.getName());
      }
    }
    return options;
  }

  @Test
  @DisplayName("each option has an entry; an option added without a test fails here")
  void everyOptionHasAProof() {
    TreeSet<String> missing = options();
    missing.removeAll(PROOF.keySet());
    assertThat(missing).as("Hfr.Builder options without a test that proves their effect").isEmpty();
    TreeSet<String> stale = new TreeSet<>(PROOF.keySet());
    stale.removeAll(options());
    assertThat(stale).as("entries for options the builder no longer has").isEmpty();
  }

  @Test
  @DisplayName("each entry names a test method that exists")
  void everyProofIsATest() throws Exception {
    for (Map.Entry<String, String> e : PROOF.entrySet()) {
      String test = e.getValue();
      Class<?> type = Class.forName(test.substring(0, test.indexOf('#')));
      String methodName = test.substring(test.indexOf('#') + 1);
      boolean found = false;
      for (Method m : type.getDeclaredMethods()) {
        if (m.getName().equals(methodName) && (m.isAnnotationPresent(Test.class) || m.isAnnotationPresent(ParameterizedTest.class))) {
          found = true;
        }
      }
      assertThat(found).as(e.getKey() + " → " + test).isTrue();
    }
  }
}
