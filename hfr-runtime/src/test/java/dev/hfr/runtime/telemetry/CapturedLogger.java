package dev.hfr.runtime.telemetry;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The java.util.logging logger behind {@code System.Logger} {@value DecisionLog#LOGGER_NAME} (the JDK's
 * default backend), or another of HFR's loggers, with a handler that keeps what it is given instead of printing it. Optionally holds
 * the first record until released, to stop the decision writer in the middle of a batch.
 */
public final class CapturedLogger implements AutoCloseable {

  public final List<LogRecord> records = new CopyOnWriteArrayList<>();
  private final Logger logger;
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch holding = new CountDownLatch(1);
  private final boolean holdFirst;
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      records.add(record);
      if (holdFirst && records.size() == 1) {
        holding.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  private CapturedLogger(String name, Level level, boolean holdFirst) {
    this.logger = Logger.getLogger(name);
    this.holdFirst = holdFirst;
    logger.setLevel(level);
    logger.setUseParentHandlers(false);
    logger.addHandler(handler);
  }

  /** Captures at {@code level}: INFO keeps decision events, WARNING is a production service's setting. */
  public static CapturedLogger at(Level level) {
    return new CapturedLogger(DecisionLog.LOGGER_NAME, level, false);
  }

  /** Captures the logger {@code name} (any of HFR's, e.g. {@code dev.hfr.breakers}) at {@code level}. */
  public static CapturedLogger of(String name, Level level) {
    return new CapturedLogger(name, level, false);
  }

  /** Captures at INFO and holds the writer inside the first record until {@link #release()}. */
  public static CapturedLogger holdingFirstRecord() {
    return new CapturedLogger(DecisionLog.LOGGER_NAME, Level.INFO, true);
  }

  /** Waits until the writer is held inside the first record. */
  public void awaitHolding() throws InterruptedException {
    holding.await();
  }

  public void release() {
    release.countDown();
  }

  public List<String> messages() {
    return records.stream().map(LogRecord::getMessage).toList();
  }

  @Override
  public void close() {
    release();
    logger.removeHandler(handler);
    logger.setUseParentHandlers(true);
    logger.setLevel(null);
  }
}
