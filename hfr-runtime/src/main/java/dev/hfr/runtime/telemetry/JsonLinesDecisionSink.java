package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Appends each decision event as one JSON object on its own line, on the deciding thread, flushed at once
 * so the audit trail survives a crash of the process. Serialised by the decision log's own writer (the
 * JSON Jackson's databind wrote for the record before, byte for byte); thread-safe. Each event costs its
 * caller a {@code write} system call under a lock shared by all threads: for a service, prefer
 * {@link DecisionLog#toFile}, which writes from a background thread in batches and rolls the file over.
 */
public final class JsonLinesDecisionSink implements DecisionSink {

  /** The conventional file name. */
  public static final String DEFAULT_FILE = "hfr-decisions.jsonl";

  private static final byte[] LINE_SEPARATOR = System.lineSeparator().getBytes(StandardCharsets.US_ASCII);

  private final Path file;
  /** Guards {@link #json} and {@link #out}. */
  private final Object lock = new Object();
  private final DecisionEventJson json = new DecisionEventJson();
  private final OutputStream out;

  private JsonLinesDecisionSink(Path file) throws IOException {
    this.file = file;
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    // Buffered so that a line and its separator reach the file in one write.
    this.out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
  }

  /**
   * Opens (creating or appending to) {@code file}.
   *
   * @throws UncheckedIOException if the file cannot be opened for appending
   */
  public static JsonLinesDecisionSink open(Path file) {
    Objects.requireNonNull(file, "file");
    try {
      return new JsonLinesDecisionSink(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the decision log " + file + " for appending", e);
    }
  }

  /** The file written to. */
  public Path file() {
    return file;
  }

  @Override
  public void record(DecisionEvent event) throws IOException {
    synchronized (lock) {
      json.write(event).writeTo(out);
      out.write(LINE_SEPARATOR);
      out.flush();
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (lock) {
      out.close();
    }
  }
}
