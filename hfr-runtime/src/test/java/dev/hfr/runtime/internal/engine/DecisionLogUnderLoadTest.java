package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionLog;
import dev.hfr.runtime.telemetry.DecisionSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("The file decision log under two callers that never pause")
class DecisionLogUnderLoadTest {

  private static final int CALLS_PER_THREAD = 5_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @DisplayName("has every decision the engine made for two threads' flaky reads in its file, one line each, none dropped")
  void everyDecisionIsInTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    DecisionLog log = DecisionLog.toFile(file).meterRegistry(registry).build();
    Counting counted = new Counting(log);
    Fixtures f = new Fixtures();
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try (Hfr hfr = Hfr.builder().clock(f.time).sleeper(f.time).ledger(f.ledger).decisionSink(counted)
        .features(HfrFeatures.builder().circuitBreaker(false).build()) // half the attempts fail, by design
        .tenantBudgets(TenantRetryBudgets.builder(f.time).retriesPerWindow(Integer.MAX_VALUE / 2).window(Duration.ofSeconds(1)).build())
        .build()) {
      CountDownLatch start = new CountDownLatch(1);
      ToolDescriptor search = Fixtures.read("search");
      List<Future<Integer>> threads = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        String query = "q-" + t;
        threads.add(callers.submit(() -> {
          start.await();
          int answered = 0;
          for (int i = 0; i < CALLS_PER_THREAD; i++) { // no pause between calls
            ScriptedTool<String> read = new ScriptedTool<String>(query).fails(Fixtures.unavailable()).returns("hits");
            if ("hits".equals(hfr.execute(search, read))) {
              answered++;
            }
          }
          return answered;
        }));
      }
      start.countDown();
      for (Future<Integer> thread : threads) {
        assertThat(thread.get(5, TimeUnit.MINUTES)).isEqualTo(CALLS_PER_THREAD);
      }
    } finally {
      callers.shutdownNow();
    }
    log.close(); // writes what is queued

    long lines;
    long retries;
    try (Stream<String> all = Files.lines(file)) {
      List<String> read = all.toList();
      lines = read.size();
      retries = read.stream().filter(line -> "RETRY".equals(action(line))).count();
    }
    assertThat(counted.events.sum()).as("decisions handed to the log").isGreaterThanOrEqualTo(2L * CALLS_PER_THREAD);
    assertThat(lines).as("lines in the file").isEqualTo(counted.events.sum());
    assertThat(retries).as("one retry per call").isEqualTo(2L * CALLS_PER_THREAD);
    assertThat(log.dropped()).isZero();
    assertThat(registry.get(DecisionLog.DROPPED).functionCounter().count()).isZero();
  }

  private static String action(String line) {
    try {
      return JSON.readTree(line).path("action").asText();
    } catch (java.io.IOException e) {
      throw new AssertionError("not one JSON object: " + line, e);
    }
  }

  /** Counts what the engine hands to the log, on the calling threads, then hands it on. */
  private static final class Counting implements DecisionSink {
    final LongAdder events = new LongAdder();
    final DecisionLog log;

    Counting(DecisionLog log) {
      this.log = log;
    }

    @Override
    public void record(DecisionEvent event) {
      events.increment();
      log.record(event);
    }

    @Override
    public boolean wantsEvents() {
      return log.wantsEvents();
    }
  }
}
