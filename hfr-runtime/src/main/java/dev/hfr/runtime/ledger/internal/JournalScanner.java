package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerCorruptedException.Damage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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

  /** The result of a scan. {@code lastSeq} is the sequence number of the last readable frame, or firstSeq - 1. */
  public record Result(boolean magicOk, List<Located> frames, List<Damage> damages, TornTail tornTail, long lastSeq) {
    Result(boolean magicOk, List<Located> frames, List<Damage> damages, TornTail tornTail) {
      this(magicOk, frames, damages, tornTail, frames.size());
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
  public static Result scan(byte[] data, JournalCodec.FileHeader header, long durableMark, long durableSeq) {
    int n = data.length;
    long mark = Math.max(durableMark, header.baseLength());
    List<Located> frames = new ArrayList<>();
    List<Damage> damages = new ArrayList<>();
    TornTail torn = null;
    long expected = header.firstSeq();
    int pos = JournalCodec.FILE_HEADER;
    while (pos < n) {
      long recordNumber = frames.size() + damages.size() + 1L;
      Probe p = probe(data, pos, expected);
      if (p.frame != null) {
        frames.add(p.frame);
        expected = p.frame.seq() + 1;
        pos += p.frame.length();
        continue;
      }
      if (pos >= mark) {
        int after = 0;
        for (int q = nextValidFrame(data, pos + 1); q >= 0; q = nextValidFrame(data, q + 1)) {
          after++;
        }
        torn = new TornTail(pos, n - pos, p.problem + "; written after the last forced checkpoint (byte " + mark + ")", after);
        break;
      }
      int next = nextValidFrame(data, pos + 1);
      if (next < 0 && n < mark && p.incomplete) {
        break; // the file was cut inside this frame: reported below, as a truncation
      }
      int end = next < 0 ? n : next;
      String lost = "";
      if (next >= 0) {
        long nextSeq = ByteBuffer.wrap(data, next + 4, 8).getLong();
        if (nextSeq > expected) {
          lost = " (records with sequence numbers " + expected + ".." + (nextSeq - 1) + " are missing)";
        }
      }
      damages.add(new Damage(recordNumber, pos, end - pos, p.problem + lost, suspect(data, pos, n)));
      if (next >= 0) {
        expected = ByteBuffer.wrap(data, next + 4, 8).getLong();
      }
      pos = end;
    }
    long lastSeq = frames.isEmpty() ? header.firstSeq() - 1 : frames.get(frames.size() - 1).seq();
    if (n < mark) {
      long missingFrom = Math.max(lastSeq + 1, header.firstSeq());
      String records = durableSeq >= missingFrom
          ? "records with sequence numbers " + missingFrom + ".." + durableSeq + " (" + (durableSeq - missingFrom + 1) + " records) are lost"
          : "records are lost";
      damages.add(new Damage(frames.size() + damages.size() + 1L, n, mark - n,
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

  private static Probe probe(byte[] data, int pos, long expectedSeq) {
    int remaining = data.length - pos;
    if (remaining < JournalCodec.HEADER) {
      return new Probe(null, allZero(data, pos, data.length)
          ? "the file ends in " + remaining + " zero bytes (an unfinished write)"
          : "incomplete frame header (" + remaining + " of " + JournalCodec.HEADER + " bytes)", true);
    }
    ByteBuffer b = ByteBuffer.wrap(data);
    if (allZero(data, pos, data.length)) {
      return new Probe(null, "the file ends in " + remaining + " zero bytes (a write the device never finished)");
    }
    if (allZero(data, pos, pos + JournalCodec.HEADER)) {
      return new Probe(null, "a zeroed frame header (a write the device never finished)");
    }
    if (b.getInt(pos + 16) != JournalCodec.crc(data, pos, 16)) {
      return new Probe(null, String.format("frame header check failed (stored %08x, computed %08x): its length or sequence number is damaged",
          b.getInt(pos + 16), JournalCodec.crc(data, pos, 16)));
    }
    int len = b.getInt(pos);
    long seq = b.getLong(pos + 4);
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD) {
      return new Probe(null, "impossible frame length " + len);
    }
    if ((long) pos + JournalCodec.HEADER + len > data.length) {
      return new Probe(null, "incomplete frame (" + (remaining - JournalCodec.HEADER) + " of " + len + " payload bytes)", true);
    }
    int stored = b.getInt(pos + 12);
    int computed = JournalCodec.crc(data, pos + JournalCodec.HEADER, len);
    if (stored != computed) {
      return new Probe(null, String.format("payload CRC32C mismatch (stored %08x, computed %08x)", stored, computed));
    }
    JournalCodec.Frame frame;
    try {
      frame = JournalCodec.decode(data, pos + JournalCodec.HEADER, len);
    } catch (RuntimeException e) {
      return new Probe(null, "undecodable frame: " + e.getMessage());
    }
    if (seq != expectedSeq) {
      return new Probe(null, "sequence number " + seq + " where " + expectedSeq
          + " was expected (a frame copied from elsewhere, or frames reordered)");
    }
    return new Probe(new Located(pos, JournalCodec.HEADER + len, seq, frame), null);
  }

  /** The first offset at or after {@code from} where a complete, checked, decodable version-2 frame starts, or -1. */
  static int nextValidFrame(byte[] data, int from) {
    ByteBuffer b = ByteBuffer.wrap(data);
    for (int p = from; p + JournalCodec.HEADER + JournalCodec.MIN_PAYLOAD <= data.length; p++) {
      if (b.getInt(p + 16) != JournalCodec.crc(data, p, 16)) {
        continue;
      }
      int len = b.getInt(p);
      if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || (long) p + JournalCodec.HEADER + len > data.length
          || b.getInt(p + 12) != JournalCodec.crc(data, p + JournalCodec.HEADER, len)) {
        continue;
      }
      try {
        JournalCodec.decode(data, p + JournalCodec.HEADER, len);
        return p;
      } catch (RuntimeException e) {
        // not a frame after all
      }
    }
    return -1;
  }

  /** Best effort: the tenant and key a damaged frame seems to hold, ignoring its checks. */
  private static String suspect(byte[] data, int pos, int n) {
    if (n - pos < JournalCodec.HEADER) {
      return null;
    }
    int len = ByteBuffer.wrap(data, pos, 4).getInt();
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || (long) pos + JournalCodec.HEADER + len > n) {
      return null;
    }
    return describe(data, pos + JournalCodec.HEADER, len);
  }

  private static String describe(byte[] data, int offset, int len) {
    try {
      return JournalCodec.decode(data, offset, len).describe();
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Reads a version-1 journal (see {@link JournalCodec}): a torn tail is an incomplete last frame or zeros. */
  public static Result scanLegacy(byte[] data) {
    int n = data.length;
    int magicLen = JournalCodec.LEGACY_MAGIC.length;
    if (n < magicLen) {
      boolean prefix = Arrays.equals(data, 0, n, JournalCodec.LEGACY_MAGIC, 0, n) || allZero(data, 0, n);
      return new Result(prefix, List.of(), List.of(), n == 0 ? null : new TornTail(0, n, "incomplete file header"));
    }
    if (!Arrays.equals(data, 0, magicLen, JournalCodec.LEGACY_MAGIC, 0, magicLen)) {
      return new Result(false, List.of(), List.of(), null);
    }
    List<Located> frames = new ArrayList<>();
    List<Damage> damages = new ArrayList<>();
    TornTail torn = null;
    int lastNonZero = n - 1;
    while (lastNonZero >= 0 && data[lastNonZero] == 0) {
      lastNonZero--;
    }
    int pos = magicLen;
    while (pos < n) {
      long recordNumber = frames.size() + damages.size() + 1L;
      int remaining = n - pos;
      if (pos > lastNonZero) {
        torn = new TornTail(pos, remaining, "the file ends in " + remaining + " zero bytes (an unfinished write)");
        break;
      }
      if (remaining < JournalCodec.LEGACY_HEADER) {
        torn = new TornTail(pos, remaining, "incomplete frame header (" + remaining + " of " + JournalCodec.LEGACY_HEADER + " bytes)");
        break;
      }
      int len = ByteBuffer.wrap(data, pos, 4).getInt();
      String problem;
      if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD) {
        problem = "impossible frame length " + len;
      } else if ((long) pos + JournalCodec.LEGACY_HEADER + len > n) {
        int next = nextValidLegacyFrame(data, pos + 1);
        if (next < 0) {
          torn = new TornTail(pos, remaining, "incomplete last frame (" + (remaining - JournalCodec.LEGACY_HEADER) + " of " + len + " payload bytes)");
          break;
        }
        problem = "frame length " + len + " runs past the end of the file, yet intact records follow";
      } else {
        int stored = ByteBuffer.wrap(data, pos + 4, 4).getInt();
        int computed = JournalCodec.legacyCrc(len, data, pos + JournalCodec.LEGACY_HEADER);
        if (stored != computed) {
          problem = String.format("CRC32C mismatch (stored %08x, computed %08x)", stored, computed);
        } else {
          try {
            frames.add(new Located(pos, JournalCodec.LEGACY_HEADER + len, frames.size() + 1L, JournalCodec.decode(data, pos + JournalCodec.LEGACY_HEADER, len)));
            pos += JournalCodec.LEGACY_HEADER + len;
            continue;
          } catch (RuntimeException e) {
            problem = "undecodable frame: " + e.getMessage();
          }
        }
      }
      int next = nextValidLegacyFrame(data, pos + 1);
      int end = next < 0 ? n : next;
      damages.add(new Damage(recordNumber, pos, end - pos, problem, legacySuspect(data, pos, n)));
      pos = end;
    }
    return new Result(true, frames, damages, torn);
  }

  /** The first offset at or after {@code from} where a complete frame with a matching CRC decodes, or -1. */
  static int nextValidLegacyFrame(byte[] data, int from) {
    for (int p = from; p + JournalCodec.LEGACY_HEADER + JournalCodec.MIN_PAYLOAD <= data.length; p++) {
      if (validLegacyFrameAt(data, p)) {
        return p;
      }
    }
    return -1;
  }

  private static boolean validLegacyFrameAt(byte[] data, int p) {
    int len = ByteBuffer.wrap(data, p, 4).getInt();
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || (long) p + JournalCodec.LEGACY_HEADER + len > data.length) {
      return false;
    }
    if (ByteBuffer.wrap(data, p + 4, 4).getInt() != JournalCodec.legacyCrc(len, data, p + JournalCodec.LEGACY_HEADER)) {
      return false;
    }
    try {
      JournalCodec.decode(data, p + JournalCodec.LEGACY_HEADER, len);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Best effort: the tenant and key a damaged frame seems to hold, ignoring its CRC. */
  private static String legacySuspect(byte[] data, int pos, int n) {
    if (n - pos < JournalCodec.LEGACY_HEADER) {
      return null;
    }
    int len = ByteBuffer.wrap(data, pos, 4).getInt();
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || (long) pos + JournalCodec.LEGACY_HEADER + len > n) {
      return null;
    }
    return describe(data, pos + JournalCodec.LEGACY_HEADER, len);
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
