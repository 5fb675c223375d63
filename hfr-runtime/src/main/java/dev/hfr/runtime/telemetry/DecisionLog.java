package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import dev.hfr.runtime.internal.telemetry.PiiRedaction;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine's decision log: events leave the calling thread through a bounded lock-free queue and are
 * written by one background thread in batches, one flush per batch. A call never waits for the log: when
 * the queue is full the event is dropped and counted in {@value #DROPPED}.
 *
 * <ul>
 *   <li>{@link #toSystemLogger()} — the default of {@code Hfr.builder()}: one JSON object per event as a
 *       message of the {@code System.Logger} {@value #LOGGER_NAME}, which SLF4J, Logback and Log4j users route
 *       like any other logger (and which costs the caller nothing but a level check while that logger is
 *       above INFO). Decisions an operator acts on (retries, escalations, degradations, failures) are INFO;
 *       routine per-call ones (calls refused by an open breaker, a full bulkhead, an empty tenant budget or an
 *       unreachable ledger) are DEBUG, and while DEBUG is off they are counted into one INFO summary per
 *       {@code 30 s} instead.
 *   <li>{@link #toFile(Path)} — JSON lines in a file of your choosing, rolled over by size.
 * </ul>
 *
 * <p>{@link #close()} (and {@code Hfr.close()} for the log it created) writes what is queued; a JVM that
 * exits without closing it writes the queue from a shutdown hook. The writer thread starts with the first
 * event, is a daemon, and sleeps while no events come.
 */
public final class DecisionLog implements DecisionSink {

  /** The {@code System.Logger} the default log writes to. */
  public static final String LOGGER_NAME = "dev.hfr.decisions";
  /** Counts events dropped because the queue was full (or the log closed). */
  public static final String DROPPED = "harness.decision.events.dropped";

  /**
   * The queue's default size: about half a second of events from two callers that do nothing but fail and
   * retry (some two million decisions a second on two cores), so the writer may wait that long for a core, or
   * for the JIT to compile it, without an event dropped. A slot is one reference, and an empty queue holds no
   * events.
   */
  public static final int DEFAULT_QUEUE_CAPACITY = 1 << 20;

  /** Events written per batch at most, between two flushes. */
  private static final int BATCH = 512;
  /** While events flow, the writer looks at the queue this often (at once while it finds full batches)... */
  private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /** ...and after this many empty looks it sleeps until a caller wakes it. */
  private static final int LINGER_ROUNDS = 200;

  private final DecisionDestination destination;
  private final EventQueue<DecisionEvent> queue;
  /** The writer thread's serialiser, its buffer reused for every event. */
  private final DecisionEventJson json = new DecisionEventJson();
  /** The writer thread's batch, taken from the queue at once. */
  private final DecisionEvent[] batch = new DecisionEvent[BATCH];
  /** What {@link #touch} read, kept so that the compiler cannot leave the reads out. */
  private long touched;
  /** The writer thread's redaction, which remembers each field's last text. */
  private final PiiRedaction.Remembering redaction = new PiiRedaction.Remembering();
  private volatile boolean redactPii;
  private final LongAdder dropped = new LongAdder();
  private final LongAdder batches = new LongAdder();
  private final Counter writeFailures;
  private final AtomicBoolean started = new AtomicBoolean();
  private final Thread writer;
  private final Thread exitHook;
  /** Set by the writer just before it sleeps without a timeout; a caller that sees it wakes the writer. */
  private volatile boolean sleeping;
  private volatile boolean closed;
  /** How many accepted events the writer has written (or failed to): what {@link #flush} waits for. */
  private volatile long done;

  private DecisionLog(Builder b, DecisionDestination destination) {
    this.destination = destination;
    this.queue = new EventQueue<>(b.queueCapacity);
    this.redactPii = b.redactPii;
    this.writer = new Thread(this::writeLoop, "hfr-decision-log");
    this.writer.setDaemon(true);
    this.exitHook = new Thread(this::flushAtExit, "hfr-decision-log-exit");
    if (b.registry != null) {
      FunctionCounter.builder(DROPPED, dropped, LongAdder::sum)
          .description("Decision events dropped because the decision log's queue was full")
          .baseUnit("events")
          .register(b.registry);
      this.writeFailures = Counter.builder(HfrMeters.SINK_FAILURES)
          .description("Decision events lost because the decision sink failed")
          .baseUnit("failures")
          .register(b.registry);
    } else {
      this.writeFailures = null;
    }
    destination.onWriteFailure(this::writeFailed);
  }

  /** A log to the {@code System.Logger} {@value #LOGGER_NAME}, one JSON object per INFO message. */
  public static Builder toSystemLogger() {
    return new Builder(null);
  }

  /** A log to JSON lines in {@code file} (created with its directories, appended to), rolled over by size. */
  public static Builder toFile(Path file) {
    return new Builder(Objects.requireNonNull(file, "file"));
  }

  /** Whether an event recorded now would be written: not while closed, nor while the logger is below INFO. */
  @Override
  public boolean wantsEvents() {
    return !closed && destination.enabled();
  }

  /** Queues the event for the writer; never blocks. A full queue drops it and counts it in {@value #DROPPED}. */
  @Override
  public void record(DecisionEvent event) {
    if (closed || !queue.offer(event)) {
      dropped.increment();
      return;
    }
    if (!started.get()) {
      start();
    } else if (sleeping) {
      LockSupport.unpark(writer);
    }
  }

  private void start() {
    if (started.compareAndSet(false, true)) {
      Runtime.getRuntime().addShutdownHook(exitHook);
      writer.start();
    }
  }

  /**
   * Waits until every event recorded before this call has been written and flushed, or the timeout
   * passed.
   *
   * @return whether everything was written in time
   */
  public boolean flush(Duration timeout) {
    long target = queue.accepted();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (done < target) {
      if (!writer.isAlive() && !started.get()) {
        return done >= target; // nothing was ever recorded
      }
      LockSupport.unpark(writer);
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
    }
    return destination.awaitWritten(deadline);
  }

  /**
   * Applies {@link PiiRedaction} to every event written from now on, on the writer thread (the caller pays
   * nothing for it). {@code Hfr} calls it for a log it is given when {@code telemetry.redact_pii} is on.
   */
  public void enableRedaction() {
    this.redactPii = true;
  }

  /** How many events the writer has taken from the queue and written (or failed to write, see {@value HfrMeters#SINK_FAILURES}). */
  public long written() {
    return done;
  }

  /** How many events were queued for the writer (not counting the dropped ones). */
  public long queued() {
    return queue.accepted();
  }

  /** How many events were dropped because the queue was full or the log closed. */
  public long dropped() {
    return dropped.sum();
  }

  /** How many batches the writer has flushed (each ends with one flush of the destination). */
  long batches() {
    return batches.sum();
  }

  /** Stops taking events, writes what is queued, and closes the destination (a file; a logger stays open). */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (started.get()) {
      LockSupport.unpark(writer);
      try {
        writer.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      try {
        Runtime.getRuntime().removeShutdownHook(exitHook);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is exiting: the hook runs anyway and finds the queue empty.
      }
    }
    destination.close();
  }

  private void writeLoop() {
    int idle = 0;
    while (true) {
      int written = writeBatch();
      if (written == BATCH) {
        idle = 0;
        continue; // more may be waiting
      }
      if (written > 0) {
        // The queue is drained. Polling again at once would take each new event as it arrives, its queue
        // slot's cache line passing between the calling core and this one for every event; after a
        // pause of LINGER_NANOS the next batch takes hundreds of events in one sweep.
        idle = 0;
      }
      if (closed) {
        if (queue.isEmpty()) {
          return;
        }
        continue;
      }
      if (idle++ < LINGER_ROUNDS) {
        LockSupport.parkNanos(this, LINGER_NANOS);
      } else {
        sleeping = true;
        if (queue.isEmpty() && !closed) {
          LockSupport.park(this);
        }
        sleeping = false;
        idle = 0;
      }
    }
  }

  /** Writes up to {@link #BATCH} queued events and flushes once; returns how many it took. */
  private int writeBatch() {
    DecisionEvent[] events = batch;
    int n = queue.drain(events, BATCH);
    if (n == 0) {
      return 0;
    }
    touch(events, n);
    for (int i = 0; i < n; i++) {
      DecisionEvent event = events[i];
      events[i] = null;
      try {
        if (destination.keeps(event)) {
          DecisionEvent shown = redactPii ? redaction.apply(event) : event;
          destination.write(shown, json.write(shown));
        }
      } catch (IOException | RuntimeException e) {
        writeFailed();
      }
    }
    try {
      destination.flush(n == BATCH);
    } catch (IOException | RuntimeException e) {
      writeFailed();
    }
    batches.increment();
    done += n;
    return n;
  }

  /**
   * Reads every event of the batch and the texts its JSON needs that change from call to call (the task id,
   * the argument hash), before serialising any. The calling threads have just written
   * them, so each first read waits for a cache line from the other core; one event after the other, each
   * event would wait for its own lines in turn, while this loop has no dependency from one event to the
   * next, and the processor overlaps the waits of many events.
   */
  private void touch(DecisionEvent[] events, int n) {
    long sum = 0;
    for (int i = 0; i < n; i++) {
      DecisionEvent e = events[i];
      sum += e.epochMillis() + lastChar(e.taskId()) + lastChar(e.argsHash());
    }
    touched += sum;
  }

  private static int lastChar(String text) {
    return text == null || text.isEmpty() ? 0 : text.charAt(text.length() - 1);
  }

  private void writeFailed() {
    if (writeFailures != null) {
      writeFailures.increment();
    }
  }

  private void flushAtExit() {
    closed = true;
    LockSupport.unpark(writer);
    try {
      writer.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      destination.close();
    } catch (IOException ignored) {
      // The JVM is exiting; there is nobody left to tell.
    }
  }

  @Override
  public String toString() {
    return "DecisionLog(" + destination + ")";
  }

  /** Options of a {@link DecisionLog}; every one has a default. */
  public static final class Builder {
    private final Path file;
    private long maxFileBytes = 64L * 1024 * 1024;
    private int keepFiles = 5;
    private int queueCapacity = DEFAULT_QUEUE_CAPACITY;
    private boolean redactPii;
    private MeterRegistry registry;

    private Builder(Path file) {
      this.file = file;
    }

    /** A file log rolls over when the next line would take it past this size (default 64 MiB). */
    public Builder maxFileBytes(long bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("maxFileBytes must be at least 1024, was " + bytes);
      }
      this.maxFileBytes = bytes;
      return this;
    }

    /** How many rolled-over files ({@code file.1} the newest) a file log keeps (default 5; 0 keeps none). */
    public Builder keepFiles(int files) {
      if (files < 0) {
        throw new IllegalArgumentException("keepFiles must not be negative, was " + files);
      }
      this.keepFiles = files;
      return this;
    }

    /**
     * How many events may wait for the writer before new ones are dropped (default {@value
     * DecisionLog#DEFAULT_QUEUE_CAPACITY}: a reference per event, 4 MiB with compressed references).
     */
    public Builder queueCapacity(int events) {
      if (events < 2 || events > (1 << 30)) {
        throw new IllegalArgumentException("queueCapacity must be in [2, 2^30], was " + events);
      }
      this.queueCapacity = events;
      return this;
    }

    /**
     * Applies {@link PiiRedaction} to every event, on the writer thread (default off: {@code Hfr} applies
     * {@code telemetry.redact_pii} to the log it creates or is given, see {@link DecisionLog#enableRedaction()}).
     */
    public Builder redactPii(boolean redact) {
      this.redactPii = redact;
      return this;
    }

    /** Where {@value #DROPPED} and write failures ({@value HfrMeters#SINK_FAILURES}) are counted. */
    public Builder meterRegistry(MeterRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * The log; a file log opens its file now.
     *
     * @throws UncheckedIOException if the file cannot be opened for appending
     */
    public DecisionLog build() {
      if (file == null) {
        return new DecisionLog(this, new SystemLoggerDestination(System.getLogger(LOGGER_NAME)));
      }
      try {
        return new DecisionLog(this, new RotatingFileDestination(file, maxFileBytes, keepFiles));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot open the decision log " + file + " for appending", e);
      }
    }
  }
}
