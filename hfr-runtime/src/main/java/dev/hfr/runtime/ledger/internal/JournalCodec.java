package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.zip.CRC32C;

/**
 * The embedded ledger's on-disk format.
 *
 * <pre>
 * file    = MAGIC frame*
 * MAGIC   = "HFR-LDG1" (8 bytes)
 * frame   = length:int32 crc:int32 payload[length]      big-endian; crc = CRC32C(length bytes ‖ payload)
 * payload = PUT tenant key tool argsHash state attempts resultHash? fencingToken createdAt updatedAt leaseOwner? leaseExpiresAt
 *         | REMOVE tenant key
 * </pre>
 *
 * Strings are Java's modified UTF-8 with a 2-byte length ({@code writeUTF}); an optional string is a
 * boolean presence flag followed by the string; times are epoch milliseconds. A PUT holds the whole record,
 * so replaying a journal is "last frame per key wins" and any frame can be read without the ones before.
 */
public final class JournalCodec {

  /** The first 8 bytes of every journal. */
  public static final byte[] MAGIC = "HFR-LDG1".getBytes(StandardCharsets.US_ASCII);
  /** Bytes of a frame header: length and CRC. */
  public static final int HEADER = 8;
  /** Frames are small (a few hundred bytes); anything claiming more is damage. */
  public static final int MAX_PAYLOAD = 64 * 1024;
  /** The smallest payload: a REMOVE of one-character tenant and key. */
  public static final int MIN_PAYLOAD = 1 + 3 + 3;

  private static final byte PUT = 1;
  private static final byte REMOVE = 2;

  private JournalCodec() {}

  /** One decoded frame: an entry to store, or a (tenant, key) to remove. */
  public record Frame(StoredEntry put, String removeTenant, String removeKey) {
    public boolean isRemove() {
      return put == null;
    }
  }

  public static ByteBuffer encodePut(StoredEntry e) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      LedgerRecord r = e.record();
      out.writeByte(PUT);
      out.writeUTF(r.tenant());
      out.writeUTF(r.key());
      out.writeUTF(r.tool());
      out.writeUTF(r.argsHash());
      out.writeUTF(r.state().name());
      out.writeInt(r.attempts());
      optional(out, r.resultHash());
      out.writeLong(r.fencingToken());
      out.writeLong(r.createdAt().toEpochMilli());
      out.writeLong(r.updatedAt().toEpochMilli());
      optional(out, e.leaseOwner());
      out.writeLong(e.leaseExpiresAtMillis());
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
    return frame(bytes.toByteArray());
  }

  public static ByteBuffer encodeRemove(String tenant, String key) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(160);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(REMOVE);
      out.writeUTF(tenant);
      out.writeUTF(key);
    } catch (IOException impossible) {
      throw new UncheckedIOException(impossible);
    }
    return frame(bytes.toByteArray());
  }

  private static ByteBuffer frame(byte[] payload) {
    ByteBuffer buf = ByteBuffer.allocate(HEADER + payload.length);
    buf.putInt(payload.length);
    buf.putInt(crc(payload.length, payload, 0));
    buf.put(payload);
    return buf.flip();
  }

  /** CRC32C over the 4 length bytes and {@code length} payload bytes of {@code data} from {@code offset}. */
  public static int crc(int length, byte[] data, int offset) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(4).putInt(length).array());
    crc.update(data, offset, length);
    return (int) crc.getValue();
  }

  /**
   * Decodes a payload whose CRC matched.
   *
   * @throws IllegalArgumentException if the bytes do not form a valid frame
   */
  public static Frame decode(byte[] data, int offset, int length) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, offset, length))) {
      byte type = in.readByte();
      Frame frame;
      if (type == PUT) {
        String tenant = in.readUTF();
        String key = in.readUTF();
        String tool = in.readUTF();
        String argsHash = in.readUTF();
        LedgerState state = LedgerState.valueOf(in.readUTF());
        int attempts = in.readInt();
        String resultHash = readOptional(in);
        long token = in.readLong();
        Instant created = Instant.ofEpochMilli(in.readLong());
        Instant updated = Instant.ofEpochMilli(in.readLong());
        String leaseOwner = readOptional(in);
        long leaseExpires = in.readLong();
        frame = new Frame(
            new StoredEntry(new LedgerRecord(tenant, key, tool, argsHash, state, attempts, resultHash, token, created, updated), leaseOwner, leaseExpires),
            null, null);
      } else if (type == REMOVE) {
        frame = new Frame(null, in.readUTF(), in.readUTF());
      } else {
        throw new IllegalArgumentException("unknown frame type " + type);
      }
      if (in.available() != 0) {
        throw new IllegalArgumentException(in.available() + " unexpected bytes after the frame's fields");
      }
      return frame;
    } catch (IOException e) {
      throw new IllegalArgumentException("frame ends before its fields do: " + e, e);
    }
  }

  private static void optional(DataOutputStream out, String s) throws IOException {
    out.writeBoolean(s != null);
    if (s != null) {
      out.writeUTF(s);
    }
  }

  private static String readOptional(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }
}
