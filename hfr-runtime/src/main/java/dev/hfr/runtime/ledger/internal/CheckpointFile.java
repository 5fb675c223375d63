package dev.hfr.runtime.ledger.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalLong;

/**
 * {@code ledger.checkpoint}: what the journal is known to hold — its ledger id, first and last forced
 * sequence numbers and forced length — kept apart from the journal so that a journal cut short, emptied,
 * deleted or swapped for an older copy is recognised as damage instead of being read as a crash or a new
 * ledger. The ledger never deletes this file.
 *
 * <p>It is written after each force of the journal (so it never claims more than the device holds) into
 * one of two 64-byte slots in turn, each with its own CRC32C and a counter; the valid slot with the
 * higher counter is the checkpoint. A crash while writing one slot leaves the other. The slots are not
 * forced themselves: a lost checkpoint write only makes the next open check a little less (the previous
 * checkpoint is still a true lower bound). Bytes 256–383 name the ledger's current holder, for the lock's
 * error message (see {@link DirectoryLock}). Bytes 384–403 mark that the ledger keeps settled records in {@link
 * SettledStore}'s file, so that a store deleted or lost later is recognised as damage instead of being created
 * anew, empty (its records' writes would then run again when repeated).
 *
 * <pre>
 * slot = "HFR-CKP1" counter:int64 ledgerId:int64 firstSeq:int64 lastSeq:int64 length:int64 crc:int32 (52 of 64 bytes)
 * mark = "HFR-STO1" ledgerId:int64 crc:int32                                                          (at byte 384)
 * </pre>
 */
public final class CheckpointFile {

  /** The checkpoint's file name inside the ledger directory. */
  public static final String NAME = "ledger.checkpoint";

  static final int HOLDER_OFFSET = 256;
  static final int HOLDER_BYTES = 128;
  private static final int STORE_MARK_OFFSET = HOLDER_OFFSET + HOLDER_BYTES;
  private static final byte[] STORE_MAGIC = "HFR-STO1".getBytes(StandardCharsets.US_ASCII);
  private static final int STORE_MARK_BYTES = 20;
  private static final byte[] MAGIC = "HFR-CKP1".getBytes(StandardCharsets.US_ASCII);
  private static final int SLOT = 64;
  private static final int CHECKED = 48;

  /**
   * What the journal is known to hold.
   *
   * @param ledgerId the id in the journal's header
   * @param firstSeq the sequence number of the journal's first frame
   * @param lastSeq the last sequence number forced to the device ({@code firstSeq - 1}: none)
   * @param length the journal's length when {@code lastSeq} was forced
   */
  public record Checkpoint(long ledgerId, long firstSeq, long lastSeq, long length) {

    /** Whether the journal had held at least one record. */
    public boolean heldRecords() {
      return lastSeq >= firstSeq;
    }

    /** How many records the journal held. */
    public long records() {
      return lastSeq - firstSeq + 1;
    }
  }

  /** What reading the file found. */
  public enum State { ABSENT, VALID, DAMAGED }

  private final FileChannel channel;
  private final Path path;
  private long counter;
  private State state;
  private Checkpoint current;

  /** Reads the checkpoint through {@code channel} (held open, and locked, by {@link DirectoryLock}). */
  public CheckpointFile(FileChannel channel, Path path) throws IOException {
    this.channel = channel;
    this.path = path;
    ByteBuffer slots = ByteBuffer.allocate(2 * SLOT);
    while (slots.hasRemaining() && channel.read(slots, slots.position()) > 0) {
      // read both slots, as much as there is
    }
    byte[] data = slots.array();
    Checkpoint best = null;
    boolean anyBytes = false;
    for (int s = 0; s < 2; s++) {
      int at = s * SLOT;
      anyBytes |= !allZero(data, at, at + SLOT);
      ByteBuffer b = ByteBuffer.wrap(data);
      if (!Arrays.equals(data, at, at + MAGIC.length, MAGIC, 0, MAGIC.length)
          || b.getInt(at + CHECKED) != JournalCodec.crc(data, at, CHECKED)) {
        continue;
      }
      long c = b.getLong(at + 8);
      if (best == null || c > counter) {
        counter = c;
        best = new Checkpoint(b.getLong(at + 16), b.getLong(at + 24), b.getLong(at + 32), b.getLong(at + 40));
      }
    }
    current = best;
    state = best != null ? State.VALID : anyBytes ? State.DAMAGED : State.ABSENT;
  }

  /** Whether the file holds a checkpoint, none, or only damaged ones. */
  public State state() {
    return state;
  }

  /** The latest checkpoint, or {@code null} unless {@link #state()} is VALID. */
  public Checkpoint current() {
    return current;
  }

  /** The file. */
  public Path path() {
    return path;
  }

  /** Writes {@code c} into the older slot (not forced: see the class comment). */
  public synchronized void write(Checkpoint c) throws IOException {
    counter++;
    ByteBuffer b = ByteBuffer.allocate(SLOT);
    b.put(MAGIC).putLong(counter).putLong(c.ledgerId()).putLong(c.firstSeq()).putLong(c.lastSeq()).putLong(c.length());
    b.putInt(CHECKED, JournalCodec.crc(b.array(), 0, CHECKED));
    b.clear();
    long at = (counter & 1) * SLOT;
    while (b.hasRemaining()) {
      at += channel.write(b, at);
    }
    current = c;
    state = State.VALID;
  }

  /** Writes {@code c} and forces it: used when the journal is created or replaced. */
  public void writeAndForce(Checkpoint c) throws IOException {
    write(c);
    channel.force(false);
  }

  /**
   * The id of the ledger that marked a settled store in this directory; empty for a new directory, one written
   * before the store existed, or one whose mark a repair cleared. A damaged mark reads as none.
   */
  public OptionalLong storeMarkedFor() throws IOException {
    ByteBuffer b = ByteBuffer.allocate(STORE_MARK_BYTES);
    while (b.hasRemaining() && channel.read(b, STORE_MARK_OFFSET + b.position()) > 0) {
      // read what there is
    }
    byte[] data = b.array();
    if (b.position() < STORE_MARK_BYTES || !Arrays.equals(data, 0, STORE_MAGIC.length, STORE_MAGIC, 0, STORE_MAGIC.length)
        || b.getInt(16) != JournalCodec.crc(data, 0, 16)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(b.getLong(8));
  }

  /** Marks, durably, that ledger {@code ledgerId} keeps settled records in this directory's store. */
  public synchronized void markStore(long ledgerId) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(STORE_MARK_BYTES);
    b.put(STORE_MAGIC).putLong(ledgerId);
    b.putInt(16, JournalCodec.crc(b.array(), 0, 16));
    writeMark(b);
  }

  /** Clears the store's mark, durably: a repair that starts the settled records over. */
  public synchronized void clearStoreMark() throws IOException {
    writeMark(ByteBuffer.allocate(STORE_MARK_BYTES));
  }

  private void writeMark(ByteBuffer b) throws IOException {
    b.clear();
    long at = STORE_MARK_OFFSET;
    while (b.hasRemaining()) {
      at += channel.write(b, at);
    }
    channel.force(false);
  }

  private static boolean allZero(byte[] data, int from, int to) {
    for (int i = from; i < to; i++) {
      if (data[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
