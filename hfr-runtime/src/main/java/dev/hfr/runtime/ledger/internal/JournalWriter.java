package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.ForcePolicy;
import dev.hfr.runtime.ledger.LedgerStorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;

/**
 * Appends frames to the journal and forces them to the device as the {@link ForcePolicy} says.
 *
 * <p>Appends are serialised by the caller (the ledger's lock); {@link #syncUntil} runs outside that lock,
 * so threads whose frames were appended while another thread was forcing share the next force (group
 * commit). Progress is counted in logical bytes that never go back, so a compaction (which rewrites the
 * file) does not confuse the accounting.
 *
 * <p>After any I/O failure the writer refuses all further work: a frame may be half written, and
 * appending after it would turn a harmless torn tail into damage in the middle of the journal.
 */
public final class JournalWriter implements AutoCloseable {

  private final Path journal;
  private final Path directory;
  private final ForcePolicy policy;
  private final Object forceLock = new Object();
  private FileChannel channel; // swapped by rewrite() under both locks
  private long position;
  private volatile long appended; // logical bytes appended over the writer's life
  private volatile long forced;
  private volatile Throwable failure;
  private long framesInFile;

  public JournalWriter(Path journal, ForcePolicy policy, long framesInFile) throws IOException {
    this.journal = journal;
    this.directory = journal.toAbsolutePath().getParent();
    this.policy = policy;
    this.channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE);
    this.position = channel.size();
    this.framesInFile = framesInFile;
  }

  /** Appends one frame; returns the logical position to {@link #syncUntil} before acknowledging it. */
  public long append(ByteBuffer frame) {
    checkHealthy();
    try {
      int n = frame.remaining();
      while (frame.hasRemaining()) {
        position += channel.write(frame, position);
      }
      framesInFile++;
      appended += n;
      return appended;
    } catch (IOException | RuntimeException e) {
      failure = e;
      throw new LedgerStorageException("writing the ledger journal " + journal + " failed; the ledger refuses further writes", e);
    }
  }

  /** The logical position of everything appended so far. */
  public long appended() {
    return appended;
  }

  /** Returns once everything up to {@code upTo} is as durable as the policy asks. */
  public void syncUntil(long upTo) {
    if (policy == ForcePolicy.OS_BUFFERED || forced >= upTo) {
      checkHealthy();
      return;
    }
    synchronized (forceLock) {
      checkHealthy();
      if (forced >= upTo) {
        return;
      }
      long target = appended;
      try {
        channel.force(false);
      } catch (IOException | RuntimeException e) {
        failure = e;
        throw new LedgerStorageException("forcing the ledger journal " + journal + " to disk failed; the ledger refuses further writes", e);
      }
      forced = target;
    }
  }

  /** Frames in the current file, superseded ones included. */
  public long framesInFile() {
    return framesInFile;
  }

  /**
   * Replaces the journal by one holding just {@code entries}: written to a temporary file, forced, then
   * renamed over the journal atomically, and the directory forced so the rename itself is durable. A crash
   * at any point leaves either the old or the new journal, complete.
   */
  public void rewrite(Collection<StoredEntry> entries) {
    checkHealthy();
    synchronized (forceLock) {
      try {
        writeFresh(journal, entries);
        FileChannel old = channel;
        channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE);
        old.close();
        position = channel.size();
        framesInFile = entries.size();
        forced = appended;
      } catch (IOException | RuntimeException e) {
        failure = e;
        throw new LedgerStorageException("compacting the ledger journal " + journal + " failed; the ledger refuses further writes", e);
      }
    }
  }

  /** Writes a complete journal holding {@code entries} to {@code journal} (atomically replacing it). */
  public static void writeFresh(Path journal, Collection<StoredEntry> entries) throws IOException {
    Path tmp = journal.resolveSibling(journal.getFileName() + ".compact");
    try (FileChannel out = FileChannel.open(
        tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      ByteBuffer magic = ByteBuffer.wrap(JournalCodec.MAGIC);
      while (magic.hasRemaining()) {
        out.write(magic);
      }
      for (StoredEntry e : entries) {
        ByteBuffer f = JournalCodec.encodePut(e);
        while (f.hasRemaining()) {
          out.write(f);
        }
      }
      out.force(true);
    }
    Files.move(tmp, journal, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    forceDirectory(journal.toAbsolutePath().getParent());
  }

  /** Makes a directory's entries (a created or renamed file) durable; a no-op where the OS cannot. */
  public static void forceDirectory(Path dir) {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a directory for reading; there the rename is as durable as the OS makes it.
    }
  }

  private void checkHealthy() {
    Throwable f = failure;
    if (f != null) {
      throw new LedgerStorageException("the ledger journal " + journal + " failed earlier (" + f + "); reopen the ledger", f);
    }
  }

  /** The directory holding the journal. */
  public Path directory() {
    return directory;
  }

  @Override
  public void close() throws IOException {
    synchronized (forceLock) {
      try {
        if (failure == null && policy == ForcePolicy.EVERY_WRITE && forced < appended) {
          channel.force(false);
          forced = appended;
        }
      } finally {
        channel.close();
      }
    }
  }
}
