package dev.hfr.runtime.ledger.internal;

import java.io.UTFDataFormatException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Writes a journal payload byte for byte as {@link java.io.DataOutputStream} over a {@link
 * java.io.ByteArrayOutputStream} does (big-endian numbers, modified UTF-8 with a 2-byte length), without their
 * per-call locks and copies: every write of the ledger encodes a payload, and every settled record is encoded
 * again when it moves to {@code ledger.db}. Measured on a million moves, {@code writeUTF} alone was a fifth of the
 * housekeeping thread's time. {@code JournalCodecTest} checks the bytes against {@code DataOutputStream}'s.
 */
final class PayloadWriter {

  private byte[] bytes;
  private int length;

  PayloadWriter(int capacity) {
    this.bytes = new byte[capacity];
  }

  void writeByte(int v) {
    ensure(1);
    bytes[length++] = (byte) v;
  }

  void writeBoolean(boolean v) {
    writeByte(v ? 1 : 0);
  }

  void writeInt(int v) {
    ensure(4);
    bytes[length] = (byte) (v >>> 24);
    bytes[length + 1] = (byte) (v >>> 16);
    bytes[length + 2] = (byte) (v >>> 8);
    bytes[length + 3] = (byte) v;
    length += 4;
  }

  void writeLong(long v) {
    writeInt((int) (v >>> 32));
    writeInt((int) v);
  }

  /** {@code DataOutput.writeUTF}: a string encoding to over 65,535 bytes is refused as it is there. */
  void writeUTF(String s) {
    int chars = s.length();
    int utf = chars;
    for (int i = 0; i < chars; i++) {
      char c = s.charAt(i);
      if (c == 0 || c >= 0x80) {
        utf += c >= 0x800 ? 2 : 1;
      }
    }
    if (utf > 0xFFFF) {
      throw new UncheckedIOException(new UTFDataFormatException(
          "encoded string (" + s.substring(0, 8) + "...) too long: " + utf + " bytes"));
    }
    ensure(2 + utf);
    bytes[length++] = (byte) (utf >>> 8);
    bytes[length++] = (byte) utf;
    if (utf == chars) { // identifiers, hashes and state names: one byte per character
      for (int i = 0; i < chars; i++) {
        bytes[length++] = (byte) s.charAt(i);
      }
      return;
    }
    for (int i = 0; i < chars; i++) {
      char c = s.charAt(i);
      if (c != 0 && c < 0x80) {
        bytes[length++] = (byte) c;
      } else if (c >= 0x800) {
        bytes[length++] = (byte) (0xE0 | (c >> 12));
        bytes[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        bytes[length++] = (byte) (0x80 | (c & 0x3F));
      } else {
        bytes[length++] = (byte) (0xC0 | (c >> 6));
        bytes[length++] = (byte) (0x80 | (c & 0x3F));
      }
    }
  }

  /** An optional string: a presence flag, then the string. */
  void writeOptionalUTF(String s) {
    writeBoolean(s != null);
    if (s != null) {
      writeUTF(s);
    }
  }

  /** The bytes written, in an array of their own. */
  byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }
}
