package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The embedded ledger's on-disk format (version 3; version 1 and 2 journals are still read, see below).
 *
 * <pre>
 * file    = header frame*
 * header  = "HFR-LDG3" ledgerId:int64 firstSeq:int64 baseLength:int64 crc:int32          (36 bytes)
 * frame   = length:int32 seq:int64 payloadCrc:int32 headerCrc:int32 payload[length]     (20-byte header)
 * payload = PUT tenant key tool argsHash state attempts resultHash? fencingToken createdAt updatedAt leaseOwner? leaseExpiresAt taskId?
 *         | REMOVE tenant key
 *         | TASK tenant taskId phase spec evidence? owner startedAt updatedAt
 *         | REMOVE_TASK tenant taskId
 * </pre>
 *
 * All integers are big-endian; every check is CRC32C. The file header's crc covers its first 32 bytes;
 * a frame's {@code headerCrc} covers its first 16 bytes, so a damaged length is recognised as damage by
 * itself, before the payload is even looked at (a length that runs past the end of the file is not
 * evidence of a crash unless the header that claims it is intact). {@code payloadCrc} covers the
 * payload. Frames carry consecutive sequence numbers from {@code firstSeq}; {@code ledgerId} ties the
 * journal to its checkpoint file ({@link CheckpointFile}); {@code baseLength} is the file's length when
 * it was written whole (created or compacted), so a journal cut inside that part is damage even without
 * a checkpoint.
 *
 * <p>Strings are Java's modified UTF-8 with a 2-byte length ({@code writeUTF}), which round-trips every
 * {@code String}, lone surrogates included; an optional string is a boolean presence flag followed by the
 * string; times are epoch milliseconds. A PUT holds the whole record and a TASK the whole checkpoint of a
 * task (§5.4), so replaying a journal is "last frame per key (or task) wins" and any frame can be read
 * without the ones before.
 *
 * <p><b>Version 2</b> ({@code "HFR-LDG2"}) has the same file header and frames, PUT payloads end after
 * {@code leaseExpiresAt} (no task id) and there are no TASK frames; it is read by the same decoder (a PUT
 * without the trailing field is a record of no task) and rewritten as version 3 on open, so a version-2
 * HFR refuses the new file by its magic instead of misreading its frames. <b>Version 1</b> ({@code
 * "HFR-LDG1"}, frames {@code length:int32 crc32c(length ‖ payload):int32 payload}, no header check, no
 * sequence numbers) is read by {@link JournalScanner#scanLegacy} and rewritten as version 3 on open.
 */
public final class JournalCodec {

  /** The first 8 bytes of every version-3 journal: what this code writes. */
  public static final byte[] MAGIC = "HFR-LDG3".getBytes(StandardCharsets.US_ASCII);
  /** The first 8 bytes of a version-2 journal (same frames, no task ids; read, then rewritten as version 3). */
  public static final byte[] V2_MAGIC = "HFR-LDG2".getBytes(StandardCharsets.US_ASCII);
  /** The first 8 bytes of a version-1 journal (read, then rewritten as version 2). */
  public static final byte[] LEGACY_MAGIC = "HFR-LDG1".getBytes(StandardCharsets.US_ASCII);
  /** Bytes of the file header. */
  public static final int FILE_HEADER = 36;
  /** Bytes of a frame header: length, sequence number, payload CRC, header CRC. */
  public static final int HEADER = 20;
  /** Bytes of a version-1 frame header: length and CRC. */
  public static final int LEGACY_HEADER = 8;
  /** Frames are small (a few hundred bytes); anything claiming more is damage. */
  public static final int MAX_PAYLOAD = 64 * 1024;
  /** The smallest payload: a REMOVE of one-character tenant and key. */
  public static final int MIN_PAYLOAD = 1 + 3 + 3;

  private static final byte PUT = 1;
  private static final byte REMOVE = 2;
  private static final byte TASK = 3;
  private static final byte REMOVE_TASK = 4;

  private JournalCodec() {}

  /**
   * One decoded frame: an entry to store ({@code put}), a task checkpoint to store ({@code task}), or the
   * removal of a record ({@code removeKey}) or of a task's checkpoint ({@code removeTaskId}) of {@code
   * removeTenant}.
   */
  public record Frame(StoredEntry put, TaskCheckpoint task, String removeTenant, String removeKey, String removeTaskId) {

    Frame(StoredEntry put, String removeTenant, String removeKey) {
      this(put, null, removeTenant, removeKey, null);
    }

    /** Whether this frame removes a record. */
    public boolean isRemove() {
      return removeKey != null;
    }

    /** Whether this frame stores or removes a task checkpoint rather than a record. */
    public boolean isTask() {
      return task != null || removeTaskId != null;
    }

    /** Replays the frame into {@code table}: last frame per key (or task) wins. */
    public void applyTo(LedgerTable table) {
      if (put != null) {
        table.load(put);
      } else if (task != null) {
        table.loadTask(task);
      } else if (removeKey != null) {
        table.unload(removeTenant, removeKey);
      } else {
        table.unloadTask(removeTenant, removeTaskId);
      }
    }

    /** What the frame holds, for damage reports. */
    public String describe() {
      if (put != null) {
        return "tenant " + put.tenant() + " key " + put.key() + " state " + put.record().state();
      }
      if (task != null) {
        return "checkpoint of task " + task.taskId() + " of tenant " + task.tenant() + " (" + task.phase() + ")";
      }
      return removeKey != null ? "removal of tenant " + removeTenant + " key " + removeKey
          : "removal of the checkpoint of task " + removeTaskId + " of tenant " + removeTenant;
    }
  }

  /** A journal's file header. */
  public record FileHeader(long ledgerId, long firstSeq, long baseLength) {}

  /** The payload of a PUT frame. */
  public static byte[] encodePut(StoredEntry e) {
    LedgerRecord r = e.record();
    PayloadWriter out = new PayloadWriter(256);
    out.writeByte(PUT);
    out.writeUTF(r.tenant());
    out.writeUTF(r.key());
    out.writeUTF(r.tool());
    out.writeUTF(r.argsHash());
    out.writeUTF(r.state().name());
    out.writeInt(r.attempts());
    out.writeOptionalUTF(r.resultHash());
    out.writeLong(r.fencingToken());
    out.writeLong(r.createdAt().toEpochMilli());
    out.writeLong(r.updatedAt().toEpochMilli());
    out.writeOptionalUTF(e.leaseOwner());
    out.writeLong(e.leaseExpiresAtMillis());
    out.writeOptionalUTF(r.taskId());
    return out.toByteArray();
  }

  /** The payload of a REMOVE frame. */
  public static byte[] encodeRemove(String tenant, String key) {
    PayloadWriter out = new PayloadWriter(160);
    out.writeByte(REMOVE);
    out.writeUTF(tenant);
    out.writeUTF(key);
    return out.toByteArray();
  }

  /** The payload of a TASK frame. */
  public static byte[] encodeTask(TaskCheckpoint t) {
    PayloadWriter out = new PayloadWriter(256);
    out.writeByte(TASK);
    out.writeUTF(t.tenant());
    out.writeUTF(t.taskId());
    out.writeUTF(t.phase().name());
    out.writeUTF(t.spec());
    out.writeOptionalUTF(t.evidence());
    out.writeUTF(t.owner());
    out.writeLong(t.startedAt().toEpochMilli());
    out.writeLong(t.updatedAt().toEpochMilli());
    return out.toByteArray();
  }

  /** The payload of a REMOVE_TASK frame. */
  public static byte[] encodeRemoveTask(String tenant, String taskId) {
    PayloadWriter out = new PayloadWriter(160);
    out.writeByte(REMOVE_TASK);
    out.writeUTF(tenant);
    out.writeUTF(taskId);
    return out.toByteArray();
  }

  /** The payloads that hold everything in {@code table}: its records, then its task checkpoints (for a compacted journal). */
  public static List<byte[]> payloadsOf(LedgerTable table) {
    return payloadsOf(table.entries(), table.checkpoints());
  }

  /** The payloads that hold {@code records}, then {@code checkpoints}. */
  public static List<byte[]> payloadsOf(Collection<StoredEntry> records, Collection<TaskCheckpoint> checkpoints) {
    List<byte[]> out = new ArrayList<>(records.size() + checkpoints.size());
    for (StoredEntry e : records) {
      out.add(encodePut(e));
    }
    for (TaskCheckpoint t : checkpoints) {
      out.add(encodeTask(t));
    }
    return out;
  }

  /** A whole frame: header (with its own check) and payload. */
  public static ByteBuffer frame(long seq, byte[] payload) {
    ByteBuffer buf = ByteBuffer.allocate(HEADER + payload.length);
    buf.putInt(payload.length);
    buf.putLong(seq);
    buf.putInt(crc(payload, 0, payload.length));
    buf.putInt(crc(buf.array(), 0, 16));
    buf.put(payload);
    return buf.flip();
  }

  /** The file header's bytes. */
  public static ByteBuffer fileHeader(FileHeader h) {
    ByteBuffer buf = ByteBuffer.allocate(FILE_HEADER);
    buf.put(MAGIC).putLong(h.ledgerId()).putLong(h.firstSeq()).putLong(h.baseLength());
    buf.putInt(crc(buf.array(), 0, 32));
    return buf.flip();
  }

  /** The file header at the start of {@code data}, or {@code null} when it is missing or its check fails. */
  public static FileHeader readFileHeader(byte[] data) {
    if (data.length < FILE_HEADER || !startsWith(data, MAGIC) && !startsWith(data, V2_MAGIC)) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(data);
    if (b.getInt(32) != crc(data, 0, 32)) {
      return null;
    }
    return new FileHeader(b.getLong(8), b.getLong(16), b.getLong(24));
  }

  /** Whether {@code data} starts with {@code prefix}. */
  public static boolean startsWith(byte[] data, byte[] prefix) {
    return data.length >= prefix.length && Arrays.equals(data, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** CRC32C of {@code length} bytes of {@code data} from {@code offset}. */
  public static int crc(byte[] data, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, offset, length);
    return (int) crc.getValue();
  }

  /** The version-1 frame check: CRC32C over the 4 length bytes and {@code length} payload bytes from {@code offset}. */
  public static int legacyCrc(int length, byte[] data, int offset) {
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
        String taskId = in.available() > 0 ? readOptional(in) : null; // absent in version-2 frames
        frame = new Frame(
            new StoredEntry(new LedgerRecord(tenant, key, tool, argsHash, state, attempts, resultHash, token, created, updated, taskId),
                leaseOwner, leaseExpires),
            null, null);
      } else if (type == REMOVE) {
        frame = new Frame(null, in.readUTF(), in.readUTF());
      } else if (type == TASK) {
        String tenant = in.readUTF();
        String taskId = in.readUTF();
        TaskCheckpoint.Phase phase = TaskCheckpoint.Phase.valueOf(in.readUTF());
        String spec = in.readUTF();
        String evidence = readOptional(in);
        String owner = in.readUTF();
        Instant started = Instant.ofEpochMilli(in.readLong());
        Instant updated = Instant.ofEpochMilli(in.readLong());
        frame = new Frame(null, new TaskCheckpoint(tenant, taskId, phase, spec, evidence, owner, started, updated), null, null, null);
      } else if (type == REMOVE_TASK) {
        String tenant = in.readUTF();
        frame = new Frame(null, null, tenant, null, in.readUTF());
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

  private static String readOptional(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }
}
