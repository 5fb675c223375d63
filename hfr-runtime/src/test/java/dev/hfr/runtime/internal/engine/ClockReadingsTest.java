package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.CountingClock;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * How often a call that fails once and then succeeds reads the clock. On a virtualised host one reading costs about
 * 40 ns, so each one is a visible share of the failure path (docs/BENCHMARKS.md); the engine reads it only where it
 * needs a new instant, and a reading it took serves every use of that instant.
 */
@DisplayName("Clock readings of a retried call")
class ClockReadingsTest {

  private final Fixtures f = new Fixtures();
  private final CountingClock clock = new CountingClock(f.time);
  private final ToolDescriptor search = Fixtures.read("search");

  private Hfr engine() {
    return f.builder().clock(clock).build();
  }

  /** A read whose first attempt is refused after 3 ms and whose second answers after 5 ms. */
  private String call(Hfr hfr) {
    ScriptedTool<String> tool = new ScriptedTool<String>("q")
        .then(() -> {
          f.time.advance(TimeUnit.MILLISECONDS.toNanos(3));
          throw new ConnectException("connection refused");
        })
        .then(() -> {
          f.time.advance(TimeUnit.MILLISECONDS.toNanos(5));
          return "hit";
        });
    return hfr.execute(search, tool);
  }

  @Test
  @DisplayName("outside a task, without a deadline: six readings — the call's start, each attempt's end, the tenant budget, "
      + "the decision's time, the retry's start")
  void retriedReadOutsideTask() {
    try (Hfr hfr = engine()) {
      assertThat(call(hfr)).isEqualTo("hit"); // the first call creates the tenant's bucket, which reads the clock once
      clock.reset();
      assertThat(call(hfr)).isEqualTo("hit");
      assertThat(clock.readings()).isEqualTo(6);
    }
  }

  @Test
  @DisplayName("a deadline adds one reading: the retry decision checks it at the time it is taken")
  void deadlineAddsOneReading() {
    try (Hfr hfr = engine()) {
      call(hfr);
      int without;
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "no-deadline").build())) {
        call(hfr);
        clock.reset();
        call(hfr);
        without = clock.readings();
      }
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "deadline").deadline(Duration.ofMinutes(1)).build())) {
        call(hfr);
        clock.reset();
        call(hfr);
        assertThat(clock.readings()).isEqualTo(without + 1);
      }
    }
  }

  @Test
  @DisplayName("the call's duration runs from its start to the end of its last attempt: both attempts and the backoff")
  void durationEndsWithTheLastAttempt() {
    try (Hfr hfr = engine()) {
      call(hfr);
      DecisionEvent retry = f.sink.events.get(0);
      assertThat(retry.action()).isEqualTo(Action.RETRY);
      double millis = f.registry.get("harness.call.duration").tag("status", "success").timer().totalTime(TimeUnit.MILLISECONDS);
      assertThat(millis).isEqualTo(3 + retry.delayMillis() + 5, Offset.offset(1.0));
    }
  }
}
