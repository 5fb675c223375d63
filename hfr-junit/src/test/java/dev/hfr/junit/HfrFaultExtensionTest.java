package dev.hfr.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.VirtualTime;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@HfrFaults
@DisplayName("@InjectFault puts faults under the engine, and HfrAssertions reads what it did")
class HfrFaultExtensionTest {

  @Test
  @DisplayName("without a planned fault, calls pass straight through")
  void noFault(RecoveryEngine engine, Hfr hfr, InjectedFaults faults) {
    Warehouse tools = Warehouse_Recovering.create(engine);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "plain").build())) {
      assertThat(tools.stock("SKU-1")).isEqualTo(5);
      HfrAssertions.assertThat(task.report()).succeeded().retries(0).escalated(0).degraded(0).hasNoDuplicates();
    }
    assertThat(faults.all()).isEmpty();
    assertThat(faults.calls("Warehouse.stock")).isEqualTo(1);
  }

  @Test
  @InjectFault(tool = "Warehouse.stock", call = 1, times = 2, fault = Fault.T1)
  @DisplayName("a transient 503 on a read is retried on virtual time until it succeeds")
  void transientReadFaultIsRetried(RecoveryEngine engine, Hfr hfr, VirtualTime time, InjectedFaults faults) {
    Warehouse tools = Warehouse_Recovering.create(engine);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "t1").build())) {
      assertThat(tools.stock("SKU-1")).isEqualTo(5);
      HfrAssertions.assertThat(task.report()).succeeded().retries(2).hasNoDuplicates();
    }
    assertThat(faults.all()).extracting(InjectedFaults.Injection::call).containsExactly(1, 2);
    assertThat(faults.calls("Warehouse.stock")).isEqualTo(3);
    assertThat(time.nanoTime()).as("backoff advanced virtual time").isPositive();
  }

  @Test
  @InjectFault(tool = "Warehouse.ship", call = 1, fault = Fault.T3, commitThenDrop = true)
  @DisplayName("an R2 write whose answer is lost after it committed is reconciled, not repeated")
  void lostAnswerOfAWriteIsReconciled(RecoveryEngine engine, Hfr hfr, List<DecisionEvent> decisions) {
    Warehouse tools = Warehouse_Recovering.create(engine);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "t3-commit").build())) {
      assertThat(tools.ship("SKU-9", 2)).isEqualTo("SHP-1");
      HfrAssertions.assertThat(task.report()).succeeded().hasNoDuplicates().escalated(0);
    }
    assertThat(tools.shipments).as("committed once, by the first call").containsExactly("SHP-1:SKU-9x2");
    assertThat(decisions).extracting(DecisionEvent::tool).contains("Warehouse.ship");
    assertThat(decisions).extracting(e -> e.action() == null ? "" : e.action().name()).contains("RECONCILE");
  }

  @Test
  @InjectFault(tool = "Warehouse.stock", call = 1, fault = Fault.T2, retryAfterSeconds = 3)
  @InjectFault(tool = "Warehouse.stock", call = 3, fault = Fault.T1)
  @DisplayName("a 429 waits for its Retry-After on virtual time")
  void rateLimitHonoursRetryAfter(RecoveryEngine engine, VirtualTime time, InjectedFaults faults) {
    Warehouse tools = Warehouse_Recovering.create(engine);
    assertThat(tools.stock("SKU-1")).isEqualTo(5);
    assertThat(tools.stock("SKU-12")).isEqualTo(6);
    assertThat(time.nanoTime()).isGreaterThanOrEqualTo(3_000_000_000L);
    assertThat(faults.all()).extracting(InjectedFaults.Injection::fault).containsExactly(Fault.T2, Fault.T1);
  }

  @Test
  @InjectFault(tool = "Warehouse.notifyCustomer", call = 1, fault = Fault.T3, commitThenDrop = true)
  @DisplayName("an irreversible write whose answer is lost is never retried")
  void irreversibleWriteIsNotRetried(RecoveryEngine engine, Hfr hfr, InjectedFaults faults) {
    Warehouse tools = Warehouse_Recovering.create(engine);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "r3").build())) {
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> tools.notifyCustomer("your parcel is late"));
      assertThat(e.outcome().status()).isIn(ToolOutcome.Status.FAILED, ToolOutcome.Status.ESCALATED);
      assertThat(e.outcome().sideEffect()).isTrue();
      HfrAssertions.assertThat(task.report()).hasNoDuplicates().retries(0);
    }
    assertThat(faults.calls("Warehouse.notifyCustomer")).isEqualTo(1);
    assertThat(tools.notices).containsExactly("your parcel is late");
  }

  @Test
  @InjectFault(tool = "Warehouse.stock", call = 1, fault = Fault.T8)
  @DisplayName("a policy refusal is not retried and is reported as such")
  void refusalIsNotRetried(RecoveryEngine engine, Hfr hfr, InjectedFaults faults) {
    Warehouse tools = Warehouse_Recovering.create(engine);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "t8").build())) {
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> tools.stock("SKU-1"));
      assertThat(e.outcome().errorType()).isEqualTo(Fault.T8);
      HfrAssertions.assertThat(task.report()).retries(0).failedTools("Warehouse.stock");
    }
    assertThat(faults.calls("Warehouse.stock")).isEqualTo(1);
  }
}
