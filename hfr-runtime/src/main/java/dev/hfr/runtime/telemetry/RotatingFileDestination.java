package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * JSON lines appended to one file that rolls over by size: when the next line would take the file past
 * its limit, {@code file} becomes {@code file.1}, {@code file.1} becomes {@code file.2}, and so on up to
 * the number of rolled files kept; the oldest is deleted. So the log never takes more than about
 * {@code maxBytes × (keep + 1)} on disk.
 */
final class RotatingFileDestination implements DecisionDestination {

  private static final byte NEWLINE = '\n';

  private final Path file;
  private final long maxBytes;
  private final int keep;
  private OutputStream out;
  private long size;

  RotatingFileDestination(Path file, long maxBytes, int keep) throws IOException {
    this.file = file.toAbsolutePath();
    this.maxBytes = maxBytes;
    this.keep = keep;
    Path parent = this.file.getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    open();
  }

  private void open() throws IOException {
    out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND), 64 * 1024);
    size = Files.size(file);
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public void write(DecisionEventJson json) throws IOException {
    int line = json.length() + 1;
    if (size > 0 && size + line > maxBytes) {
      rotate();
    }
    json.writeTo(out);
    out.write(NEWLINE);
    size += line;
  }

  private void rotate() throws IOException {
    out.close();
    if (keep == 0) {
      Files.deleteIfExists(file);
    } else {
      Files.deleteIfExists(rolled(keep));
      for (int i = keep - 1; i >= 1; i--) {
        Path from = rolled(i);
        if (Files.exists(from)) {
          Files.move(from, rolled(i + 1), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      Files.move(file, rolled(1), StandardCopyOption.REPLACE_EXISTING);
    }
    open();
  }

  private Path rolled(int n) {
    return file.resolveSibling(file.getFileName() + "." + n);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  @Override
  public String toString() {
    return "file " + file;
  }
}
