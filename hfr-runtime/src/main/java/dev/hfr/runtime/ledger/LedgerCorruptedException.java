package dev.hfr.runtime.ledger;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The embedded ledger's journal holds damaged records that are not a torn tail, or its store of settled
 * records ({@code ledger.db}) holds a row that fails its check or pages SQLite cannot read: the file was changed
 * behind the ledger's back, or the storage corrupted it. The ledger refuses to open rather than drop
 * acknowledged records silently. The message names the file and each damaged region (record number, byte
 * offset, length, why); {@link EmbeddedFileLedger#repair} moves the file aside and keeps every readable
 * record, once an operator has decided to.
 */
public class LedgerCorruptedException extends LedgerStorageException {

  private static final long serialVersionUID = 1L;

  /**
   * One damaged region of the journal.
   *
   * @param recordNumber the position of the first unreadable record in the journal, counting from 1
   * @param offset the byte offset where the damage starts
   * @param length how many bytes could not be read, up to the next readable record or the end of the file
   * @param reason what is wrong (CRC mismatch, impossible length, undecodable fields)
   * @param suspectedRecord the tenant and key the damaged bytes seem to belong to, unverified, or {@code null}
   */
  public record Damage(long recordNumber, long offset, long length, String reason, String suspectedRecord) {
    @Override
    public String toString() {
      return "record #" + recordNumber + " at byte offset " + offset + " (" + length + " bytes): " + reason
          + (suspectedRecord != null ? " [seems to be " + suspectedRecord + "]" : "");
    }
  }

  private final transient Path file;
  private final List<Damage> damages;
  private final long readableRecords;

  public LedgerCorruptedException(Path file, List<Damage> damages, long readableRecords) {
    this(file, damages, readableRecords, message(file, damages, readableRecords));
  }

  /**
   * Damage described by {@code message}: the embedded ledger's store of settled records ({@code ledger.db}),
   * where SQLite or a row's check found it.
   *
   * @param readableRecords how many records are intact, or -1 when that is not known without a full scan
   */
  public LedgerCorruptedException(Path file, List<Damage> damages, long readableRecords, String message) {
    super(message);
    this.file = Objects.requireNonNull(file, "file");
    this.damages = List.copyOf(damages);
    this.readableRecords = readableRecords;
  }

  /** The damaged journal file. */
  public Path file() {
    return file;
  }

  /** Every damaged region, in file order. */
  public List<Damage> damages() {
    return damages;
  }

  /** How many records are intact and would be kept by a repair; -1 when not known (damage found in {@code ledger.db}). */
  public long readableRecords() {
    return readableRecords;
  }

  private static String message(Path file, List<Damage> damages, long readable) {
    StringBuilder m = new StringBuilder("ledger journal ").append(file).append(" is corrupted in ").append(damages.size())
        .append(damages.size() == 1 ? " place" : " places").append(':');
    for (Damage d : damages) {
      m.append("\n  ").append(d);
    }
    m.append("\nNothing was truncated or changed. ").append(readable)
        .append(" records are intact. Either restore the ledger directory (journal and checkpoint together) from a backup, or, to ")
        .append("move the damaged file aside and continue with the intact records (a write whose record is lost may then run ")
        .append("again), call EmbeddedFileLedger.repair(").append(file.getParent()).append(")");
    return m.toString();
  }
}
