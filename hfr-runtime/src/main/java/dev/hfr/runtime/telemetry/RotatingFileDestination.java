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
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * JSON lines appended to one file that rolls over by size: when the next line would take the file past
 * its limit, {@code file} becomes {@code file.1}, {@code file.1} becomes {@code file.2}, and so on up to
 * the number of rolled files kept; the oldest is deleted, by a thread of its own (as {@code file.<keep+1>}
 * until it is gone, or {@code file.<keep+1>-<n>} if rotations come faster than the deletions). So the log
 * never takes more than about {@code maxBytes × (keep + 1)} on disk, and briefly one file more.
 *
 * <p>While the decision writer keeps up, it writes each batch itself: one {@code write} system call. When
 * it falls behind (its last batch was full), it only serialises: it fills a buffer with whole lines and
 * hands it to a thread of this destination ({@value #THREAD_NAME}) that makes the system calls and the
 * renames of a rotation, in order. The kernel's part — copying each batch into the page cache — is a
 * quarter of an event's cost; on a busy machine the two threads get CPU time each, so the serialising one
 * keeps up with more calls. No thread of the log ever deletes a file, nor renames one onto a file that
 * exists, but the deleter: that frees the old file's pages, milliseconds of work.
 */
final class RotatingFileDestination implements DecisionDestination {

  static final String THREAD_NAME = "hfr-decision-log-file";
  /**
   * Lines gather in a buffer of this size between two writes to the file: a batch of a few hundred events
   * goes to the kernel in one system call, from a direct buffer, which the channel takes without a copy.
   */
  static final int BUFFER_BYTES = 256 * 1024;
  /**
   * Buffers in turn: one filling, the others written or waiting to be. Two to begin with; more are made
   * only while the file thread falls behind (a write or a rename waiting for the disk's journal, the thread
   * waiting for a CPU), up to this many (8 MiB, some 18,000 events), before the serialiser waits for one.
   */
  private static final int MAX_BUFFERS = 32;
  private static final byte NEWLINE = '\n';

  private final Path file;
  private final long maxBytes;
  private final int keep;

  // The serialising side (the decision writer's thread).
  private ByteBuffer filling;
  /** The current file's size once everything handed over and filled so far is written. */
  private long size;
  /** How many buffers were handed to the file thread; volatile, read by whoever waits for them. */
  private volatile long handedOver;
  private Thread fileThread;
  private int buffers;
  /** Whether the writer had more events waiting at its last flush: then buffers go to the file thread. */
  private boolean behind;

  // Between the two sides.
  private final BlockingQueue<Chunk> toWrite = new ArrayBlockingQueue<>(MAX_BUFFERS + 1);
  private final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(MAX_BUFFERS);

  // The file thread's side.
  private FileChannel channel;
  /** How many buffers the file thread has written (or failed to). */
  private volatile long written;
  /** Deletes the rolled-over files that fall out of the kept ones; started at the first such file. */
  private ExecutorService deleter;
  private volatile Runnable writeFailed = () -> { };

  /** A buffer to write, and whether the file rolls over after it (the next line would not fit). */
  private record Chunk(ByteBuffer bytes, boolean pooled, boolean rotateAfter) {
    static final Chunk STOP = new Chunk(null, false, false);
  }

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
    size = channel.size();
    free.add(newBuffer());
    filling = newBuffer();
  }

  private void open() throws IOException {
    channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public void onWriteFailure(Runnable failed) {
    this.writeFailed = failed;
  }

  @Override
  public void write(DecisionEventJson json) throws IOException {
    int line = json.length() + 1;
    if (size > 0 && size + line > maxBytes) {
      handOver(true);
      size = 0;
    }
    if (line > filling.remaining()) {
      if (filling.position() > 0) {
        handOver(false);
      }
      if (line > filling.capacity()) {
        // A line larger than a buffer goes alone, in a copy: the writer reuses its bytes for the next event.
        byte[] bytes = Arrays.copyOf(json.asByteBuffer().array(), line);
        bytes[line - 1] = NEWLINE;
        send(new Chunk(ByteBuffer.wrap(bytes), false, false));
        size += line;
        return;
      }
    }
    json.writeTo(filling);
    filling.put(NEWLINE);
    size += line;
  }

  /**
   * Writes what was written, or hands it to the file thread if the writer is {@code behind} or that thread
   * still has buffers to write (it is in the file soon after, see {@link #awaitWritten}).
   */
  @Override
  public void flush(boolean behind) throws IOException {
    this.behind = behind;
    if (filling.position() > 0) {
      handOver(false);
    }
  }

  @Override
  public boolean awaitWritten(long deadlineNanos) {
    long target = handedOver;
    while (written < target) {
      if (System.nanoTime() - deadlineNanos >= 0) {
        return false;
      }
      LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
    }
    return true;
  }

  /** Sends the filling buffer (possibly empty) to the file and takes a free one, waiting for it if need be. */
  private void handOver(boolean rotateAfter) throws IOException {
    filling.flip();
    send(new Chunk(filling, true, rotateAfter));
    ByteBuffer next = free.poll();
    if (next == null) {
      next = buffers < MAX_BUFFERS ? newBuffer() : null;
    }
    try {
      filling = next != null ? next : free.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a free buffer of the decision log", e);
    }
  }

  private ByteBuffer newBuffer() {
    buffers++;
    return ByteBuffer.allocateDirect(BUFFER_BYTES);
  }

  /**
   * Writes {@code chunk} on this thread while the writer keeps up and the file thread has nothing left to
   * write (one thread alone then costs less: the hand-over wakes a thread, whose copy into the page cache
   * reads the bytes from this core); otherwise hands it to the file thread, behind those it has.
   */
  private void send(Chunk chunk) throws IOException {
    if (!behind && written == handedOver) {
      write(chunk);
    } else {
      submit(chunk);
    }
  }

  /** How many buffers went to the file thread (the others were written by the writer itself). */
  long handedOver() {
    return handedOver;
  }

  private void submit(Chunk chunk) throws IOException {
    if (fileThread == null) {
      fileThread = new Thread(this::writeLoop, THREAD_NAME);
      fileThread.setDaemon(true);
      fileThread.start();
    }
    try {
      toWrite.put(chunk);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while handing a buffer to the decision log's file thread", e);
    }
    handedOver++;
  }

  private void writeLoop() {
    while (true) {
      Chunk chunk;
      try {
        chunk = toWrite.take();
      } catch (InterruptedException e) {
        return; // only close() stops this thread, by STOP; an interrupt from elsewhere ends it too
      }
      if (chunk == Chunk.STOP) {
        return;
      }
      write(chunk);
      written++;
    }
  }

  private void write(Chunk chunk) {
    ByteBuffer bytes = chunk.bytes();
    try {
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    } catch (IOException | RuntimeException e) {
      writeFailed.run();
    } finally {
      if (chunk.pooled()) {
        bytes.clear();
        free.add(bytes);
      }
    }
    if (chunk.rotateAfter()) {
      try {
        rotate();
      } catch (IOException | RuntimeException e) {
        writeFailed.run();
      }
    }
  }

  private void rotate() throws IOException {
    channel.close();
    // The oldest file goes out of the way under a name no file has (a rename is quick, and a rename onto a
    // file still waiting for the deleter would delete that one here), and the deleter thread deletes it:
    // deleting a file of many MiB frees its pages in the kernel, milliseconds of work.
    Path doomed = unusedName(rolled(keep + 1));
    if (keep == 0) {
      Files.move(file, doomed);
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

  /**
   * Hands over what is buffered, waits (10 s at most) until the file thread has written it and stopped,
   * closes the file, and waits (as long again at most) for the deletions under way.
   */
  @Override
  public void close() throws IOException {
    try {
      flush(behind);
      if (fileThread != null) {
        toWrite.put(Chunk.STOP);
        fileThread.join(TimeUnit.SECONDS.toMillis(10));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
