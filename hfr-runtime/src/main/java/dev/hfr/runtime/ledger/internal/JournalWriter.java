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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends frames to the journal, forces them to the device as the {@link ForcePolicy} says, and after
 * each force records in the {@link CheckpointFile} how far the journal is durable.
 *
 * <p><b>Group commit.</b> Appends are serialised by the caller (the ledger's lock); {@link #syncUntil}
 * runs outside that lock. The first waiting thread forces everything appended so far and the threads
 * whose frames were appended meanwhile find their position already forced, or share the next force: one
 * {@code fdatasync} per batch, however many threads. A frame appended as <em>deferrable</em> (an
 * attempt's outcome, a lease renewal or release, see {@link #append}) does not ask for a force of its
 * own: it becomes durable with the next force anyone asks for, or at close.
 *
 * <p>Progress is counted in logical bytes that never go back, so a compaction (which rewrites the file)
 * does not confuse the accounting. After any I/O failure the writer refuses all further work: a frame may
 * be half written, and appending after it would turn a harmless crash tail into damage in the middle of
 * the journal.
 */
public final class JournalWriter implements AutoCloseable {

  /** The journal as of the last append: where it ends, logically and in the file, and its sequence numbers. */
  private record Mark(long logical, long length, long firstSeq, long lastSeq) {}

  private final Path journal;
  private final ForcePolicy policy;
  private final CheckpointFile checkpoint;
  private final long ledgerId;
  private final Object forceLock = new Object(); // the channel: forces, compaction and close
  private final ReentrantLock syncState = new ReentrantLock(); // who forces next, and who waits
  private final Condition forceDone = syncState.newCondition();
  private boolean forcing; // guarded by syncState
  private FileChannel channel; // swapped by rewrite() under both locks
  private long position;
  private long nextSeq;
  private long framesInFile;
  private volatile Mark mark;
  private volatile long appended; // logical bytes appended over the writer's life
  private volatile long required; // logical end of the last frame that must be forced before it is acknowledged
  private volatile long forced;
  private volatile long forces; // written under forceLock
  private volatile Throwable failure;

  /**
   * Continues the journal {@code journal}, whose frames {@code firstSeq..lastSeq} fill it exactly (a crash
   * tail already cut off).
   */
  public JournalWriter(Path journal, ForcePolicy policy, CheckpointFile checkpoint, long ledgerId, long firstSeq, long lastSeq)
      throws IOException {
    this.journal = journal;
    this.policy = policy;
    this.checkpoint = checkpoint;
    this.ledgerId = ledgerId;
    this.channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE);
    this.position = channel.size();
    this.nextSeq = lastSeq + 1;
    this.framesInFile = lastSeq - firstSeq + 1;
    this.mark = new Mark(0, position, firstSeq, lastSeq);
  }

  /**
   * Appends one frame with the next sequence number.
   *
   * @param deferrable {@code true} for a frame whose loss in a power failure the ledger's protocol
   *     recovers from by itself (an attempt's outcome: the record stays PREPARED and is reconciled; a lease
   *     renewal or release: leases are forgotten on open), so it need not be forced before it is
   *     acknowledged; {@code false} for everything else
   * @return the logical position where the frame ends: forcing up to it makes the frame durable
   */
  public long append(byte[] payload, boolean deferrable) {
    checkHealthy();
    ByteBuffer frame = JournalCodec.frame(nextSeq, payload);
    try {
      int n = frame.remaining();
      while (frame.hasRemaining()) {
        position += channel.write(frame, position);
      }
      nextSeq++;
      framesInFile++;
      appended += n;
      if (!deferrable) {
        required = appended;
      }
      Mark m = new Mark(appended, position, mark.firstSeq(), nextSeq - 1);
      mark = m;
      if (policy == ForcePolicy.OS_BUFFERED) {
        // nothing is forced, so the checkpoint follows every write: a SIGKILL leaves both in the page
        // cache; a power loss that drops journal pages is then reported as lost records, not hidden.
        // A written frame is as durable as this policy makes it.
        checkpoint.write(checkpointOf(m));
        forced = m.logical();
      }
      return m.logical();
    } catch (IOException | RuntimeException e) {
      failure = e;
      throw new LedgerStorageException("writing the ledger journal " + journal + " failed; the ledger refuses further writes", e);
    }
  }

  /** The end of the last non-deferrable frame: forcing up to it makes every frame that must be forced durable. */
  public long required() {
    return required;
  }

  /** How many times the journal was forced to give the acknowledgements asked for (close and compaction not counted). */
  public long forces() {
    return forces;
  }

  /** The logical end of everything appended so far, deferrable frames included: forcing up to it makes all of it durable. */
  public long written() {
    return appended;
  }

  /** The logical position forced so far (under {@code OS_BUFFERED}: written so far). */
  public long forced() {
    return forced;
  }

  /**
   * Returns once everything up to {@code upTo} is as durable as the policy asks. One thread at a time
   * forces (the leader), outside any lock, so that threads arriving meanwhile append and queue up; when
   * its force ends they all find out together, and those still not covered elect the next leader, whose
   * force covers every one of them.
   */
  public void syncUntil(long upTo) {
    if (policy == ForcePolicy.OS_BUFFERED || forced >= upTo) {
      checkHealthy();
      return;
    }
    syncState.lock();
    try {
      while (forced < upTo) {
        checkHealthy();
        if (forcing) {
          forceDone.awaitUninterruptibly();
          continue;
        }
        forcing = true;
        syncState.unlock();
        try {
          synchronized (forceLock) {
            checkHealthy();
            forceNow();
          }
        } finally {
          syncState.lock();
          forcing = false;
          forceDone.signalAll();
        }
      }
      checkHealthy();
    } finally {
      syncState.unlock();
    }
  }

  /** Forces everything appended so far and records it in the checkpoint. Holds {@code forceLock}. */
  private void forceNow() {
    Mark m = mark;
    try {
      channel.force(false);
      forces++;
      forced = m.logical();
      checkpoint.write(checkpointOf(m));
    } catch (IOException | RuntimeException e) {
      failure = e;
      throw new LedgerStorageException("forcing the ledger journal " + journal + " to disk failed; the ledger refuses further writes", e);
    }
  }

  private CheckpointFile.Checkpoint checkpointOf(Mark m) {
    return new CheckpointFile.Checkpoint(ledgerId, m.firstSeq(), m.lastSeq(), m.length());
  }

  /** The current file's length as of the last append. */
  public long length() {
    return mark.length();
  }

  /** Frames in the current file, superseded ones included. */
  public long framesInFile() {
    return framesInFile;
  }

  /**
   * Replaces the journal by one holding just {@code payloads} (see {@link #writeFresh}), numbered on from
   * the last sequence number, and checkpoints it. A crash at any point leaves either the old or the new
   * journal, complete, and a checkpoint the open-time check accepts with either.
   */
  public void rewrite(List<byte[]> payloads) {
    checkHealthy();
    synchronized (forceLock) {
      try {
        long first = nextSeq;
        long length = writeFresh(journal, ledgerId, first, payloads, null);
        FileChannel old = channel;
        channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE);
        old.close();
        position = channel.size();
        nextSeq = first + payloads.size();
        framesInFile = payloads.size();
        forced = appended;
        mark = new Mark(appended, length, first, nextSeq - 1);
        checkpoint.writeAndForce(checkpointOf(mark));
      } catch (IOException | RuntimeException e) {
        failure = e;
        throw new LedgerStorageException("compacting the ledger journal " + journal + " failed; the ledger refuses further writes", e);
      }
    }
  }

  /**
   * Writes a complete journal holding {@code payloads} (frame payloads, sequence numbers from {@code firstSeq}) to a
   * temporary file, forces it, and renames it over {@code journal} atomically, then forces the directory.
   * When {@code checkpoint} is given it is written and forced <em>before</em> the rename (used when the
   * journal being replaced is not one the checkpoint could vouch for: a new ledger, an upgrade, a repair
   * of a damaged checkpoint). Returns the new journal's length.
   */
  public static long writeFresh(Path journal, long ledgerId, long firstSeq, List<byte[]> payloads, CheckpointFile checkpoint)
      throws IOException {
    Path tmp = journal.resolveSibling(journal.getFileName() + ".compact");
    List<ByteBuffer> frames = new ArrayList<>(payloads.size());
    long length = JournalCodec.FILE_HEADER;
    long seq = firstSeq;
    for (byte[] payload : payloads) {
      ByteBuffer f = JournalCodec.frame(seq++, payload);
      length += f.remaining();
      frames.add(f);
    }
    try (FileChannel out = FileChannel.open(
        tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      writeAll(out, JournalCodec.fileHeader(new JournalCodec.FileHeader(ledgerId, firstSeq, length)));
      for (ByteBuffer f : frames) {
        writeAll(out, f);
      }
      out.force(true);
    }
    if (checkpoint != null) {
      checkpoint.writeAndForce(new CheckpointFile.Checkpoint(ledgerId, firstSeq, seq - 1, length));
    }
    Files.move(tmp, journal, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    forceDirectory(journal.toAbsolutePath().getParent());
    return length;
  }

  private static void writeAll(FileChannel out, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      out.write(b);
    }
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

  /** Forces what is left (deferred outcomes included, whatever the policy) and checkpoints it, then closes. */
  @Override
  public void close() throws IOException {
    synchronized (forceLock) {
      try {
        if (failure == null) {
          Mark m = mark;
          channel.force(false);
          forced = m.logical();
          checkpoint.writeAndForce(checkpointOf(m));
        }
      } finally {
        channel.close();
      }
    }
  }
}
