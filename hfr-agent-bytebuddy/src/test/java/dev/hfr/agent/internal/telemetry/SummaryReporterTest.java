package dev.hfr.agent.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.internal.record.Decision;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.classify.Classification;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SummaryReporterTest {

  private final AgentMeters meters = new AgentMeters();
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

  @Test
  @DisplayName("every interval, a line when something was counted since the last one, nothing otherwise; close stops it")
  void printsOnlyWhatChangedUntilClosed() throws Exception {
    try (SummaryReporter reporter = SummaryReporter.start(meters, out, 20)) {
      assertThat(reporter.isDaemon()).as("never keeps the JVM alive").isTrue();
      meters.attempt("okhttp", "h", "GET", new Decision(Classification.success(), Risk.R0, null), 1);
      awaitLines(1);
      TimeUnit.MILLISECONDS.sleep(100); // five more intervals, nothing new counted
      assertThat(lines()).containsExactly("[hfr-agent] summary: okhttp ok 1");

      meters.attempt("okhttp", "h", "GET", new Decision(Classification.success(), Risk.R0, null), 1);
      awaitLines(2);
      assertThat(lines()).containsExactly("[hfr-agent] summary: okhttp ok 1", "[hfr-agent] summary: okhttp ok 2");

      reporter.close();
      reporter.join(5_000);
      assertThat(reporter.isAlive()).as("the thread ends when closed").isFalse();
    }
  }

  private void awaitLines(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (lines().length < count && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  private String[] lines() {
    String text = printed.toString(StandardCharsets.UTF_8);
    return text.isEmpty() ? new String[0] : text.split("\\R");
  }
}
