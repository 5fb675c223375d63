package dev.hfr.agent.internal.telemetry;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Appends {@link HttpDecisionEvent}s to a JSON-lines file from a background thread. The application's
 * thread only offers the event to a bounded queue: it never waits for the disk, and when the queue is
 * full the event is dropped and counted ({@code harness.decision.sink.failures}), never blocked on.
 * {@link #close()} (run by the agent's shutdown hook) writes what is queued and flushes.
 */
public final class DecisionLog implements AutoCloseable {

  private static final int CAPACITY = 16_384;
  private static final HttpDecisionEvent STOP = new HttpDecisionEvent(0, null, null, null, null, null, 0, 0, null, 0, null, null, null, false, 0, 0, 0);

  private final Path file;
  private final AgentMeters meters;
  private final BlockingQueue<HttpDecisionEvent> queue = new ArrayBlockingQueue<>(CAPACITY);
  private final Thread writer;
  private volatile boolean failed;

  private DecisionLog(Path file, AgentMeters meters) {
    this.file = file;
    this.meters = meters;
    this.writer = new Thread(this::drain, "hfr-agent-events");
    this.writer.setDaemon(true);
  }

  /** Starts writing to {@code file} (created, or appended to). */
  public static DecisionLog start(Path file, AgentMeters meters) {
    DecisionLog log = new DecisionLog(file, meters);
    log.writer.start();
    return log;
  }

  /** The file written to. */
  public Path file() {
    return file;
  }

  /** Queues one event; never blocks. */
  public void record(HttpDecisionEvent event) {
    if (failed || !queue.offer(event)) {
      meters.eventDropped();
    }
  }

  private void drain() {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
        List<HttpDecisionEvent> batch = new ArrayList<>();
        while (true) {
          HttpDecisionEvent first = queue.poll(1, TimeUnit.SECONDS);
          if (first == null) {
            continue;
          }
          batch.add(first);
          queue.drainTo(batch);
          for (HttpDecisionEvent e : batch) {
            if (e == STOP) {
              out.flush();
              return;
            }
            out.write(HttpDecisionEventJson.write(e));
            out.newLine();
          }
          batch.clear();
          out.flush(); // once per batch: a quiet queue means the file is current
        }
      }
    } catch (IOException e) {
      failed = true;
      System.err.println("[hfr-agent] cannot write decision events to " + file + ", they are dropped from now on: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Writes what is queued, then stops; waits at most two seconds. */
  @Override
  public void close() {
    try {
      if (queue.offer(STOP, 1, TimeUnit.SECONDS)) {
        writer.join(2000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
