package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerCorruptedException.Damage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Reads a journal image and sorts its bytes into readable frames, damaged regions and a crash's tail.
 *
 * <p>The line between the two is the <b>durable mark</b>: the journal length the ledger had forced to the
 * device when it last wrote its checkpoint ({@link CheckpointFile}), or the length the file had when it
 * was written whole. Bytes before the mark were on the device and acknowledged; a crash cannot change
 * them, so anything unreadable there — a frame header or payload that fails its check, a sequence number
 * out of order, a file that ends before the mark — is <b>damage</b>, reported with record number,
 * offset and reason, and the scan goes on to find every intact record after it. Bytes after the mark
 * were written but not yet forced when the ledger stopped: a crash may leave any prefix of them, and
 * after a power loss any subset of their sectors (zeros in place of the others). So the first unreadable
 * frame after the mark ends the journal: it and everything after it are the <b>crash tail</b>, cut off,
 * saved and reported (with the number of readable frames dropped after the gap; none was acknowledged as
 * durable).
 *
 * <p>The journal is read through {@link JournalBytes}, front to back, and each readable frame is handed to a
 * sink as it is found: a journal of any size is scanned in a bounded heap.
 */
public final class JournalScanner {

  /** A readable frame and where it was. */
  public record Located(long offset, int length, long seq, JournalCodec.Frame frame) {}

  /**
   * What a crash left after the durable mark.
   *
   * @param offset where the tail starts
   * @param bytes how many bytes are cut off
   * @param reason why the first frame of the tail is unreadable
   * @param framesDropped readable frames after the unreadable one (written after the last force, in a
   *     different order on the device than in the file), dropped with the tail
   */
  public record TornTail(long offset, long bytes, String reason, int framesDropped) {
    TornTail(long offset, long bytes, String reason) {
      this(offset, bytes, reason, 0);
    }
  }

  /**
   * The result of a scan.
   *
   * @param frames how many readable frames were handed to the sink
   * @param lastSeq the sequence number of the last readable frame, or firstSeq - 1
   */
  public record Result(boolean magicOk, long frames, List<Damage> damages, TornTail tornTail, long lastSeq) {
    Result(boolean magicOk, long frames, List<Damage> damages, TornTail tornTail) {
      this(magicOk, frames, damages, tornTail, frames);
    }
  }

  private JournalScanner() {}

  /**
   * Scans a version-2 journal whose file header was read as {@code header}.
   *
   * @param durableMark the length that is known to have been forced (see the class comment); at least
   *     the header's base length
   * @param durableSeq the last sequence number the checkpoint says was forced, or {@code header.firstSeq() - 1}
   */
  public static Result scan(
      JournalBytes data, JournalCodec.FileHeader header, long durableMark, long durableSeq, Consumer<Located> sink) {
    long n = data.length();
    long mark = Math.max(durableMark, header.baseLength());
    long frames = 0;
    long lastSeq = header.firstSeq() - 1;
    List<Damage> damages = new ArrayList<>();
    TornTail torn = null;
    long expected = header.firstSeq();
    long pos = JournalCodec.FILE_HEADER;
    while (pos < n) {
      long recordNumber = frames + damages.size() + 1L;
      Probe p = probe(data, pos, expected);
      if (p.frame != null) {
        sink.accept(p.frame);
        frames++;
        lastSeq = p.frame.seq();
        expected = p.frame.seq() + 1;
        pos += p.frame.length();
        continue;
      }
      if (pos >= mark) {
        int after = 0;
        for (long q = nextValidFrame(data, pos + 1); q >= 0; q = nextValidFrame(data, q + 1)) {
          after++;
        }
        torn = new TornTail(pos, n - pos, p.problem + "; written after the last forced checkpoint (byte " + mark + ")", after);
        break;
      }
      long next = nextValidFrame(data, pos + 1);
      if (next < 0 && n < mark && p.incomplete) {
        break; // the file was cut inside this frame: reported below, as a truncation
      }
      long end = next < 0 ? n : next;
      String lost = "";
      if (next >= 0) {
        long nextSeq = data.getLong(next + 4);
        if (nextSeq > expected) {
          lost = " (records with sequence numbers " + expected + ".." + (nextSeq - 1) + " are missing)";
        }
      }
      damages.add(new Damage(recordNumber, pos, end - pos, p.problem + lost, suspect(data, pos, n)));
      if (next >= 0) {
        expected = data.getLong(next + 4);
      }
      pos = end;
    }
    if (n < mark) {
      long missingFrom = Math.max(lastSeq + 1, header.firstSeq());
      String records = durableSeq >= missingFrom
          ? "records with sequence numbers " + missingFrom + ".." + durableSeq + " (" + (durableSeq - missingFrom + 1) + " records) are lost"
          : "records are lost";
      damages.add(new Damage(frames + damages.size() + 1L, n, mark - n,
          "the journal ends at byte " + n + " but " + mark + " bytes had been forced to disk: it was truncated or replaced, "
              + "which no crash of the ledger does; " + records, null));
    }
    return new Result(true, frames, damages, torn, lastSeq);
  }

  /** A frame read at an offset, or why none could be. */
  private record Probe(Located frame, String problem, boolean incomplete) {
    Probe(Located frame, String problem) {
      this(frame, problem, false);
    }
  }

  private static Probe probe(JournalBytes data, long pos, long expectedSeq) {
    long remaining = data.length() - pos;
    if (remaining < JournalCodec.HEADER) {
      return new Probe(null, data.allZero(pos, data.length())
          ? "the file ends in " + remaining + " zero bytes (an unfinished write)"
          : "incomplete frame header (" + remaining + " of " + JournalCodec.HEADER + " bytes)", true);
    }
    if (data.allZero(pos, pos + JournalCodec.HEADER)) {
      return new Probe(null, data.allZero(pos, data.length())
          ? "the file ends in " + remaining + " zero bytes (a write the device never finished)"
          : "a zeroed frame header (a write the device never finished)");
    }
    if (data.getInt(pos + 16) != data.crc(pos, 16)) {
      return new Probe(null, String.format("frame header check failed (stored %08x, computed %08x): its length or sequence number is damaged",
          data.getInt(pos + 16), data.crc(pos, 16)));
    }
    int len = data.getInt(pos);
    long seq = data.getLong(pos + 4);
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD) {
      return new Probe(null, "impossible frame length " + len);
    }
    if (pos + JournalCodec.HEADER + len > data.length()) {
      return new Probe(null, "incomplete frame (" + (remaining - JournalCodec.HEADER) + " of " + len + " payload bytes)", true);
    }
    int stored = data.getInt(pos + 12);
    int computed = data.crc(pos + JournalCodec.HEADER, len);
    if (stored != computed) {
      return new Probe(null, String.format("payload CRC32C mismatch (stored %08x, computed %08x)", stored, computed));
    }
    JournalCodec.Frame frame;
    try {
      frame = JournalCodec.decode(data.copy(pos + JournalCodec.HEADER, len), 0, len);
    } catch (RuntimeException e) {
      return new Probe(null, "undecodable frame: " + e.getMessage());
    }
    if (seq != expectedSeq) {
      return new Probe(null, "sequence number " + seq + " where " + expectedSeq
          + " was expected (a frame copied from elsewhere, or frames reordered)");
    }
    return new Probe(new Located(pos, JournalCodec.HEADER + len, seq, frame), null);
  }

  /**
   * The first offset at or after {@code from} where a complete, checked, decodable version-2 frame starts, or -1.
   * A frame header holds a non-zero byte in its first 20 (its check is the CRC of its first 16, never zero for
   * zeros), so runs of zeros, what a device leaves of unfinished writes, are skipped whole.
   */
  static long nextValidFrame(JournalBytes data, long from) {
    long n = data.length();
    for (long p = from; p + JournalCodec.HEADER + JournalCodec.MIN_PAYLOAD <= n; p++) {
      if (data.getInt(p) == 0 && data.getInt(p + 4) == 0 && data.getInt(p + 8) == 0 && data.getInt(p + 12) == 0
          && data.getInt(p + 16) == 0) {
        long nonZero = data.nextNonZero(p + JournalCodec.HEADER, n);
        if (nonZero < 0) {
          return -1;
        }
        p = Math.max(p, nonZero - JournalCodec.HEADER); // the loop's p++ makes it the first start that reaches nonZero
        continue;
      }
      if (data.getInt(p + 16) != data.crc(p, 16)) {
        continue;
      }
      int len = data.getInt(p);
      if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || p + JournalCodec.HEADER + len > n
          || data.getInt(p + 12) != data.crc(p + JournalCodec.HEADER, len)) {
        continue;
      }
      if (describe(data, p + JournalCodec.HEADER, len) != null) {
        return p;
      }
    }
    return -1;
  }

  /** Best effort: the tenant and key a damaged frame seems to hold, ignoring its checks. */
  private static String suspect(JournalBytes data, long pos, long n) {
    if (n - pos < JournalCodec.HEADER) {
      return null;
    }
    int len = data.getInt(pos);
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || pos + JournalCodec.HEADER + len > n) {
      return null;
    }
    return describe(data, pos + JournalCodec.HEADER, len);
  }

  /** What the payload of {@code len} bytes at {@code offset} holds, or {@code null} when it does not decode. */
  private static String describe(JournalBytes data, long offset, int len) {
    try {
      return JournalCodec.decode(data.copy(offset, len), 0, len).describe();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Reads a version-1 journal (see {@link JournalCodec}): a torn tail is an incomplete last frame or zeros. */
  public static Result scanLegacy(JournalBytes data, Consumer<Located> sink) {
    long n = data.length();
    int magicLen = JournalCodec.LEGACY_MAGIC.length;
    if (n < magicLen) {
      byte[] head = data.copy(0, (int) n);
      boolean prefix = java.util.Arrays.equals(head, 0, head.length, JournalCodec.LEGACY_MAGIC, 0, head.length) || data.allZero(0, n);
      return new Result(prefix, 0, List.of(), n == 0 ? null : new TornTail(0, n, "incomplete file header"));
    }
    if (!data.startsWith(JournalCodec.LEGACY_MAGIC)) {
      return new Result(false, 0, List.of(), null);
    }
    long frames = 0;
    List<Damage> damages = new ArrayList<>();
    TornTail torn = null;
    long lastNonZero = data.lastNonZero();
    long pos = magicLen;
    while (pos < n) {
      long recordNumber = frames + damages.size() + 1L;
      long remaining = n - pos;
      if (pos > lastNonZero) {
        torn = new TornTail(pos, remaining, "the file ends in " + remaining + " zero bytes (an unfinished write)");
        break;
      }
      if (remaining < JournalCodec.LEGACY_HEADER) {
        torn = new TornTail(pos, remaining, "incomplete frame header (" + remaining + " of " + JournalCodec.LEGACY_HEADER + " bytes)");
        break;
      }
      int len = data.getInt(pos);
      String problem;
      if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD) {
        problem = "impossible frame length " + len;
      } else if (pos + JournalCodec.LEGACY_HEADER + len > n) {
        long next = nextValidLegacyFrame(data, pos + 1);
        if (next < 0) {
          torn = new TornTail(pos, remaining, "incomplete last frame (" + (remaining - JournalCodec.LEGACY_HEADER) + " of " + len + " payload bytes)");
          break;
        }
        problem = "frame length " + len + " runs past the end of the file, yet intact records follow";
      } else {
        int stored = data.getInt(pos + 4);
        byte[] payload = data.copy(pos + JournalCodec.LEGACY_HEADER, len);
        int computed = JournalCodec.legacyCrc(len, payload, 0);
        if (stored != computed) {
          problem = String.format("CRC32C mismatch (stored %08x, computed %08x)", stored, computed);
        } else {
          JournalCodec.Frame frame = null;
          String undecodable = null;
          try {
            frame = JournalCodec.decode(payload, 0, len);
          } catch (RuntimeException e) {
            undecodable = "undecodable frame: " + e.getMessage();
          }
          if (frame != null) {
            frames++;
            sink.accept(new Located(pos, JournalCodec.LEGACY_HEADER + len, frames, frame));
            pos += JournalCodec.LEGACY_HEADER + len;
            continue;
          }
          problem = undecodable;
        }
      }
      long next = nextValidLegacyFrame(data, pos + 1);
      long end = next < 0 ? n : next;
      damages.add(new Damage(recordNumber, pos, end - pos, problem, legacySuspect(data, pos, n)));
      pos = end;
    }
    return new Result(true, frames, damages, torn);
  }

  /** The first offset at or after {@code from} where a complete frame with a matching CRC decodes, or -1. */
  static long nextValidLegacyFrame(JournalBytes data, long from) {
    for (long p = from; p + JournalCodec.LEGACY_HEADER + JournalCodec.MIN_PAYLOAD <= data.length(); p++) {
      if (validLegacyFrameAt(data, p)) {
        return p;
      }
    }
    return -1;
  }

  private static boolean validLegacyFrameAt(JournalBytes data, long p) {
    int len = data.getInt(p);
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || p + JournalCodec.LEGACY_HEADER + len > data.length()) {
      return false;
    }
    CRC32C crc = new CRC32C();
    crc.update(new byte[] {(byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len});
    data.update(crc, p + JournalCodec.LEGACY_HEADER, len);
    return data.getInt(p + 4) == (int) crc.getValue() && describe(data, p + JournalCodec.LEGACY_HEADER, len) != null;
  }

  /** Best effort: the tenant and key a damaged frame seems to hold, ignoring its CRC. */
  private static String legacySuspect(JournalBytes data, long pos, long n) {
    if (n - pos < JournalCodec.LEGACY_HEADER) {
      return null;
    }
    int len = data.getInt(pos);
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || pos + JournalCodec.LEGACY_HEADER + len > n) {
      return null;
    }
    return describe(data, pos + JournalCodec.LEGACY_HEADER, len);
  }
}
