package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerLockedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * An exclusive OS file lock on {@code ledger.lock}, held for as long as the ledger is open. The operating
 * system releases it when the process dies, however it dies, so a killed process never leaves a stale
 * lock behind. The file records who holds it, for the error message of the next contender.
 */
public final class DirectoryLock implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  public static DirectoryLock acquire(Path lockFile) throws IOException {
    FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      ch.close();
      throw new LedgerLockedException("the ledger in " + lockFile.getParent() + " is already open in this JVM; share that instance");
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      String holder = holder(lockFile);
      ch.close();
      throw new LedgerLockedException(
          "the ledger in " + lockFile.getParent() + " is in use by another process (" + holder + "); an embedded ledger has one owner "
              + "at a time: stop that process, or use PostgresLedger to share a ledger between JVMs");
    }
    ch.truncate(0);
    ch.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + " since " + Instant.now() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
    return new DirectoryLock(ch, lock);
  }

  private static String holder(Path lockFile) {
    try {
      String s = Files.readString(lockFile, StandardCharsets.UTF_8).strip();
      return s.isEmpty() ? "holder unknown" : s;
    } catch (IOException e) {
      return "holder unknown";
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
