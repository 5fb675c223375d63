package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerCorruptedException;
import dev.hfr.runtime.ledger.LedgerCorruptedException.Damage;
import dev.hfr.runtime.ledger.LedgerStorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Decides, on open, what the files of a ledger directory mean — a new ledger, a journal to continue
 * (after cutting a crash's tail), a version-1 journal to upgrade, or damage to refuse — and what {@link
 * #repair} keeps. The rules (see also {@link JournalScanner} and {@link CheckpointFile}):
 *
 * <ul>
 *   <li>No journal and no checkpoint: a new ledger. Its absolute path is logged once.
 *   <li>A journal that is missing, empty, shorter than forced, or older than the checkpoint says, while
 *       the checkpoint says it held records: damage, never a new ledger — the message says which records
 *       are lost and how to go on (restore, or {@code repair}).
 *   <li>A version-2 or version-3 journal without its checkpoint, or with another ledger's: damage.
 *   <li>A version-1 journal: read with the version-1 rules, rewritten as version 3.
 *   <li>A version-2 journal: read and checked like a version-3 one (same frames, no task ids), then
 *       rewritten as version 3.
 * </ul>
 */
public final class JournalRecovery {

  private static final System.Logger LOG = System.getLogger("dev.hfr.runtime.ledger.EmbeddedFileLedger");
  private static final SecureRandom IDS = new SecureRandom();

  /**
   * A journal ready to be continued.
   *
   * @param framesRead how many intact frames were read (and handed to the sink, in order)
   * @param ledgerId the ledger's id
   * @param firstSeq the first frame's sequence number
   * @param lastSeq the last frame's sequence number ({@code firstSeq - 1}: none)
   * @param torn the crash tail that was cut off, or {@code null}
   * @param tornSavedTo where its bytes were saved, or {@code null}
   * @param created whether the ledger was created now
   * @param upgraded whether a version-1 or version-2 journal was rewritten as version 3
   */
  public record Opened(
      long framesRead, long ledgerId, long firstSeq, long lastSeq, JournalScanner.TornTail torn, Path tornSavedTo,
      boolean created, boolean upgraded) {}

  /** What {@link #repair} did: {@code movedAside} is null when nothing needed repair. */
  public record Repaired(Path movedAside, int recordsKept, List<Damage> damages) {}

  private JournalRecovery() {}

  /** The journal's bytes, read as the scan asks for them (an absent journal has none). */
  private static JournalBytes bytesOf(Path journal) throws IOException {
    return Files.exists(journal) ? JournalBytes.open(journal) : JournalBytes.of(new byte[0]);
  }

  /**
   * Opens the journal {@code journal} of a locked directory, handing each intact frame, in order, to {@code sink}
   * (a crash tail's are not), or throws {@link LedgerCorruptedException}: then what the sink got must be dropped.
   */
  public static Opened open(Path journal, CheckpointFile checkpoint, Consumer<JournalCodec.Frame> sink) throws IOException {
    Files.deleteIfExists(JournalWriter.compactionFile(journal)); // an interrupted compaction; the journal itself is intact
    if (checkpoint.state() == CheckpointFile.State.DAMAGED) {
      throw new LedgerCorruptedException(checkpoint.path(), List.of(checkpointDamage()), 0);
    }
    try (JournalBytes data = bytesOf(journal)) {
      return open(journal, data, checkpoint, sink);
    }
  }

  private static Opened open(Path journal, JournalBytes data, CheckpointFile checkpoint, Consumer<JournalCodec.Frame> sink)
      throws IOException {
    CheckpointFile.Checkpoint cp = checkpoint.current();
    boolean exists = Files.exists(journal);
    if (data.length() == 0) {
      if (exists || cp != null && cp.heldRecords()) {
        throw new LedgerCorruptedException(journal, List.of(lostJournal(exists, cp)), 0);
      }
      long id = IDS.nextLong();
      JournalWriter.writeFresh(journal, id, 1, List.of(), checkpoint);
      LOG.log(System.Logger.Level.INFO, "created a new HFR ledger in {0}", journal.getParent().toAbsolutePath());
      return new Opened(0, id, 1, 0, null, null, true, false);
    }
    if (data.startsWith(JournalCodec.LEGACY_MAGIC)) {
      return upgrade(journal, data, checkpoint, sink);
    }
    boolean v2 = data.startsWith(JournalCodec.V2_MAGIC);
    if (!v2 && !data.startsWith(JournalCodec.MAGIC)) {
      throw new LedgerCorruptedException(journal, List.of(notAJournal(data.length())), 0);
    }
    JournalCodec.FileHeader header = fileHeaderOf(data);
    if (header == null) {
      throw new LedgerCorruptedException(journal, List.of(new Damage(1, 0, Math.min(data.length(), JournalCodec.FILE_HEADER),
          "the journal's file header is cut short or fails its check", null)), 0);
    }
    if (cp == null) {
      throw new LedgerCorruptedException(journal, List.of(new Damage(1, 0, 0,
          "its checkpoint " + checkpoint.path().getFileName() + " is missing (deleted?), so nothing can vouch that the journal is "
              + "complete; if another process may still be using this ledger, stop it first", null)), 0);
    }
    checkBelongs(header, cp, journal);
    boolean sameFile = header.firstSeq() == cp.firstSeq();
    // A version-2 journal is replayed here and rewritten; the sink gets the frames of the rewritten one.
    LedgerTable upgrading = v2 ? new LedgerTable(null) : null;
    JournalScanner.Result scan = JournalScanner.scan(
        data, header, sameFile ? cp.length() : header.baseLength(), sameFile ? cp.lastSeq() : header.firstSeq() - 1,
        v2 ? f -> f.frame().applyTo(upgrading) : f -> sink.accept(f.frame()));
    if (!scan.damages().isEmpty()) {
      throw new LedgerCorruptedException(journal, scan.damages(), scan.frames());
    }
    data.close(); // read through: the tail is cut and the file rewritten by other handles
    Path saved = null;
    if (scan.tornTail() != null) {
      saved = cutTail(journal, scan.tornTail());
    }
    if (v2) {
      return rewriteAsCurrent(journal, upgrading, scan, saved, checkpoint, "2", sink);
    }
    return new Opened(scan.frames(), header.ledgerId(), header.firstSeq(), scan.lastSeq(), scan.tornTail(), saved, false, false);
  }

  /** The file header at the start of the journal, or {@code null} when it is cut short or fails its check. */
  private static JournalCodec.FileHeader fileHeaderOf(JournalBytes data) {
    return JournalCodec.readFileHeader(data.copy(0, (int) Math.min(data.length(), JournalCodec.FILE_HEADER)));
  }

  private static void checkBelongs(JournalCodec.FileHeader header, CheckpointFile.Checkpoint cp, Path journal) {
    if (header.ledgerId() != cp.ledgerId()) {
      throw new LedgerCorruptedException(journal, List.of(new Damage(1, 0, JournalCodec.FILE_HEADER,
          "the journal belongs to another ledger (id " + Long.toHexString(header.ledgerId()) + ") than its checkpoint (id "
              + Long.toHexString(cp.ledgerId()) + "): a journal copied in from elsewhere", null)), 0);
    }
    if (header.firstSeq() < cp.firstSeq()) {
      throw new LedgerCorruptedException(journal, List.of(new Damage(1, 0, JournalCodec.FILE_HEADER,
          "the journal is older than its checkpoint: it starts at sequence number " + header.firstSeq() + ", but the ledger had been "
              + "rewritten from " + cp.firstSeq() + " and had forced records up to " + cp.lastSeq()
              + " (an old copy restored without its checkpoint?); the records written since that copy are lost", null)), 0);
    }
  }

  private static Opened upgrade(Path journal, JournalBytes data, CheckpointFile checkpoint, Consumer<JournalCodec.Frame> sink)
      throws IOException {
    LedgerTable upgrading = new LedgerTable(null);
    JournalScanner.Result scan = JournalScanner.scanLegacy(data, f -> f.frame().applyTo(upgrading));
    if (!scan.damages().isEmpty()) {
      throw new LedgerCorruptedException(journal, scan.damages(), scan.frames());
    }
    data.close(); // read through: the tail is cut and the file rewritten by other handles
    Path saved = null;
    if (scan.tornTail() != null) {
      saved = cutTail(journal, scan.tornTail());
    }
    return rewriteAsCurrent(journal, upgrading, scan, saved, checkpoint, "1", sink);
  }

  /**
   * Rewrites an older journal's live records in the current format (the old file is kept beside it as
   * {@code ledger.journal.v<version>-<millis>}), with a new ledger id and a checkpoint vouching for it.
   */
  private static Opened rewriteAsCurrent(Path journal, LedgerTable replayed, JournalScanner.Result scan, Path tornSavedTo,
      CheckpointFile checkpoint, String version, Consumer<JournalCodec.Frame> sink) throws IOException {
    List<byte[]> live = JournalCodec.payloadsOf(replayed);
    Path oldCopy = journal.resolveSibling(journal.getFileName() + ".v" + version + "-" + System.currentTimeMillis());
    Files.copy(journal, oldCopy);
    long id = IDS.nextLong();
    JournalWriter.writeFresh(journal, id, 1, live, checkpoint);
    LOG.log(System.Logger.Level.INFO, "ledger journal {0}: rewrote a version-{1} journal ({2} frames, {3} live records) in format "
        + "version 3; the old file is kept as {4}", journal, version, scan.frames(), live.size(), oldCopy);
    long frames;
    try (JournalBytes rewritten = JournalBytes.open(journal)) {
      JournalCodec.FileHeader header = fileHeaderOf(rewritten);
      frames = JournalScanner.scan(rewritten, header, rewritten.length(), live.size(), f -> sink.accept(f.frame())).frames();
    }
    return new Opened(frames, id, 1, live.size(), scan.tornTail(), tornSavedTo, false, true);
  }

  /** Cuts the crash tail off the journal, after saving its bytes beside it. Returns where they were saved. */
  private static Path cutTail(Path journal, JournalScanner.TornTail t) throws IOException {
    Path saved = journal.resolveSibling(journal.getFileName() + ".torn-" + t.offset() + "-" + System.currentTimeMillis());
    try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileChannel out = FileChannel.open(saved, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long end = ch.size();
      for (long pos = t.offset(); pos < end; ) {
        pos += ch.transferTo(pos, end - pos, out);
      }
      out.force(true);
      ch.truncate(t.offset());
      ch.force(true);
    }
    LOG.log(System.Logger.Level.WARNING,
        "ledger journal {0}: cut off a crash tail of {1} bytes at offset {2} ({3}{4}); nothing in it was acknowledged as durable; saved as {5}",
        journal, t.bytes(), t.offset(), t.reason(),
        t.framesDropped() > 0 ? "; " + t.framesDropped() + " readable frames after it were dropped with it" : "", saved);
    return saved;
  }

  /**
   * Moves a damaged journal aside and writes one holding every intact record, with a checkpoint that
   * vouches for it. Returns a report with a null {@code movedAside} when there was nothing to repair.
   */
  public static Repaired repair(Path journal, CheckpointFile checkpoint) throws IOException {
    Files.deleteIfExists(JournalWriter.compactionFile(journal));
    try (JournalBytes data = bytesOf(journal)) {
      return repair(journal, data, checkpoint);
    }
  }

  private static Repaired repair(Path journal, JournalBytes data, CheckpointFile checkpoint) throws IOException {
    CheckpointFile.Checkpoint cp = checkpoint.current();
    boolean exists = Files.exists(journal);
    List<Damage> damages = new ArrayList<>();
    LedgerTable table = new LedgerTable(null);
    Consumer<JournalScanner.Located> replay = f -> f.frame().applyTo(table);
    boolean torn = false;
    long ledgerId = cp != null ? cp.ledgerId() : IDS.nextLong();
    long lastSeen = cp != null ? cp.lastSeq() : 0;
    if (checkpoint.state() == CheckpointFile.State.DAMAGED) {
      damages.add(checkpointDamage());
    }
    if (data.length() == 0) {
      if (exists || cp != null && cp.heldRecords()) {
        damages.add(lostJournal(exists, cp));
      } else if (checkpoint.state() == CheckpointFile.State.ABSENT) {
        return new Repaired(null, 0, List.of()); // nothing there: open creates a new ledger
      }
    } else if (data.startsWith(JournalCodec.LEGACY_MAGIC)) {
      JournalScanner.Result scan = JournalScanner.scanLegacy(data, replay);
      damages.addAll(scan.damages());
      torn = scan.tornTail() != null;
      if (damages.isEmpty()) {
        return new Repaired(null, table.size(), List.of()); // open upgrades it
      }
    } else {
      JournalCodec.FileHeader header = fileHeaderOf(data);
      if (header == null) {
        damages.add(data.startsWith(JournalCodec.MAGIC) || data.startsWith(JournalCodec.V2_MAGIC)
            ? new Damage(1, 0, data.length(), "the journal's file header fails its check", null) : notAJournal(data.length()));
      } else {
        boolean vouched = cp != null && header.ledgerId() == cp.ledgerId() && header.firstSeq() >= cp.firstSeq();
        if (!vouched) {
          damages.add(new Damage(1, 0, JournalCodec.FILE_HEADER, cp == null ? "the checkpoint is missing or damaged"
              : "the journal does not match its checkpoint (another ledger's, or older)", null));
        }
        boolean sameFile = vouched && header.firstSeq() == cp.firstSeq();
        JournalScanner.Result scan = JournalScanner.scan(
            data, header, sameFile ? cp.length() : header.baseLength(), sameFile ? cp.lastSeq() : header.firstSeq() - 1, replay);
        damages.addAll(scan.damages());
        torn = scan.tornTail() != null;
        ledgerId = header.ledgerId();
        lastSeen = Math.max(lastSeen, Math.max(scan.lastSeq(), header.firstSeq()));
      }
    }
    if (damages.isEmpty() && !torn) {
      return new Repaired(null, table.size(), List.of());
    }
    Path aside = null;
    if (exists) {
      data.close(); // before the move: a platform may refuse to move an open file
      aside = journal.resolveSibling(journal.getFileName() + ".corrupt-" + System.currentTimeMillis());
      Files.move(journal, aside, StandardCopyOption.ATOMIC_MOVE);
    }
    JournalWriter.writeFresh(journal, ledgerId, lastSeen + 1, JournalCodec.payloadsOf(table), checkpoint);
    LOG.log(System.Logger.Level.WARNING, "ledger journal {0} repaired: damaged file moved to {1}; kept {2} records; lost regions: {3}",
        journal, aside, table.size(), damages);
    return new Repaired(aside, table.size(), damages);
  }

  private static Damage lostJournal(boolean exists, CheckpointFile.Checkpoint cp) {
    String what = exists ? "is empty (0 bytes)" : "is missing";
    String held = cp != null && cp.heldRecords()
        ? ", but its checkpoint says it held " + cp.records() + " journal frames (sequence numbers " + cp.firstSeq() + ".." + cp.lastSeq()
            + ", " + cp.length() + " bytes forced to disk): every record in them is lost"
        : "; the ledger never leaves an empty journal (it creates journals whole, by rename), so this is damage, not a new ledger";
    return new Damage(1, 0, cp != null ? cp.length() : 0, "the journal " + what + held
        + ". A write whose record is lost could run again: restore the ledger directory from a backup if you have one", null);
  }

  private static Damage checkpointDamage() {
    return new Damage(1, 0, 128, "both slots of the checkpoint fail their check, so nothing can vouch that the journal is complete",
        null);
  }

  private static Damage notAJournal(long size) {
    return new Damage(1, 0, size, "the file does not start with "
        + new String(JournalCodec.MAGIC, StandardCharsets.US_ASCII) + " (or " + new String(JournalCodec.V2_MAGIC, StandardCharsets.US_ASCII)
        + ", " + new String(JournalCodec.LEGACY_MAGIC, StandardCharsets.US_ASCII)
        + "): it is not an HFR ledger journal, or its header is damaged", null);
  }
}
