package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerCorruptedException.Damage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a journal image and sorts its bytes into readable frames, damaged regions and a torn tail.
 *
 * <p>A <b>torn tail</b> is what a crash leaves: the last frame is incomplete (the file ends before the
 * frame does) or the file ends in zeros, and no readable frame follows. That frame was never acknowledged
 * (acknowledgement waits for the whole frame to be written), so dropping it loses nothing.
 *
 * <p><b>Damage</b> is everything else that cannot be read: a complete frame whose CRC does not match, an
 * impossible length, undecodable fields, or an apparently incomplete frame with readable frames after it.
 * After damage the scanner looks for the next offset where a valid frame starts, so it can report every
 * damaged region and every intact record.
 */
public final class JournalScanner {

  /** A readable frame and where it was. */
  public record Located(long offset, int length, JournalCodec.Frame frame) {}

  /** A crash's incomplete last write. */
  public record TornTail(long offset, long bytes, String reason) {}

  /** The result of a scan. */
  public record Result(boolean magicOk, List<Located> frames, List<Damage> damages, TornTail tornTail) {}

  private JournalScanner() {}

  public static Result scan(byte[] data) {
    int n = data.length;
    int magicLen = JournalCodec.MAGIC.length;
    if (n < magicLen) {
      boolean prefix = Arrays.equals(data, 0, n, JournalCodec.MAGIC, 0, n) || allZero(data, 0, n);
      return new Result(prefix, List.of(), List.of(), n == 0 ? null : new TornTail(0, n, "incomplete file header"));
    }
    if (!Arrays.equals(data, 0, magicLen, JournalCodec.MAGIC, 0, magicLen)) {
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
      if (remaining < JournalCodec.HEADER) {
        torn = new TornTail(pos, remaining, "incomplete frame header (" + remaining + " of " + JournalCodec.HEADER + " bytes)");
        break;
      }
      int len = ByteBuffer.wrap(data, pos, 4).getInt();
      String problem;
      if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD) {
        problem = "impossible frame length " + len;
      } else if ((long) pos + JournalCodec.HEADER + len > n) {
        int next = nextValidFrame(data, pos + 1);
        if (next < 0) {
          torn = new TornTail(pos, remaining, "incomplete last frame (" + (remaining - JournalCodec.HEADER) + " of " + len + " payload bytes)");
          break;
        }
        problem = "frame length " + len + " runs past the end of the file, yet intact records follow";
      } else {
        int stored = ByteBuffer.wrap(data, pos + 4, 4).getInt();
        int computed = JournalCodec.crc(len, data, pos + JournalCodec.HEADER);
        if (stored != computed) {
          problem = String.format("CRC32C mismatch (stored %08x, computed %08x)", stored, computed);
        } else {
          try {
            frames.add(new Located(pos, JournalCodec.HEADER + len, JournalCodec.decode(data, pos + JournalCodec.HEADER, len)));
            pos += JournalCodec.HEADER + len;
            continue;
          } catch (RuntimeException e) {
            problem = "undecodable frame: " + e.getMessage();
          }
        }
      }
      int next = nextValidFrame(data, pos + 1);
      int end = next < 0 ? n : next;
      damages.add(new Damage(recordNumber, pos, end - pos, problem, suspect(data, pos, n)));
      pos = end;
    }
    return new Result(true, frames, damages, torn);
  }

  /** The first offset at or after {@code from} where a complete frame with a matching CRC decodes, or -1. */
  static int nextValidFrame(byte[] data, int from) {
    for (int p = from; p + JournalCodec.HEADER + JournalCodec.MIN_PAYLOAD <= data.length; p++) {
      if (validFrameAt(data, p)) {
        return p;
      }
    }
    return -1;
  }

  private static boolean validFrameAt(byte[] data, int p) {
    int len = ByteBuffer.wrap(data, p, 4).getInt();
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || (long) p + JournalCodec.HEADER + len > data.length) {
      return false;
    }
    if (ByteBuffer.wrap(data, p + 4, 4).getInt() != JournalCodec.crc(len, data, p + JournalCodec.HEADER)) {
      return false;
    }
    try {
      JournalCodec.decode(data, p + JournalCodec.HEADER, len);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Best effort: the tenant and key a damaged frame seems to hold, ignoring its CRC. */
  private static String suspect(byte[] data, int pos, int n) {
    if (n - pos < JournalCodec.HEADER) {
      return null;
    }
    int len = ByteBuffer.wrap(data, pos, 4).getInt();
    if (len < JournalCodec.MIN_PAYLOAD || len > JournalCodec.MAX_PAYLOAD || (long) pos + JournalCodec.HEADER + len > n) {
      return null;
    }
    try {
      JournalCodec.Frame f = JournalCodec.decode(data, pos + JournalCodec.HEADER, len);
      return f.isRemove()
          ? "removal of tenant " + f.removeTenant() + " key " + f.removeKey()
          : "tenant " + f.put().tenant() + " key " + f.put().key() + " state " + f.put().record().state();
    } catch (RuntimeException e) {
      return null;
    }
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
