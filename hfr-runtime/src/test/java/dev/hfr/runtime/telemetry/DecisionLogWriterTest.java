package dev.hfr.runtime.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("The decision log's writer")
class DecisionLogWriterTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static DecisionEvent event(long step) {
    return new DecisionEvent(1_700_000_000_000L + step, "enforce", "acme", "task-" + step, step, "Search.find", Risk.R0, 1,
        DegradeLevel.L0, Fault.T1, 0.95, "exception.connect", Action.RETRY, Reason.RETRYABLE, 12, 3, 2, 9, null,
        "ab12cd34", null, null, null);
  }

  @Test
  @DisplayName("hands each event to the System.Logger dev.hfr.decisions as one JSON object at INFO, from its own thread")
  void systemLogger() throws Exception {
    try (CapturedLogger captured = CapturedLogger.at(Level.INFO)) {
      DecisionLog log = DecisionLog.toSystemLogger().build();
      assertThat(log.wantsEvents()).isTrue();
      for (int i = 1; i <= 3; i++) {
        log.record(event(i));
      }
      assertThat(log.flush(Duration.ofSeconds(10))).isTrue();
      log.close();

      assertThat(captured.records).hasSize(3).allSatisfy(r -> {
        assertThat(r.getLevel()).isEqualTo(Level.INFO);
        assertThat(r.getLoggerName()).isEqualTo("dev.hfr.decisions");
        assertThat(r.getLongThreadID()).isNotEqualTo(Thread.currentThread().getId());
      });
      JsonNode first = JSON.readTree(captured.messages().get(0));
      assertThat(first.get("taskId").asText()).isEqualTo("task-1");
      assertThat(first.get("action").asText()).isEqualTo("RETRY");
      assertThat(first.get("fault").asText()).isEqualTo("T1");
    }
  }

  @Test
  @DisplayName("wants no events while the logger is below INFO, as in a service logging at WARN")
  void loggerBelowInfo() throws IOException {
    try (CapturedLogger captured = CapturedLogger.at(Level.WARNING)) {
      DecisionLog log = DecisionLog.toSystemLogger().build();
      assertThat(log.wantsEvents()).isFalse();
      captured.close();
      java.util.logging.Logger.getLogger(DecisionLog.LOGGER_NAME).setLevel(Level.INFO);
      assertThat(log.wantsEvents()).as("the level is read on every decision, so a change applies at once").isTrue();
      log.close();
    }
  }

  @Test
  @DisplayName("writes the events that queued while it was busy as one batch, with one flush")
  void batches() throws Exception {
    try (CapturedLogger captured = CapturedLogger.holdingFirstRecord()) {
      DecisionLog log = DecisionLog.toSystemLogger().build();
      log.record(event(0));
      captured.awaitHolding();
      for (int i = 1; i <= 300; i++) {
        log.record(event(i));
      }
      captured.release();
      assertThat(log.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(captured.records).hasSize(301);
      assertThat(log.batches()).as("flushes for 301 events").isLessThanOrEqualTo(2);
      log.close();
    }
  }

  @Test
  @DisplayName("drops and counts what does not fit in its queue, and never makes the caller wait")
  void dropsWhenFull() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (CapturedLogger captured = CapturedLogger.holdingFirstRecord()) {
      DecisionLog log = DecisionLog.toSystemLogger().queueCapacity(16).meterRegistry(registry).build();
      log.record(event(0));
      captured.awaitHolding();
      // The writer is stuck in the logger: a blocking queue would hang here.
      assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
        for (int i = 1; i <= 100; i++) {
          log.record(event(i));
        }
      });
      assertThat(log.dropped()).isEqualTo(100 - 16);
      assertThat(registry.get(DecisionLog.DROPPED).functionCounter().count()).isEqualTo(84.0);
      captured.release();
      assertThat(log.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(captured.records).hasSize(1 + 16);
      log.close();
    }
  }

  @Test
  @DisplayName("rolls its file over by size and keeps the configured number of old files")
  void rotation(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("logs/decisions.jsonl");
    DecisionLog log = DecisionLog.toFile(file).maxFileBytes(2048).keepFiles(2).build();
    for (int i = 1; i <= 100; i++) {
      log.record(event(i));
    }
    log.close();

    try (Stream<Path> files = Files.list(file.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("decisions.jsonl", "decisions.jsonl.1", "decisions.jsonl.2");
    }
    List<Long> steps = new ArrayList<>();
    for (String name : new String[] {"decisions.jsonl.2", "decisions.jsonl.1", "decisions.jsonl"}) {
      Path part = file.resolveSibling(name);
      assertThat(Files.size(part)).isLessThanOrEqualTo(2048);
      for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
        steps.add(JSON.readTree(line).get("step").asLong());
      }
    }
    // Oldest first across the three files, ending with the last event; older files were deleted.
    assertThat(steps).isSorted().endsWith(100L);
    assertThat(steps.size()).isLessThan(100);
  }

  @Test
  @DisplayName("deletes the file that falls out of the kept ones on a thread of its own, and waits for that on close")
  void rotationDeletesInTheBackground(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    DecisionLog log = DecisionLog.toFile(file).maxFileBytes(4096).keepFiles(1).build();
    for (int i = 1; i <= 500; i++) {
      log.record(event(i));
    }
    assertThat(log.flush(Duration.ofSeconds(10))).isTrue();
    assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName).contains("hfr-decision-log-delete");
    log.close();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("decisions.jsonl", "decisions.jsonl.1");
    }
    List<String> lines = new ArrayList<>(Files.readAllLines(file.resolveSibling("decisions.jsonl.1"), StandardCharsets.UTF_8));
    lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
    assertThat(JSON.readTree(lines.get(lines.size() - 1)).get("step").asLong()).isEqualTo(500);
    for (int i = 1; i < lines.size(); i++) {
      assertThat(JSON.readTree(lines.get(i)).get("step").asLong()).as("consecutive, nothing lost within the kept files")
          .isEqualTo(JSON.readTree(lines.get(i - 1)).get("step").asLong() + 1);
    }
  }

  @Test
  @DisplayName("rotating faster than the deleter, renames each dropped file to a name of its own and deletes none itself")
  void rotationFasterThanTheDeleter(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    CountDownLatch deleterMayRun = new CountDownLatch(1);
    ExecutorService slowDeleter = Executors.newSingleThreadExecutor();
    slowDeleter.execute(() -> {
      try {
        deleterMayRun.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    RotatingFileDestination destination = new RotatingFileDestination(file, 4096, 1, slowDeleter);
    DecisionEventJson json = new DecisionEventJson();
    for (int i = 1; i <= 500; i++) {
      destination.write(json.write(event(i)));
      destination.flush(i % 2 == 0); // on the file thread or on this one, in turn
    }
    assertThat(destination.awaitWritten(System.nanoTime() + TimeUnit.SECONDS.toNanos(10))).isTrue();

    // Every line is still on disk: the writer renamed the dropped files out of the way and deleted none.
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
      }
    }
    assertThat(lines).hasSize(500);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .contains("decisions.jsonl", "decisions.jsonl.1", "decisions.jsonl.2", "decisions.jsonl.2-1", "decisions.jsonl.2-2");
    }

    deleterMayRun.countDown();
    destination.close();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("decisions.jsonl", "decisions.jsonl.1");
    }
  }

  @Test
  @DisplayName("writes a batch itself while it keeps up, hands it to its file thread while behind, and keeps the order")
  void fileThreadOnlyWhenBehind(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    RotatingFileDestination destination = new RotatingFileDestination(file, 64L << 20, 1);
    DecisionEventJson json = new DecisionEventJson();
    int step = 0;
    for (int batch = 0; batch < 3; batch++) {
      destination.write(json.write(event(++step)));
      destination.flush(false);
    }
    assertThat(destination.handedOver()).isZero();
    assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).as("written by this thread, at once").hasSize(3);

    for (int batch = 0; batch < 30; batch++) {
      for (int i = 0; i < 100; i++) {
        destination.write(json.write(event(++step)));
      }
      destination.flush(batch % 3 != 2); // behind two batches in three
    }
    assertThat(destination.handedOver()).isGreaterThanOrEqualTo(20);
    destination.close();

    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(lines).hasSize(step);
    for (int i = 0; i < lines.size(); i++) {
      assertThat(JSON.readTree(lines.get(i)).get("step").asLong()).isEqualTo(i + 1);
    }
  }

  @Test
  @DisplayName("counts a failed write of its file thread in harness.decision.sink.failures, and goes on")
  void fileWriteFailuresAreCounted() throws Exception {
    Path full = Path.of("/dev/full"); // every write fails: no space left on the device
    assumeTrue(Files.isWritable(full), "needs Linux's /dev/full");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    DecisionLog log = DecisionLog.toFile(full).meterRegistry(registry).build();
    for (int i = 1; i <= 3; i++) {
      log.record(event(i));
    }
    assertThat(log.flush(Duration.ofSeconds(10))).isTrue();
    assertThat(registry.get(HfrMeters.SINK_FAILURES).counter().count()).isGreaterThanOrEqualTo(1.0);
    log.record(event(4));
    assertThat(log.flush(Duration.ofSeconds(10))).isTrue();
    assertThat(log.written()).isEqualTo(4);
    assertThat(log.dropped()).isZero();
    log.close();
  }

  @Test
  @DisplayName("writes an event larger than its write buffer whole, between the events before and after it")
  void eventLargerThanTheBuffer(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    DecisionLog log = DecisionLog.toFile(file).build();
    String huge = "v".repeat(RotatingFileDestination.BUFFER_BYTES + 10);
    log.record(event(1));
    DecisionEvent e = event(2);
    log.record(new DecisionEvent(e.epochMillis(), e.mode(), e.tenant(), e.taskId(), e.step(), e.tool(), e.risk(), e.attempt(),
        e.rung(), e.fault(), e.confidence(), e.rule(), e.action(), e.reason(), e.delayMillis(), e.latencyMillis(),
        e.stepRetriesLeft(), e.taskRetriesLeft(), huge, e.argsHash(), null, null, null));
    log.record(event(3));
    log.close();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(lines).hasSize(3);
    assertThat(JSON.readTree(lines.get(1)).get("verifierReason").asText()).isEqualTo(huge);
    assertThat(JSON.readTree(lines.get(2)).get("step").asLong()).isEqualTo(3);
  }

  @Test
  @DisplayName("makes each batch visible in the file when it is flushed, without waiting for its buffer to fill")
  void flushedBatchesAreInTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    DecisionLog log = DecisionLog.toFile(file).build();
    for (int i = 1; i <= 3; i++) {
      log.record(event(i));
    }
    assertThat(log.flush(Duration.ofSeconds(10))).isTrue();
    assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).hasSize(3);
    log.close();
  }

  @Test
  @DisplayName("writes everything queued when it is closed")
  void closeWritesTheQueue(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    DecisionLog log = DecisionLog.toFile(file).build();
    for (int i = 1; i <= 2_000; i++) {
      log.record(event(i));
    }
    log.close();
    assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).hasSize(2_000);
    log.record(event(2_001));
    assertThat(log.dropped()).as("after close events are dropped, not written").isEqualTo(1);
  }

  @Test
  @DisplayName("writes everything queued when the JVM exits without closing it")
  void exitWritesTheQueue(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("decisions.jsonl");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), ExitWithoutClosing.class.getName(), file.toString(), "2000")
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
    assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).hasSize(2_000);
  }

  /** Records events to a file log and returns from {@code main} without closing it. */
  public static final class ExitWithoutClosing {
    public static void main(String[] args) {
      DecisionLog log = DecisionLog.toFile(Path.of(args[0])).build();
      int n = Integer.parseInt(args[1]);
      for (int i = 1; i <= n; i++) {
        log.record(event(i));
      }
    }
  }
}
