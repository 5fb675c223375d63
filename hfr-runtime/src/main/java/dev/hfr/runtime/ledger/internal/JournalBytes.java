package dev.hfr.runtime.ledger.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * A journal's bytes, read through a window of a few megabytes that slides along the file: the scanner reads a
 * journal of any size with long offsets and a bounded heap, mostly front to back (a damaged region's resync
 * search moves forward byte by byte, which the window serves too). Also wraps an array, for tests that take a
 * journal apart in memory.
 */
public final class JournalBytes implements AutoCloseable {

  /** Bytes held at once: many frames (a frame is at most {@value JournalCodec#MAX_PAYLOAD} bytes plus its header). */
  static final int WINDOW = 4 * 1024 * 1024;

  private final FileChannel channel; // null: the bytes are all in the window
  private final long length;
  private final ByteBuffer window;
  private long windowStart;
  private int windowLength;

  private JournalBytes(FileChannel channel, long length, ByteBuffer window, int windowLength) {
    this.channel = channel;
    this.length = length;
    this.window = window;
    this.windowLength = windowLength;
  }

  /** The bytes of {@code file}, read as they are asked for; the file is not changed. */
  public static JournalBytes open(Path file) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    try {
      return new JournalBytes(channel, channel.size(), ByteBuffer.allocate(WINDOW), 0);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The bytes of an array (not copied). */
  public static JournalBytes of(byte[] data) {
    return new JournalBytes(null, data.length, ByteBuffer.wrap(data), data.length);
  }

  /** How many bytes there are. */
  public long length() {
    return length;
  }

  /** The 4-byte big-endian integer at {@code pos}. */
  public int getInt(long pos) {
    return window.getInt(at(pos, 4));
  }

  /** The 8-byte big-endian integer at {@code pos}. */
  public long getLong(long pos) {
    return window.getLong(at(pos, 8));
  }

  /** A copy of {@code n} bytes from {@code pos} ({@code n} at most a frame's size). */
  public byte[] copy(long pos, int n) {
    byte[] out = new byte[n];
    window.get(at(pos, n), out, 0, n);
    return out;
  }

  /** CRC32C of {@code n} bytes from {@code pos} ({@code n} at most a frame's size). */
  public int crc(long pos, int n) {
    CRC32C crc = new CRC32C();
    update(crc, pos, n);
    return (int) crc.getValue();
  }

  /** Feeds {@code n} bytes from {@code pos} to {@code crc} ({@code n} at most a frame's size). */
  public void update(CRC32C crc, long pos, int n) {
    crc.update(window.slice(at(pos, n), n));
  }

  /** Whether the bytes start with {@code prefix}. */
  public boolean startsWith(byte[] prefix) {
    if (length < prefix.length) {
      return false;
    }
    int i = at(0, prefix.length);
    for (int k = 0; k < prefix.length; k++) {
      if (window.get(i + k) != prefix[k]) {
        return false;
      }
    }
    return true;
  }

  /** Whether every byte in {@code [from, to)} is zero. */
  public boolean allZero(long from, long to) {
    return nextNonZero(from, to) < 0;
  }

  /** The offset of the first non-zero byte in {@code [from, to)}, or -1. */
  public long nextNonZero(long from, long to) {
    long pos = from;
    while (pos < to) {
      int n = (int) Math.min(to - pos, WINDOW);
      int i = at(pos, n);
      for (int k = 0; k < n; k++) {
        if (window.get(i + k) != 0) {
          return pos + k;
        }
      }
      pos += n;
    }
    return -1;
  }

  /** The offset of the last non-zero byte, or -1 when every byte is zero. */
  public long lastNonZero() {
    long end = length;
    while (end > 0) {
      int n = (int) Math.min(end, WINDOW);
      long start = end - n;
      int i = at(start, n);
      for (int k = n - 1; k >= 0; k--) {
        if (window.get(i + k) != 0) {
          return start + k;
        }
      }
      end = start;
    }
    return -1;
  }

  /** The window index of {@code pos}, after sliding the window so that it holds {@code [pos, pos + n)}. */
  private int at(long pos, int n) {
    if (pos < 0 || n < 0 || pos + n > length) {
      throw new IndexOutOfBoundsException("bytes " + pos + ".." + (pos + n) + " of " + length);
    }
    if (pos >= windowStart && pos + n <= windowStart + windowLength) {
      return (int) (pos - windowStart);
    }
    if (channel == null || n > WINDOW) {
      throw new IndexOutOfBoundsException("bytes " + pos + ".." + (pos + n) + " do not fit the window");
    }
    try {
      window.clear();
      int want = (int) Math.min(WINDOW, length - pos);
      while (window.position() < want) {
        if (channel.read(window, pos + window.position()) < 0) {
          throw new IOException("the file ended at byte " + (pos + window.position()) + ", before the " + length + " it had when opened");
        }
      }
      windowStart = pos;
      windowLength = window.position();
      return 0;
    } catch (IOException e) {
      throw new UncheckedIOException("reading the ledger journal at byte " + pos, e);
    }
  }

  @Override
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
    }
  }
}
