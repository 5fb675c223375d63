package dev.hfr.runtime.ledger;

import dev.hfr.runtime.ledger.internal.CheckpointFile;
import dev.hfr.runtime.ledger.internal.JournalBytes;
import dev.hfr.runtime.ledger.internal.JournalCodec;
import dev.hfr.runtime.ledger.internal.JournalScanner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * A journal written by a real ledger with concurrent writers, taken apart into its frames, and the means
 * to put a chosen crash or damage state of it (journal bytes plus the checkpoint a given force left) into
 * a directory and open it. Used by {@link CrashConsistencyTest} and {@link JournalBitFlipProperties}.
 */
final class JournalImage {

  /** An acknowledged operation: the state a writer was told it had reached. */
  record Ack(String key, LedgerState state) {}

  final byte[] bytes;
  final JournalCodec.FileHeader header;
  final List<JournalScanner.Located> frames;
  final List<Ack> acks;

  /** Byte offsets of the frames in the journal file {@code journal}. */
  static List<Long> frameOffsets(Path journal) throws IOException {
    byte[] data = Files.readAllBytes(journal);
    List<Long> offsets = new ArrayList<>();
    for (int pos = JournalCodec.FILE_HEADER; pos < data.length; pos += JournalCodec.HEADER + ByteBuffer.wrap(data, pos, 4).getInt()) {
      offsets.add((long) pos);
    }
    return offsets;
  }

  private JournalImage(byte[] bytes, List<Ack> acks) {
    this.bytes = bytes;
    this.header = JournalCodec.readFileHeader(bytes);
    List<JournalScanner.Located> read = new ArrayList<>();
    JournalScanner.scan(JournalBytes.of(bytes), header, bytes.length, 0, read::add);
    this.frames = read;
    this.acks = acks;
  }

  /**
   * {@code threads} writers, each preparing {@code keysPerThread} keys and settling them (commit, or fail
   * then prepare again and commit, or leave PREPARED), all at once on one ledger; then a clean close.
   */
  static JournalImage written(Path dir, int threads, int keysPerThread) throws Exception {
    List<Ack> acks = java.util.Collections.synchronizedList(new ArrayList<>());
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir)) {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> writers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        Thread w = new Thread(() -> {
          try {
            start.await();
            for (int i = 0; i < keysPerThread; i++) {
              String key = "k-" + thread + "-" + i;
              ledger.prepare("acme", key, "Orders.create", "args-" + key);
              acks.add(new Ack(key, LedgerState.PREPARED));
              switch (i % 3) {
                case 0 -> {
                  ledger.transition("acme", key, LedgerState.PREPARED, LedgerState.COMMITTED, "r-" + key, 0);
                  acks.add(new Ack(key, LedgerState.COMMITTED));
                }
                case 1 -> {
                  ledger.transition("acme", key, LedgerState.PREPARED, LedgerState.FAILED, null, 0);
                  ledger.transition("acme", key, LedgerState.FAILED, LedgerState.PREPARED, null, 0);
                  ledger.transition("acme", key, LedgerState.PREPARED, LedgerState.COMMITTED, "r-" + key, 0);
                  acks.add(new Ack(key, LedgerState.COMMITTED));
                }
                default -> { } // left PREPARED: a crash during the attempt
              }
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        w.start();
        writers.add(w);
      }
      start.countDown();
      for (Thread w : writers) {
        w.join();
      }
    }
    return new JournalImage(Files.readAllBytes(dir.resolve(EmbeddedFileLedger.JOURNAL)), List.copyOf(acks));
  }

  /** The byte offset where frame {@code i} starts; {@code frames.size()} gives the end of the last frame. */
  long boundary(int i) {
    return i < frames.size() ? frames.get(i).offset() : bytes.length;
  }

  /** The index of the frame holding byte {@code offset} ({@code frames.size()} past the last frame). */
  int frameAt(long offset) {
    for (int i = 0; i < frames.size(); i++) {
      JournalScanner.Located f = frames.get(i);
      if (offset < f.offset() + f.length()) {
        return i;
      }
    }
    return frames.size();
  }

  /** Each key's state after replaying the first {@code n} frames. */
  Map<String, LedgerState> statesAfter(int n) {
    Map<String, LedgerState> states = new LinkedHashMap<>();
    for (JournalScanner.Located f : frames.subList(0, n)) {
      states.put(f.frame().put().key(), f.frame().put().record().state());
    }
    return states;
  }

  /**
   * Replaces {@code dir}'s files by {@code journal} and the checkpoint a force at frame boundary {@code
   * forcedFrames} would have left (the frames before it durable).
   */
  void install(Path dir, byte[] journal, int forcedFrames) throws IOException {
    Files.createDirectories(dir);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.write(dir.resolve(EmbeddedFileLedger.JOURNAL), journal);
    Path cp = dir.resolve(EmbeddedFileLedger.CHECKPOINT);
    try (FileChannel ch = FileChannel.open(cp, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      new CheckpointFile(ch, cp).write(new CheckpointFile.Checkpoint(
          header.ledgerId(), header.firstSeq(), header.firstSeq() + forcedFrames - 1, boundary(forcedFrames)));
    }
  }

  /** Each key's state in an open ledger, for the keys the image knows. */
  Map<String, LedgerState> statesIn(IdempotencyLedger ledger) {
    Map<String, LedgerState> states = new LinkedHashMap<>();
    for (JournalScanner.Located f : frames) {
      String key = f.frame().put().key();
      ledger.find("acme", key).ifPresent(r -> states.put(key, r.state()));
    }
    return states;
  }

  /** Deletes a scratch directory and everything in it. */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** A directory for crash states: on tmpfs when there is one (forces are free there), else under {@code fallback}. */
  static Path scratch(Path fallback, String name) throws IOException {
    Path shm = Path.of("/dev/shm");
    Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "hfr-crash-") : fallback;
    return base.resolve(name);
  }
}
