package dev.hfr.runtime.time;

/**
 * Virtual time that counts the readings taken by the thread that created it — the test's own thread, which makes
 * the calls under test. The engine's background threads (attempt timers, lease heartbeats, the decision log) read
 * the same clock whenever the scheduler lets them run, so their readings are left out: a test that counts readings
 * specifies the call, not the machine's load.
 */
public final class CountingClock implements Clock {

  private final VirtualTime time;
  private final Thread caller = Thread.currentThread();
  private int readings;

  public CountingClock(VirtualTime time) {
    this.time = time;
  }

  public CountingClock() {
    this(new VirtualTime());
  }

  /** The time this clock reads; advance it to move the clock. */
  public VirtualTime time() {
    return time;
  }

  /** Readings by the creating thread since it was made or last {@linkplain #reset() reset}. */
  public int readings() {
    return readings;
  }

  public void reset() {
    readings = 0;
  }

  @Override
  public long nanoTime() {
    count();
    return time.nanoTime();
  }

  @Override
  public long epochMillis() {
    count();
    return time.epochMillis();
  }

  private void count() {
    if (Thread.currentThread() == caller) {
      readings++;
    }
  }
}
