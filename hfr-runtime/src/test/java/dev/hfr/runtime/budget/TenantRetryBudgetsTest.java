package dev.hfr.runtime.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TenantRetryBudgets: per tenant, a share of its calls on top of a token bucket of retries per window")
class TenantRetryBudgetsTest {

  private final VirtualTime time = new VirtualTime();

  @Test
  @DisplayName("a tenant gets its limit per window, then nothing until time refills the bucket")
  void limitPerWindowThenRefill() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(600).window(Duration.ofMinutes(1)).build();
    int granted = 0;
    while (budgets.tryAcquire("acme")) {
      granted++;
    }
    assertThat(granted).isEqualTo(600);
    assertThat(budgets.available("acme")).isZero();
    time.advance(Duration.ofMillis(100).toNanos()); // one token per 100 ms
    assertThat(budgets.tryAcquire("acme")).isTrue();
    assertThat(budgets.tryAcquire("acme")).isFalse();
    time.advance(Duration.ofMinutes(5).toNanos());
    assertThat(budgets.available("acme")).isEqualTo(600); // never more than one window's worth
  }

  @Test
  @DisplayName("over a long storm the tenant gets its rate: capacity per window plus one initial burst, never more")
  void longRunRate() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(60).window(Duration.ofMinutes(1)).build();
    int granted = 0;
    for (int ms = 0; ms < 10 * 60_000; ms += 10) { // ten minutes, an attempt every 10 ms
      if (budgets.tryAcquire("stormy")) {
        granted++;
      }
      time.advance(Duration.ofMillis(10).toNanos());
    }
    assertThat(granted).isBetween(10 * 60, 10 * 60 + 60);
  }

  @Test
  @DisplayName("one tenant's storm leaves another tenant's budget untouched")
  void tenantsAreIsolated() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(10).build();
    for (int i = 0; i < 1_000; i++) {
      budgets.tryAcquire("stormy");
    }
    assertThat(budgets.available("stormy")).isZero();
    assertThat(budgets.available("calm")).isEqualTo(10);
    assertThat(budgets.tryAcquire("calm")).isTrue();
  }

  @Test
  @DisplayName("per-tenant overrides, including zero (no retries at all)")
  void overrides() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(5).tenant("vip", 50).tenant("frozen", 0).build();
    assertThat(budgets.limit("vip")).isEqualTo(50);
    assertThat(budgets.limit("other")).isEqualTo(5);
    assertThat(budgets.tryAcquire("frozen")).isFalse();
    time.advance(Duration.ofHours(1).toNanos());
    assertThat(budgets.tryAcquire("frozen")).isFalse();
  }

  @Test
  @DisplayName("a limit resolver (e.g. the per-tenant configuration) decides tenants without an override")
  void resolver() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(5).tenant("vip", 50)
        .limits(t -> t.startsWith("small") ? 1 : 7).build();
    assertThat(budgets.limit("vip")).isEqualTo(50);
    assertThat(budgets.limit("small-shop")).isEqualTo(1);
    assertThat(budgets.limit("other")).isEqualTo(7);
    assertThat(budgets.tryAcquire("small-shop")).isTrue();
    assertThat(budgets.tryAcquire("small-shop")).isFalse();
    TenantRetryBudgets broken = TenantRetryBudgets.builder(time).limits(t -> -3).build();
    assertThatThrownBy(() -> broken.tryAcquire("x")).hasMessageContaining("negative limit");
  }

  @Test
  @DisplayName("a refund returns a token, never beyond capacity")
  void refund() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(2).build();
    budgets.tryAcquire("a");
    budgets.tryAcquire("a");
    budgets.refund("a");
    assertThat(budgets.available("a")).isEqualTo(1);
    budgets.refund("a");
    budgets.refund("a");
    assertThat(budgets.available("a")).isEqualTo(2);
  }

  @Test
  @DisplayName("the builder names the bad argument")
  void builderChecks() {
    assertThatThrownBy(() -> TenantRetryBudgets.builder(time).retriesPerWindow(-1)).hasMessageContaining("retriesPerWindow");
    assertThatThrownBy(() -> TenantRetryBudgets.builder(time).window(Duration.ZERO)).hasMessageContaining("window");
    assertThatThrownBy(() -> TenantRetryBudgets.builder(time).tenant(" ", 1)).hasMessageContaining("tenant");
    assertThatThrownBy(() -> TenantRetryBudgets.builder(null)).hasMessageContaining("clock");
  }

  @Test
  @DisplayName("8 threads storming two tenants: each tenant gets exactly its limit, no more, no less")
  void contention() throws Exception {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(5_000).build();
    AtomicInteger stormy = new AtomicInteger();
    AtomicInteger calm = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    Future<?>[] futures = new Future<?>[8];
    for (int t = 0; t < 8; t++) {
      boolean isStormy = t < 6;
      futures[t] = pool.submit(() -> {
        start.await();
        for (int i = 0; i < 20_000; i++) {
          if (isStormy ? budgets.tryAcquire("stormy") : budgets.tryAcquire("calm")) {
            (isStormy ? stormy : calm).incrementAndGet();
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
    assertThat(stormy.get()).isEqualTo(5_000);
    assertThat(calm.get()).isEqualTo(5_000);
  }

  @Test
  @DisplayName("the share grows with traffic: at 400 calls a second and half a retry per call, a tenant may retry 200 a second")
  void theShareScalesWithCalls() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(0).ratio(0.5).build(); // no floor
    java.util.concurrent.atomic.LongAdder calls = budgets.calls("busy");
    int granted = 0;
    int asked = 0;
    for (int ms = 0; ms < 60_000; ms++) { // a minute: 400 calls and 300 wanted retries a second
      if (ms % 10 < 4) {
        calls.increment();
      }
      if (ms % 10 < 3) {
        asked++;
        if (budgets.tryAcquire("busy")) {
          granted++;
        }
      }
      time.advance(Duration.ofMillis(1).toNanos());
    }
    // Half a retry per call: 200 a second of the 300 asked, over the minute (less the first second's ramp).
    assertThat(granted).isBetween(200 * 58, 200 * 60);
    assertThat(asked).isEqualTo(300 * 60);
  }

  @Test
  @DisplayName("the floor lets a quiet tenant retry; the share adds to it, never replaces it")
  void floorAndShareAdd() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(6).ratio(0.5).build();
    budgets.calls("quiet").add(10);
    time.advance(Duration.ofSeconds(1).toNanos());
    int granted = 0;
    while (budgets.tryAcquire("quiet")) {
      granted++;
    }
    assertThat(granted).isEqualTo(6 + 5); // the floor's bucket, and half of the ten calls
  }

  @Test
  @DisplayName("an empty budget says when its next retry comes: at the tenant's rate of calls, or the floor's next token")
  void nanosUntilAvailable() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(60).ratio(0).build();
    while (budgets.tryAcquire("t")) {
      // empty the floor
    }
    assertThat(budgets.nanosUntilAvailable("t")).isEqualTo(Duration.ofSeconds(1).toNanos()); // 60 a minute
    TenantRetryBudgets share = TenantRetryBudgets.builder(time).retriesPerWindow(0).ratio(0.5).build();
    share.calls("s").add(1_000);
    time.advance(Duration.ofSeconds(10).toNanos());
    while (share.tryAcquire("s")) {
      // take what 1000 calls in ten seconds earned
    }
    long wait = share.nanosUntilAvailable("s");
    // 100 calls a second earn 50 retries a second: the next one in about 20 ms, and never more than a second.
    assertThat(wait).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(budgets.nanosUntilAvailable("other")).isZero();
  }

  @Test
  @DisplayName("the share is each tenant's own: one tenant's calls earn nothing for another")
  void sharesAreIsolated() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(0).ratio(0.5).build();
    budgets.calls("busy").add(1_000);
    time.advance(Duration.ofSeconds(1).toNanos());
    assertThat(budgets.available("busy")).isEqualTo(500);
    assertThat(budgets.tryAcquire("idle")).isFalse();
  }

  @Test
  @DisplayName("calls older than ten seconds earn nothing any more")
  void sharesExpire() {
    TenantRetryBudgets budgets = TenantRetryBudgets.builder(time).retriesPerWindow(0).build();
    budgets.calls("t").add(50);
    time.advance(Duration.ofSeconds(1).toNanos());
    assertThat(budgets.available("t")).isEqualTo(50);
    time.advance(Duration.ofSeconds(11).toNanos());
    assertThat(budgets.available("t")).isZero();
  }
}
