package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerLockedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ledger directory's owner lock: exclusive OS file locks ({@code fcntl}, through {@link
 * FileChannel#tryLock()}) on <em>two</em> files the ledger never deletes, {@code ledger.lock} and {@code
 * ledger.checkpoint}, held for as long as the ledger is open. The operating system releases them when the
 * process dies, however it dies, so there is never a stale lock to clean up after a crash. Because a
 * contender must win both, deleting one of the files (say, an operator removing {@code ledger.lock} as
 * "stale") does not let a second process in: it still finds the other one locked, and the holder's pid
 * written in it.
 *
 * <p>POSIX drops all of a process's locks on a file when <em>any</em> descriptor of that file is closed,
 * so a second open in the same JVM must not even open the files: it is refused from a JVM-wide registry
 * of the directories held, before any channel is opened.
 */
public final class DirectoryLock implements AutoCloseable {

  /** The lock file's name inside the ledger directory. */
  public static final String NAME = "ledger.lock";

  private static final Set<Path> HELD_IN_THIS_JVM = ConcurrentHashMap.newKeySet();
  private static final String FREE = "not held: the ledger is closed. The lock is an OS lock, released when its holder exits; "
      + "this file is never stale and needs no cleaning up.\n";

  private final Path directory;
  private final FileChannel lockChannel;
  private final FileChannel checkpointChannel;
  private final FileLock lockFileLock;
  private final FileLock checkpointLock;

  private DirectoryLock(Path directory, FileChannel lockChannel, FileLock lockFileLock, FileChannel checkpointChannel, FileLock checkpointLock) {
    this.directory = directory;
    this.lockChannel = lockChannel;
    this.lockFileLock = lockFileLock;
    this.checkpointChannel = checkpointChannel;
    this.checkpointLock = checkpointLock;
  }

  /**
   * Takes both locks of {@code directory} (an absolute path) or throws {@link LedgerLockedException}
   * naming the holder.
   */
  public static DirectoryLock acquire(Path directory) throws IOException {
    Path dir = directory.toRealPath();
    if (!HELD_IN_THIS_JVM.add(dir)) {
      throw new LedgerLockedException("the ledger in " + dir + " is already open in this JVM; share that instance");
    }
    FileChannel lockCh = null;
    FileChannel ckptCh = null;
    try {
      lockCh = FileChannel.open(dir.resolve(NAME), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      ckptCh = FileChannel.open(dir.resolve(CheckpointFile.NAME), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock l1 = tryLock(lockCh, dir);
      FileLock l2 = l1 == null ? null : tryLock(ckptCh, dir);
      if (l1 == null || l2 == null) {
        String holder = holder(l1 == null ? readAll(lockCh) : "", readHolderArea(ckptCh));
        throw new LedgerLockedException(
            "the ledger in " + dir + " is in use by another process (" + holder + "); an embedded ledger has one owner "
                + "at a time: stop that process, or use PostgresLedger to share a ledger between JVMs"
                + (l1 != null ? ". (Its lock file " + NAME + " had been deleted; the lock on " + CheckpointFile.NAME + " still holds.)" : ""));
      }
      String me = "pid " + ProcessHandle.current().pid() + " since " + Instant.now();
      lockCh.truncate(0);
      writeFully(lockCh, me + "\nThis file is locked by the OS while the ledger is open and released when its holder exits, "
          + "however it exits: it is never stale. Do not delete it.\n", 0);
      writeHolderArea(ckptCh, me);
      DirectoryLock lock = new DirectoryLock(dir, lockCh, l1, ckptCh, l2);
      lockCh = null;
      ckptCh = null;
      return lock;
    } finally {
      if (lockCh != null || ckptCh != null) {
        closeQuietly(lockCh);
        closeQuietly(ckptCh);
        HELD_IN_THIS_JVM.remove(dir);
      }
    }
  }

  private static FileLock tryLock(FileChannel ch, Path dir) throws IOException {
    try {
      return ch.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new LedgerLockedException("the ledger in " + dir + " is already open in this JVM; share that instance");
    }
  }

  private static String holder(String lockFileText, String checkpointHolder) {
    String first = lockFileText.lines().findFirst().orElse("").strip();
    if (first.startsWith("pid ")) {
      return first;
    }
    return checkpointHolder.startsWith("pid ") ? checkpointHolder : "holder unknown";
  }

  /** The channel of {@code ledger.checkpoint}, locked; {@link CheckpointFile} reads and writes through it. */
  public FileChannel checkpointChannel() {
    return checkpointChannel;
  }

  /** The locked directory (its real path). */
  public Path directory() {
    return directory;
  }

  private static String readAll(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate((int) Math.min(ch.size(), 4096));
    while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
      // read what there is
    }
    return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
  }

  private static String readHolderArea(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(CheckpointFile.HOLDER_BYTES);
    while (b.hasRemaining() && ch.read(b, CheckpointFile.HOLDER_OFFSET + b.position()) > 0) {
      // read what there is
    }
    return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).replace("\0", "").strip();
  }

  private static void writeHolderArea(FileChannel ch, String text) throws IOException {
    byte[] area = new byte[CheckpointFile.HOLDER_BYTES];
    byte[] t = text.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(t, 0, area, 0, Math.min(t.length, area.length));
    writeFully(ch, area, CheckpointFile.HOLDER_OFFSET);
  }

  private static void writeFully(FileChannel ch, String text, long at) throws IOException {
    writeFully(ch, text.getBytes(StandardCharsets.UTF_8), at);
  }

  private static void writeFully(FileChannel ch, byte[] bytes, long at) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      at += ch.write(b, at);
    }
  }

  /** Releases both locks; the files say the ledger is free (so nobody reads a dead pid as a stale lock). */
  @Override
  public void close() throws IOException {
    try {
      lockChannel.truncate(0);
      writeFully(lockChannel, FREE, 0);
      writeHolderArea(checkpointChannel, "");
    } catch (IOException e) {
      // the locks are released below in any case; the text is only a courtesy to the next reader
    } finally {
      try {
        closeQuietly(checkpointLock);
        closeQuietly(lockFileLock);
        closeQuietly(checkpointChannel);
        closeQuietly(lockChannel);
      } finally {
        HELD_IN_THIS_JVM.remove(directory);
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception ignored) {
      // releasing after a failure; the first failure is the one reported
    }
  }

  @Override
  public String toString() {
    return "DirectoryLock[" + directory + "]";
  }
}
