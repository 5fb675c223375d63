package dev.hfr.samples.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.samples.services.InjectedFault;
import dev.hfr.samples.services.ShopServices;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Asynchronous tools through the generated proxy, against the loopback shop")
class AsyncToolsTest {

  @Test
  @DisplayName("an R2 order whose answer is lost after it committed is reconciled, never placed twice")
  void lostAnswerIsReconciled() throws Exception {
    try (ShopServices shop = ShopServices.start();
        Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(DecisionSink.discarding()).build()) {
      // The order's answer comes long after the client gives up; the reconcile query must be answered within the
      // same timeout: 2 s leaves room for a loaded CI machine (2 cores, load 20), where 500 ms was tight.
      shop.plan("POST /orders", InjectedFault.commitThenStall(Duration.ofSeconds(30)));
      AsyncShop tools = AsyncShop_Recovering.create(hfr, shop.baseUri(), Duration.ofSeconds(2));

      try (TaskScope task = hfr.openTask(TaskSpec.builder("shop", "order-1").build())) {
        CompletableFuture<String> order = tools.createOrder("ref-1", "sku-lamp", 2);
        assertThat(order.get(60, TimeUnit.SECONDS)).startsWith("ord-");
        TaskReport report = task.report();
        assertThat(report.succeeded()).isEqualTo(1);
        assertThat(report.duplicateSideEffects()).isZero();
        assertThat(task.lastOutcome().reason()).isEqualTo("reconciled_committed");
      }
      assertThat(shop.committedOrders()).as("the shop holds one order").isEqualTo(1);
      assertThat(shop.log()).filteredOn(line -> line.startsWith("POST /orders")).as("the write was sent once").hasSize(1);
    }
  }

  @Test
  @DisplayName("100 calls waiting out a 3 s backoff hold no thread: the retries start on the given scheduler")
  void backoffHoldsNoThread() throws Exception {
    AtomicInteger timers = new AtomicInteger();
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, r -> {
      Thread t = new Thread(r, "hfr-test-timer-" + timers.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try (ShopServices shop = ShopServices.start();
        Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(DecisionSink.discarding())
            .scheduler(scheduler)
            // A fixed 3 s backoff; no breaker, which would open after 100 failures of one tool and is not what this test is about.
            .features(HfrFeatures.all().toBuilder().backoff(HfrFeatures.Backoff.FIXED).circuitBreaker(false).build())
            .build()) {
      // Timeouts only against a hang: 100 requests at once answer slowly on a loaded machine.
      AsyncShop tools = AsyncShop_Recovering.create(hfr, shop.baseUri(), Duration.ofSeconds(30));
      assertThat(tools.search("lamp").toCompletableFuture().get(60, TimeUnit.SECONDS)).isEqualTo("sku-lamp");
      int calls = 100;
      InjectedFault[] unavailable = new InjectedFault[calls];
      Arrays.fill(unavailable, InjectedFault.unavailable());
      shop.plan("GET /search", unavailable);
      // The scheduler's one thread waits here until the threads are counted: no retry can start before then, however
      // loaded the machine (a 3 s backoff alone was a race against the 100 first attempts at load 20).
      CountDownLatch counted = new CountDownLatch(1);
      scheduler.execute(() -> {
        try {
          counted.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Set<Long> threadsBefore = Thread.getAllStackTraces().keySet().stream().map(Thread::getId).collect(Collectors.toSet());

      List<CompletableFuture<String>> searches = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        searches.add(tools.search("lamp").toCompletableFuture());
      }
      while (shop.log().stream().filter(l -> l.contains("503")).count() < calls) {
        Thread.sleep(10);
      }
      Thread.sleep(300);   // every call has failed once and is waiting out its second
      // Threads started meanwhile, but for the HTTP client's workers, which the JDK adds on its own when 100 answers
      // arrive at once on a loaded machine: a thread per waiting call would show here 100 times.
      List<String> threadsAdded = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> !threadsBefore.contains(t.getId()))
          .map(Thread::getName)
          .filter(name -> !name.startsWith("HttpClient-"))
          .sorted().toList();
      long inBlockingDriver = Thread.getAllStackTraces().values().stream()
          .filter(stack -> Arrays.stream(stack).anyMatch(f -> f.getClassName().startsWith("dev.hfr.runtime.internal.engine.BlockingDriver")))
          .count();
      assertThat(searches).as("still waiting").noneMatch(CompletableFuture::isDone);
      counted.countDown();

      for (CompletableFuture<String> search : searches) {
        assertThat(search.get(60, TimeUnit.SECONDS)).isEqualTo("sku-lamp");
      }
      assertThat(threadsAdded).as("threads added while %d calls wait", calls).hasSizeLessThanOrEqualTo(5);
      assertThat(inBlockingDriver).as("threads inside the blocking driver").isZero();
      assertThat(tools.searchCallers.stream().filter(name -> name.startsWith("hfr-test-timer")).count())
          .as("retries started by the scheduler given to the builder").isEqualTo(calls);
    } finally {
      scheduler.shutdownNow();
    }
  }
}
