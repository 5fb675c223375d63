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
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

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
 * <p><b>Compaction</b> ({@link #beginCompaction}) writes the new journal beside the current one while appends go
 * on, copies to it in a few rounds the frames appended meanwhile, then, under the caller's lock for a moment,
 * copies the last of them and sends appends there; the next force renames it over the journal before any frame
 * in it is acknowledged. So a compaction holds writers for a copy of at most a few hundred kilobytes, not for
 * writing and forcing the whole new journal.
 *
 * <p>Progress is counted in logical bytes that never go back, so a compaction (which rewrites the file)
 * does not confuse the accounting. After any I/O failure the writer refuses all further work: a frame may
 * be half written, and appending after it would turn a harmless crash tail into damage in the middle of
 * the journal.
 */
public final class JournalWriter implements AutoCloseable {

  /**
   * Rounds in which a compaction copies, without the caller's lock, what writers appended while it wrote; and what
   * it may leave for the copy under the lock. At 10 million records a compaction wrote for seconds, and copying
   * all it left under the lock held writers for 148 ms.
   */
  private static final int CATCH_UP_ROUNDS = 8;
  private static final long LEFT_FOR_THE_LOCK = 256 * 1024;

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
  private FileChannel channel; // swapped by rewrite() and finishCompaction(), under the caller's lock and forceLock
  private long position;
  private long nextSeq;
  private long framesInFile;
  private volatile Mark mark;
  private volatile long appended; // logical bytes appended over the writer's life
  private volatile long required; // logical end of the last frame that must be forced before it is acknowledged
  private volatile long forced;
  private volatile long forces; // written under forceLock
  private volatile Throwable failure;
  private boolean renamePending; // guarded by forceLock: appends go to the compaction file, not yet renamed over the journal
  private long rewrites; // guarded by forceLock: a compaction begun before a rewrite cannot finish after it

  /**
   * A compaction under way: the records held when it began, written to the compaction file while appends go on.
   * See {@link #beginCompaction}.
   */
  public static final class Compaction {
    private final Supplier<List<byte[]>> payloads;
    private final long firstSeq;
    private final long rewrite;
    private long length = -1; // of the compaction file once written: its end
    private long nextSeq; // the next frame's sequence number in the compaction file
    private long copiedFrom; // where the journal's frames not yet copied to the compaction file start

    private Compaction(Supplier<List<byte[]>> payloads, long firstSeq, long fromPosition, long rewrite) {
      this.payloads = payloads;
      this.firstSeq = firstSeq;
      this.rewrite = rewrite;
      this.copiedFrom = fromPosition;
    }
  }

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

  /** Forces everything appended so far (renaming a finished compaction over the journal) and records it in the checkpoint. Holds {@code forceLock}. */
  private void forceNow() {
    Mark m = mark;
    try {
      channel.force(false);
      renameCompaction();
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
   * Begins a compaction to {@code payloads}, the records the caller holds now, encoded later by {@link
   * #writeCompaction} (so the caller need only copy references to its immutable records under its lock); call
   * under the lock that orders appends. Then {@link #writeCompaction} (without that lock) and {@link
   * #finishCompaction} (with it).
   */
  public Compaction beginCompaction(Supplier<List<byte[]>> payloads) {
    checkHealthy();
    synchronized (forceLock) {
      completeCompaction();
      return new Compaction(payloads, nextSeq, position, rewrites);
    }
  }

  /**
   * Writes and forces the compaction file: the records of {@link #beginCompaction}, numbered from the next
   * sequence number then; then copies to it, in a few rounds, the frames appended to the journal meanwhile, so
   * that {@link #finishCompaction} has little left to copy. Runs without the caller's lock, while appends go on
   * to the journal. A failure leaves the journal as it was.
   */
  public void writeCompaction(Compaction c) {
    checkHealthy();
    Path file = compactionFile(journal);
    try {
      List<byte[]> payloads = c.payloads.get();
      c.length = writeTemporary(file, ledgerId, c.firstSeq, payloads);
      c.nextSeq = c.firstSeq + payloads.size();
      try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
        for (int round = 0; round < CATCH_UP_ROUNDS; round++) {
          long upTo = mark.length(); // appends write their frame before they publish the mark
          if (upTo - c.copiedFrom <= LEFT_FOR_THE_LOCK) {
            break;
          }
          copyAppended(c, upTo, out);
        }
      }
    } catch (IOException e) {
      throw new LedgerStorageException("writing the compacted ledger journal " + compactionFile(journal) + " failed; the journal is"
          + " unchanged and compaction is tried again later", e);
    }
  }

  /**
   * Copies the frames appended since {@link #beginCompaction} to the end of the compaction file, numbered on, and
   * appends there from now on; call under the lock that orders appends. The file becomes the journal at the next
   * force, before anything appended to it is acknowledged (under {@code OS_BUFFERED}, now): a crash before that
   * leaves the journal as it was, with every frame it had acknowledged.
   */
  public void finishCompaction(Compaction c) {
    checkHealthy();
    synchronized (forceLock) {
      if (c.length < 0 || c.rewrite != rewrites) {
        throw new IllegalStateException("a compaction must be written, and finished before any other rewrite");
      }
      FileChannel next = null;
      try {
        next = FileChannel.open(compactionFile(journal), StandardOpenOption.READ, StandardOpenOption.WRITE);
        copyAppended(c, position, next);
        long at = c.length;
        long seq = c.nextSeq;
        FileChannel old = channel;
        channel = next;
        next = null;
        old.close();
        position = at;
        framesInFile = seq - c.firstSeq;
        nextSeq = seq;
        mark = new Mark(appended, at, c.firstSeq, seq - 1);
        rewrites++;
        renamePending = true;
        if (policy == ForcePolicy.OS_BUFFERED) {
          renameCompaction(); // nothing waits for a force here: a process crash must find this file as the journal
          checkpoint.write(checkpointOf(mark));
        }
      } catch (IOException | RuntimeException e) {
        failure = e;
        closeQuietly(next);
        throw new LedgerStorageException("compacting the ledger journal " + journal + " failed; the ledger refuses further writes", e);
      }
    }
  }

  /** Copies the journal's frames from where the last copy ended up to {@code upTo} to the end of the compaction file, renumbered. */
  private void copyAppended(Compaction c, long upTo, FileChannel out) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(JournalCodec.HEADER);
    while (c.copiedFrom < upTo) {
      header.clear();
      readFully(channel, header, c.copiedFrom);
      byte[] payload = new byte[header.getInt(0)];
      readFully(channel, ByteBuffer.wrap(payload), c.copiedFrom + JournalCodec.HEADER);
      c.length += writeFully(out, JournalCodec.frame(c.nextSeq++, payload), c.length);
      c.copiedFrom += JournalCodec.HEADER + payload.length;
    }
  }

  /**
   * Forces a finished compaction's file and renames it over the journal, if that has not happened with a force
   * since; call without the caller's lock, right after {@link #finishCompaction}.
   */
  public void completeCompaction() {
    synchronized (forceLock) {
      if (!renamePending || failure != null) {
        return;
      }
      Mark m = mark;
      try {
        channel.force(false);
        renameCompaction();
        forced = Math.max(forced, m.logical());
        checkpoint.write(checkpointOf(m));
      } catch (IOException | RuntimeException e) {
        failure = e;
        throw new LedgerStorageException("compacting the ledger journal " + journal + " failed; the ledger refuses further writes", e);
      }
    }
  }

  /** Renames a finished compaction over the journal and makes the rename durable; its frames must be forced already. */
  private void renameCompaction() throws IOException {
    if (renamePending) {
      Files.move(compactionFile(journal), journal, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      forceDirectory(journal.toAbsolutePath().getParent());
      renamePending = false;
    }
  }

  /**
   * Replaces the journal by one holding just {@code payloads} (see {@link #writeFresh}), numbered on from
   * the last sequence number, and checkpoints it, all under the caller's lock (for open and close, when no one
   * waits; housekeeping uses {@link #beginCompaction}). A crash at any point leaves either the old or the new
   * journal, complete, and a checkpoint the open-time check accepts with either.
   */
  public void rewrite(List<byte[]> payloads) {
    checkHealthy();
    synchronized (forceLock) {
      try {
        if (renamePending) {
          channel.force(false);
          renameCompaction();
        }
        long first = nextSeq;
        long length = writeFresh(journal, ledgerId, first, payloads, null);
        FileChannel old = channel;
        channel = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE);
        old.close();
        position = channel.size();
        nextSeq = first + payloads.size();
        framesInFile = payloads.size();
        forced = appended;
        rewrites++;
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
    Path tmp = compactionFile(journal);
    long length = writeTemporary(tmp, ledgerId, firstSeq, payloads);
    if (checkpoint != null) {
      checkpoint.writeAndForce(new CheckpointFile.Checkpoint(ledgerId, firstSeq, firstSeq + payloads.size() - 1, length));
    }
    Files.move(tmp, journal, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    forceDirectory(journal.toAbsolutePath().getParent());
    return length;
  }

  /** Writes a whole journal of {@code payloads} to {@code file} and forces it; returns its length. */
  private static long writeTemporary(Path file, long ledgerId, long firstSeq, List<byte[]> payloads) throws IOException {
    long length = JournalCodec.FILE_HEADER;
    for (byte[] payload : payloads) {
      length += JournalCodec.HEADER + payload.length;
    }
    try (FileChannel out = FileChannel.open(
        file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.allocate(256 * 1024);
      buffer.put(JournalCodec.fileHeader(new JournalCodec.FileHeader(ledgerId, firstSeq, length)));
      long seq = firstSeq;
      for (byte[] payload : payloads) {
        ByteBuffer frame = JournalCodec.frame(seq++, payload);
        if (buffer.remaining() < frame.remaining()) { // a frame is at most a quarter of the buffer
          writeAll(out, buffer.flip());
          buffer.clear();
        }
        buffer.put(frame);
      }
      writeAll(out, buffer.flip());
      out.force(true);
    }
    return length;
  }

  /** Where a journal is written whole before it is renamed over {@code journal}; an open deletes one left by a crash. */
  static Path compactionFile(Path journal) {
    return journal.resolveSibling(journal.getFileName() + ".compact");
  }

  private static void writeAll(FileChannel out, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      out.write(b);
    }
  }

  private static int writeFully(FileChannel out, ByteBuffer b, long at) throws IOException {
    int n = b.remaining();
    for (long p = at; b.hasRemaining(); ) {
      p += out.write(b, p);
    }
    return n;
  }

  private static void readFully(FileChannel in, ByteBuffer b, long at) throws IOException {
    for (long p = at; b.hasRemaining(); ) {
      int n = in.read(b, p);
      if (n < 0) {
        throw new IOException("the journal ended at byte " + p + " inside a frame this writer appended");
      }
      p += n;
    }
  }

  private static void closeQuietly(FileChannel c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException ignored) {
        // already failing
      }
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
          renameCompaction();
          forced = m.logical();
          checkpoint.writeAndForce(checkpointOf(m));
        }
      } finally {
        channel.close();
      }
    }
  }
}
