package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("AttemptTimer: one shared thread interrupts a call on its own thread when its time is up")
class AttemptTimerTest {

  private final AttemptTimer timer = new AttemptTimer(System::nanoTime, TimeUnit.MILLISECONDS.toNanos(50));

  @AfterEach
  void close() {
    timer.close();
  }

  @Test
  void aCallThatOutlivesItsDeadlineIsInterruptedAndTheInterruptIsClearedAfterwards() {
    long start = System.nanoTime();
    AttemptTimer.Watch watch = timer.start(start + TimeUnit.MILLISECONDS.toNanos(100));
    boolean interrupted = false;
    try {
      Thread.sleep(10_000);
    } catch (InterruptedException e) {
      interrupted = true;
    }
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(interrupted).isTrue();
    assertThat(tookMs).isBetween(90L, 1_000L);
    assertThat(watch.stop()).as("the timer fired").isTrue();
    assertThat(Thread.currentThread().isInterrupted()).as("no interrupt leaks into the caller's next wait").isFalse();
  }

  @Test
  void aCallThatEndsInTimeIsNeverInterrupted() throws InterruptedException {
    for (int i = 0; i < 1_000; i++) {
      AttemptTimer.Watch watch = timer.start(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
      assertThat(watch.stop()).isFalse();
    }
    Thread.sleep(20);
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void aLaterShorterDeadlineWakesTheTimerEarly() {
    Thread other = new Thread(() -> timer.start(System.nanoTime() + TimeUnit.SECONDS.toNanos(30)));
    other.start();
    long start = System.nanoTime();
    AttemptTimer.Watch watch = timer.start(start + TimeUnit.MILLISECONDS.toNanos(50));
    try {
      Thread.sleep(5_000);
    } catch (InterruptedException expected) {
      // the short deadline fired first
    }
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("woken long before the 5 s sleep ends").isLessThan(3_000L);
    assertThat(watch.stop()).isTrue();
  }

  @Test
  void aCallThatIgnoresItsInterruptIsCountedAfterTheGrace() throws InterruptedException {
    long start = System.nanoTime();
    AttemptTimer.Watch watch = timer.start(start + TimeUnit.MILLISECONDS.toNanos(20));
    // Busy for 300 ms, never looking at the interrupt: a tool that ignores interruption.
    while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(300)) {
      Thread.onSpinWait();
    }
    assertThat(watch.stop()).isTrue();
    assertThat(timer.ignoredInterrupts()).isEqualTo(1);
  }
}
