package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.VirtualTime;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Breakers and retry budgets at the volume of a real service, on virtual time: a shop answering 100 tasks a
 * second (search R0, createOrder R2 with a lookup, charge R1 under its key, sendMail R3 — 400 calls a second)
 * for minutes, a fifth of its answers faulty (503, 429 with {@code Retry-After: 1}, or the answer lost after the
 * write was applied). Every call goes through the engine's real asynchronous path with the defaults a user
 * gets; {@link VirtualScheduler} runs the backoffs in no real time. With an absolute budget of 600 retries a
 * minute this shop finished a quarter of its tasks: the budget was gone in seconds, and five random failures in
 * a row opened its breakers every forty.
 */
@DisplayName("Guards under load: budgets and breakers at 400 calls a second")
class GuardsUnderLoadTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long LATENCY = 10_000_000L;

  /** Which answer an attempt gets. */
  enum Answer { OK, UNAVAILABLE, RATE_LIMITED, LOST_AFTER_COMMIT }

  /** The shop's side: what it applied, counted per order and payment, and its faults, drawn per attempt. */
  static final class Shop {
    final VirtualScheduler scheduler;
    final SplittableRandom random;
    final double faultRate;
    final Map<String, Integer> orders = new ConcurrentHashMap<>();
    final Map<String, String> paymentsByKey = new ConcurrentHashMap<>();
    final Map<String, Integer> chargesByRef = new ConcurrentHashMap<>();
    final Map<String, Integer> mails = new ConcurrentHashMap<>();
    final AtomicInteger requests = new AtomicInteger();

    Shop(VirtualScheduler scheduler, long seed, double faultRate) {
      this.scheduler = scheduler;
      this.random = new SplittableRandom(seed);
      this.faultRate = faultRate;
    }

    Answer draw() {
      requests.incrementAndGet();
      if (random.nextDouble() >= faultRate) {
        return Answer.OK;
      }
      return Answer.values()[1 + random.nextInt(3)];
    }

    /** The answer after the service's latency; {@code apply} runs unless the fault refused the request. */
    <R> CompletionStage<R> answer(Answer a, java.util.function.Supplier<R> apply) {
      CompletableFuture<R> out = new CompletableFuture<>();
      scheduler.schedule(() -> {
        switch (a) {
          case OK -> out.complete(apply.get());
          case UNAVAILABLE -> out.completeExceptionally(new HttpCallException(503, Map.of(), "unavailable"));
          case RATE_LIMITED -> out.completeExceptionally(
              new HttpCallException(429, Map.of("retry-after", List.of("1")), "{\"error\":\"rate_limited\"}"));
          case LOST_AFTER_COMMIT -> {
            apply.get();
            out.completeExceptionally(new HttpTimeoutException("request timed out"));
          }
        }
      }, LATENCY, java.util.concurrent.TimeUnit.NANOSECONDS);
      return out;
    }

    int duplicates() {
      int dup = 0;
      for (int n : orders.values()) {
        dup += n - 1;
      }
      for (int n : chargesByRef.values()) {
        dup += n - 1;
      }
      return dup;
    }
  }

  static final ToolDescriptor SEARCH = ToolDescriptor.builder("com.shop.Catalog", "search", Risk.R0)
      .parameters("q").resultType(String.class).build();
  static final ToolDescriptor CREATE_ORDER = ToolDescriptor.builder("com.shop.Orders", "createOrder", Risk.R2)
      .parameters("ref").reconcile("findOrder").resultType(String.class).build();
  static final ToolDescriptor CHARGE = ToolDescriptor.builder("com.shop.Payments", "charge", Risk.R1)
      .parameters("ref", "idempotencyKey").idempotencyKeyParameter(1).resultType(String.class).build();
  static final ToolDescriptor SEND_MAIL = ToolDescriptor.builder("com.shop.Mail", "send", Risk.R3)
      .parameters("to").resultType(String.class).build();

  /** One asynchronous call of a shop tool with one argument (and, for the charge, the engine's key). */
  abstract static class ShopCall extends AsyncToolInvocation<String> {
    final Shop shop;
    final String arg;

    ShopCall(Shop shop, String arg) {
      this.shop = shop;
      this.arg = arg;
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return arg;
    }
  }

  /** What a run of the shop saw. */
  record Run(int tasks, int tasksOk, long breakerOpens, int budgetRefusals, int budgetWaits, int r1EscalatedForRefusal,
      int duplicates, int calls, Map<Reason, Integer> failures) {
    double okShare() {
      return tasksOk / (double) tasks;
    }
  }

  /** Decisions counted, not kept: hundreds of thousands of them. */
  static final class CountingSink implements DecisionSink {
    final Map<Reason, Integer> terminal = new ConcurrentHashMap<>();
    final AtomicInteger budgetRefusals = new AtomicInteger();
    final AtomicInteger budgetWaits = new AtomicInteger();
    final AtomicInteger r1Escalated = new AtomicInteger();

    @Override
    public void record(DecisionEvent e) {
      if (e.reason() == Reason.TENANT_BUDGET_EXHAUSTED) {
        if (e.action() == Action.RETRY) {
          budgetWaits.incrementAndGet();
        } else {
          budgetRefusals.incrementAndGet();
        }
      }
      if (e.action().isTerminal()) {
        terminal.merge(e.reason(), 1, Integer::sum);
        // An R1 write escalated because a guard refused its resend under the key (not because its own attempts ran out).
        if (e.action() == Action.ESCALATE && e.risk() == Risk.R1
            && (e.reason() == Reason.TENANT_BUDGET_EXHAUSTED || e.reason() == Reason.CIRCUIT_OPEN)) {
          r1Escalated.incrementAndGet();
        }
      }
    }
  }

  /** {@code seconds} of 100 tasks a second against a shop failing {@code faultRate} of its answers. */
  static Run run(int seconds, double faultRate, long seed, Consumer<Hfr.Builder> settings) {
    return run(seconds, faultRate, seed, false, settings);
  }

  /** As {@link #run(int, double, long, Consumer)}; {@code searchOnly}: each task is its search alone (400 a second). */
  static Run run(int seconds, double faultRate, long seed, boolean searchOnly, Consumer<Hfr.Builder> settings) {
    VirtualTime time = new VirtualTime(1_700_000_000_000L);
    VirtualScheduler scheduler = new VirtualScheduler(time);
    Shop shop = new Shop(scheduler, seed, faultRate);
    CountingSink sink = new CountingSink();
    Hfr.Builder b = Hfr.builder().clock(time).sleeper(time).scheduler(scheduler).seed(seed)
        .ledger(new InMemoryLedger(time)).decisionSink(sink);
    settings.accept(b);
    AtomicInteger ok = new AtomicInteger();
    int perSecond = searchOnly ? 400 : 100;
    int tasks = seconds * perSecond;
    try (Hfr hfr = b.build()) {
      for (int i = 0; i < tasks; i++) {
        String id = "t" + i;
        scheduler.at(i * (SECOND / perSecond), () -> (searchOnly ? search(hfr, shop, id) : task(hfr, shop, id)).whenComplete((r, e) -> {
          if (e == null) {
            ok.incrementAndGet();
          }
        }));
      }
      scheduler.runUntil((seconds + 60) * SECOND);
      long opens = hfr.circuitBreakers().map(cb -> cb.all().stream().mapToLong(CircuitBreaker::openedCount).sum()).orElse(0L);
      return new Run(tasks, ok.get(), opens, sink.budgetRefusals.get(), sink.budgetWaits.get(), sink.r1Escalated.get(),
          shop.duplicates(), shop.requests.get(), Map.copyOf(sink.terminal));
    }
  }

  /** The search of a task. */
  private static CompletableFuture<String> search(Hfr hfr, Shop shop, String id) {
    return hfr.executeAsync(SEARCH, new ShopCall(shop, id) {
      @Override
      public CompletionStage<String> start(String key) {
        return shop.answer(shop.draw(), () -> "hits for " + arg);
      }
    });
  }

  /** One task: search, then create the order, charge it and mail the receipt, each after the one before. */
  private static CompletableFuture<String> task(Hfr hfr, Shop shop, String id) {
    return search(hfr, shop, id).thenCompose(hits -> hfr.executeAsync(CREATE_ORDER, new ShopCall(shop, id) {
      @Override
      public CompletionStage<String> start(String key) {
        return shop.answer(shop.draw(), () -> {
          shop.orders.merge(arg, 1, Integer::sum);
          return "order " + arg;
        });
      }

      @Override
      public Optional<String> reconcile() {
        return shop.orders.containsKey(arg) ? Optional.of("order " + arg) : Optional.empty();
      }
    })).thenCompose(order -> hfr.executeAsync(CHARGE, new ShopCall(shop, id) {
      @Override
      public CompletionStage<String> start(String key) {
        return shop.answer(shop.draw(), () -> shop.paymentsByKey.computeIfAbsent(key, k -> {
          shop.chargesByRef.merge(arg, 1, Integer::sum);
          return "receipt " + arg;
        }));
      }
    })).thenCompose(receipt -> hfr.executeAsync(SEND_MAIL, new ShopCall(shop, id) {
      @Override
      public CompletionStage<String> start(String key) {
        return shop.answer(shop.draw(), () -> {
          shop.mails.merge(arg, 1, Integer::sum);
          return "sent";
        });
      }
    }));
  }

  @Test
  @DisplayName("defaults, 20 % faults, 2 minutes: ≥ 75 % of tasks ok, no breaker opens, budget refusals < 1 % of"
      + " calls, no R1 write escalated, no duplicate")
  void ordinaryFaultsAreRetriedNotStarved() {
    Run run = run(120, 0.2, 1, b -> {});
    System.out.println("defaults at 20 % faults: " + run);
    assertThat(run.okShare()).as("tasks ok").isGreaterThanOrEqualTo(0.75);
    assertThat(run.breakerOpens()).as("breaker opens").isZero();
    assertThat(run.budgetRefusals()).as("budget refusals").isLessThan(run.calls() / 100);
    assertThat(run.r1EscalatedForRefusal()).as("R1 writes escalated for a refused resend").isZero();
    assertThat(run.duplicates()).as("duplicates").isZero();
  }

  @Test
  @DisplayName("the old absolute budget (retry_ratio 0, 600 a minute) on the same shop: the budget runs out and tasks fail")
  void theAbsoluteBudgetStarvesTheSameShop() {
    Run run = run(60, 0.2, 1, b -> b.config(HfrConfigLoader.parse("hfr:\n  retry:\n    retry_ratio: 0\n", "hfr.yaml")));
    System.out.println("retry_ratio 0 at 20 % faults: " + run);
    assertThat(run.budgetRefusals()).as("budget refusals").isGreaterThan(run.calls() / 100);
    assertThat(run.okShare()).as("tasks ok").isLessThan(0.75);
    assertThat(run.duplicates()).isZero();
  }

  @Test
  @DisplayName("a dying shop (90 % faults): retries stay a share of the calls, and the breakers open")
  void aDyingShopIsNotHammered() {
    Run run = run(60, 0.9, 2, b -> {});
    System.out.println("defaults at 90 % faults: " + run);
    // Without budgets and breakers each call would make 4 attempts; the share holds retries to half the calls.
    assertThat(run.calls()).as("requests the shop saw").isLessThan(60 * 400 * 2);
    assertThat(run.breakerOpens()).as("breaker opens").isPositive();
    assertThat(run.duplicates()).isZero();
  }

  @Test
  @DisplayName("an R1 write whose answer was lost waits for the budget and is resent under its key, never escalated")
  void lostAnswersOfIdempotentWritesWaitForTheBudget() {
    // A floor of one retry a minute and no share: almost every resend must wait for the floor's next token.
    Run run = run(20, 0.2, 3, b -> b.config(HfrConfigLoader.parse(
        "hfr:\n  retry:\n    retry_ratio: 0\n    max_retries_per_tenant_per_min: 60\n", "hfr.yaml")).maxRetryAfter(java.time.Duration.ofMinutes(5)));
    System.out.println("a starved budget: " + run);
    assertThat(run.budgetWaits()).as("retries that waited for the budget").isPositive();
    assertThat(run.r1EscalatedForRefusal()).as("R1 writes escalated for a refused resend").isZero();
    assertThat(run.duplicates()).isZero();
  }

  @Test
  @DisplayName("a search failing half its answers at 400 calls a second: ≥ 92 % ok, no breaker opens, no budget refusal;"
      + " at half a retry per call, a fifth of the searches are refused a retry")
  void aHalfFlakyReadKeepsItsRetries() {
    Run defaults = run(30, 0.5, 5, true, b -> {});
    Run half = run(30, 0.5, 5, true, b -> b.config(HfrConfigLoader.parse("hfr:\n  retry:\n    retry_ratio: 0.5\n", "hfr.yaml")));
    System.out.println("a half-flaky search, defaults: " + defaults + "\n  retry_ratio 0.5: " + half);
    // Four attempts, and three of one class in a row end a step: 93.1 % with this seed.
    assertThat(defaults.okShare()).as("searches ok").isGreaterThanOrEqualTo(0.92);
    assertThat(defaults.breakerOpens()).isZero();
    assertThat(defaults.budgetRefusals()).isZero();
    assertThat(half.budgetRefusals()).as("refusals at half a retry per call").isGreaterThan(half.tasks() / 10);
    assertThat(half.okShare()).isLessThan(defaults.okShare());
  }
}
