package dev.hfr.runtime.telemetry;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Appends each decision event as one JSON object on its own line, on the deciding thread, flushed at once
 * so the audit trail survives a crash of the process. Serialised with Jackson; thread-safe. Each event
 * costs its caller a {@code write} system call under a lock shared by all threads: for a service, prefer
 * {@link DecisionLog#toFile}, which writes from a background thread in batches and rolls the file over.
 */
public final class JsonLinesDecisionSink implements DecisionSink {

  /** The conventional file name. */
  public static final String DEFAULT_FILE = "hfr-decisions.jsonl";

  private static final ObjectWriter WRITER = JsonMapper.builder().build().writerFor(DecisionEvent.class);

  private final Path file;
  private final BufferedWriter out;

  private JsonLinesDecisionSink(Path file) throws IOException {
    this.file = file;
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
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
    String line = WRITER.writeValueAsString(event);
    synchronized (out) {
      out.write(line);
      out.newLine();
      out.flush();
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (out) {
      out.close();
    }
  }
}
