package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Bulkhead: non-blocking permits per target, some held back for critical calls")
class BulkheadTest {

  @Test
  @DisplayName("ordinary calls stop at max minus the reserve; critical calls may use the reserve")
  void reserveForCritical() {
    Bulkhead b = new Bulkhead(TargetKind.TOOL, "Orders.create", 3, 1);
    assertThat(b.tryAcquire()).isTrue();
    assertThat(b.tryAcquire()).isTrue();
    assertThat(b.tryAcquire()).isFalse();
    assertThat(b.tryAcquire(true)).isTrue();
    assertThat(b.tryAcquire(true)).isFalse();
    assertThat(b.inUse()).isEqualTo(3);
    b.release();
    assertThat(b.available()).isEqualTo(1);
  }

  @Test
  @DisplayName("releasing more than was acquired is refused")
  void overRelease() {
    Bulkhead b = new Bulkhead(TargetKind.TOOL, "t", 1, 0);
    assertThatThrownBy(b::release).isInstanceOf(IllegalStateException.class).hasMessageContaining("tool:t");
  }

  @Test
  @DisplayName("bad sizes are refused by name")
  void badSizes() {
    assertThatThrownBy(() -> new Bulkhead(TargetKind.TOOL, "t", 0, 0)).hasMessageContaining("maxConcurrent");
    assertThatThrownBy(() -> new Bulkhead(TargetKind.TOOL, "t", 2, 2)).hasMessageContaining("reservedForCritical");
    assertThatThrownBy(() -> Bulkheads.builder().override(TargetKind.MODEL, "m", 1, 1)).hasMessageContaining("model:m");
  }

  @Test
  @DisplayName("under 8 threads never more than max calls run at once")
  void contention() throws Exception {
    Bulkhead b = new Bulkhead(TargetKind.PROVIDER, "openai", 4, 0);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    AtomicInteger admitted = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    Future<?>[] futures = new Future<?>[8];
    for (int t = 0; t < 8; t++) {
      futures[t] = pool.submit(() -> {
        start.await();
        for (int i = 0; i < 20_000; i++) {
          if (b.tryAcquire()) {
            int now = running.incrementAndGet();
            peak.accumulateAndGet(now, Math::max);
            admitted.incrementAndGet();
            running.decrementAndGet();
            b.release();
          }
        }
        return null;
      });
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(peak.get()).isLessThanOrEqualTo(4);
    assertThat(admitted.get()).isPositive();
    assertThat(b.inUse()).isZero();
  }

  @Test
  @DisplayName("Bulkheads: one per target, overrides by kind and name, lookups return the same instance")
  void registry() {
    Bulkheads all = Bulkheads.builder().defaults(8, 2).override(TargetKind.TENANT, "acme", 2, 0).build();
    Bulkhead acme = all.forTarget(TargetKind.TENANT, "acme");
    assertThat(acme.maxConcurrent()).isEqualTo(2);
    assertThat(all.forTarget(TargetKind.TENANT, "acme")).isSameAs(acme);
    assertThat(all.forTarget(TargetKind.TOOL, "acme").maxConcurrent()).isEqualTo(8);
    assertThat(all.forTarget(TargetKind.TOOL, "acme").reservedForCritical()).isEqualTo(2);
    assertThat(all.all()).hasSize(2);
  }
}
