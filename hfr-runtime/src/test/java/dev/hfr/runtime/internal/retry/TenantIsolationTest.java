package dev.hfr.runtime.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.time.VirtualTime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Through the gate, one tenant's 429 storm cannot starve another tenant's retries")
class TenantIsolationTest {

  private static final RetrySpec SPEC = RetrySpec.of(4, 200, 2000, Fault.T1, Fault.T2);

  @Test
  void stormIsCappedAndTheCalmTenantKeepsItsRetries() throws Exception {
    VirtualTime time = new VirtualTime();
    TenantRetryBudgets tenants = TenantRetryBudgets.builder(time).retriesPerWindow(200).build();
    RetryGate gate = RetryGate.builder().tenantBudgets(tenants).build();
    AtomicInteger stormGranted = new AtomicInteger();
    AtomicInteger stormRefusedByTenant = new AtomicInteger();
    AtomicInteger calmGranted = new AtomicInteger();
    AtomicInteger calmRefusedByTenant = new AtomicInteger();

    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    Future<?>[] futures = new Future<?>[8];
    for (int t = 0; t < 8; t++) {
      boolean storm = t < 6;
      futures[t] = pool.submit(() -> {
        start.await();
        // The stormer runs many tasks that each hit 429 on every attempt; the calm tenant runs a few
        // tasks that need one retry each.
        int tasks = storm ? 2_000 : 25;
        for (int task = 0; task < tasks; task++) {
          RetryBudget budget = RetryBudget.perTask(10);
          RetryBudget.Step step = budget.openStep(4);
          AttemptHistory history = new AttemptHistory();
          for (int attempt = 0; attempt < (storm ? 4 : 1); attempt++) {
            Fault fault = storm ? Fault.T2 : Fault.T1;
            history.recordFailure(fault, true);
            RetryVerdict verdict = gate.check(
                RetryRequest.builder(fault, Risk.R0, SPEC, history, step).tenant(storm ? "stormy" : "calm").build());
            if (verdict.retry()) {
              (storm ? stormGranted : calmGranted).incrementAndGet();
            } else {
              if (verdict.reason() == StopReason.TENANT_BUDGET_EXHAUSTED) {
                (storm ? stormRefusedByTenant : calmRefusedByTenant).incrementAndGet();
              }
              break;
            }
          }
        }
        return null;
      });
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();

    assertThat(stormGranted.get()).isEqualTo(200);
    assertThat(stormRefusedByTenant.get()).isPositive();
    assertThat(calmGranted.get()).isEqualTo(2 * 25);
    assertThat(calmRefusedByTenant.get()).isZero();
  }
}
