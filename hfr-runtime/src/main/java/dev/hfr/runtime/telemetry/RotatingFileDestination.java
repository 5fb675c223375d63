package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * JSON lines appended to one file that rolls over by size: when the next line would take the file past
 * its limit, {@code file} becomes {@code file.1}, {@code file.1} becomes {@code file.2}, and so on up to
 * the number of rolled files kept; the oldest is deleted, by a thread of its own (as {@code file.<keep+1>}
 * until it is gone, or {@code file.<keep+1>-<n>} if rotations come faster than the deletions). The writer
 * itself only renames: it never deletes a file, nor renames one onto a file that exists. So the log never takes more than about {@code maxBytes × (keep + 1)} on disk, and
 * briefly one file more.
 */
final class RotatingFileDestination implements DecisionDestination {

  /**
   * Lines gather here between two writes to the file: a batch of a few hundred events goes to the kernel in
   * one system call, and from a direct buffer, which the channel hands over without a further copy.
   */
  static final int BUFFER_BYTES = 256 * 1024;
  private static final byte NEWLINE = '\n';

  private final Path file;
  private final long maxBytes;
  private final int keep;
  private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
  private FileChannel channel;
  /** Deletes the rolled-over files that fall out of the kept ones; started at the first such file. */
  private ExecutorService deleter;
  /** The file's size with what is in the buffer. */
  private long size;

  RotatingFileDestination(Path file, long maxBytes, int keep) throws IOException {
    this(file, maxBytes, keep, null);
  }

  /** As above, with the deletions run by {@code deleter} (tests give a slow one); {@code null} starts the usual thread. */
  RotatingFileDestination(Path file, long maxBytes, int keep, ExecutorService deleter) throws IOException {
    this.deleter = deleter;
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
    channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    size = channel.size();
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
    if (line > buffer.remaining()) {
      drain();
      if (line > buffer.capacity()) {
        writeFully(json.asByteBuffer());
        writeFully(ByteBuffer.wrap(new byte[] {NEWLINE}));
        size += line;
        return;
      }
    }
    json.writeTo(buffer);
    buffer.put(NEWLINE);
    size += line;
  }

  /** Writes the buffer to the file; the buffer is empty afterwards, even when the write failed. */
  private void drain() throws IOException {
    buffer.flip();
    try {
      writeFully(buffer);
    } finally {
      buffer.clear();
    }
  }

  private void writeFully(ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      channel.write(bytes);
    }
  }

  private void rotate() throws IOException {
    drain();
    channel.close();
    // The oldest file goes out of the way under a name of its own (a rename is quick), and is deleted by
    // another thread: deleting a file of many MiB frees its pages in the kernel, milliseconds of work during
    // which this writer would fall behind the callers and their queue would overflow. The name is one no
    // file has yet: a rename onto a file still waiting for the deleter would delete that one here.
    Path doomed = unusedName(rolled(keep + 1));
    if (keep == 0) {
      Files.move(file, doomed, StandardCopyOption.REPLACE_EXISTING);
    } else {
      moveIfExists(rolled(keep), doomed);
      for (int i = keep - 1; i >= 1; i--) {
        moveIfExists(rolled(i), rolled(i + 1));
      }
      Files.move(file, rolled(1), StandardCopyOption.REPLACE_EXISTING);
    }
    deleteLater(doomed);
    open();
  }

  /** {@code name}, or {@code name-1}, {@code name-2}... when the deleter has not yet removed a file of that name. */
  private static Path unusedName(Path name) {
    Path candidate = name;
    for (int n = 1; Files.exists(candidate, LinkOption.NOFOLLOW_LINKS); n++) {
      candidate = name.resolveSibling(name.getFileName() + "-" + n);
    }
    return candidate;
  }

  private static void moveIfExists(Path from, Path to) throws IOException {
    if (Files.exists(from)) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private void deleteLater(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    if (deleter == null) {
      // One thread at most, gone after a minute without work; a JVM may exit while it waits.
      ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "hfr-decision-log-delete");
        t.setDaemon(true);
        return t;
      });
      pool.allowCoreThreadTimeOut(true);
      deleter = pool;
    }
    deleter.execute(() -> {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        // Left for the next rotation, which moves another file onto this name.
      }
    });
  }

  private Path rolled(int n) {
    return file.resolveSibling(file.getFileName() + "." + n);
  }

  @Override
  public void flush() throws IOException {
    if (buffer.position() > 0) {
      drain();
    }
  }

  /** Writes what is buffered, closes the file and waits (a few seconds at most) for the deletions under way. */
  @Override
  public void close() throws IOException {
    try {
      flush();
    } finally {
      channel.close();
      if (deleter != null) {
        deleter.shutdown();
        try {
          deleter.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @Override
  public String toString() {
    return "file " + file;
  }
}
