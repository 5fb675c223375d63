package dev.hfr.runtime.ledger.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.io.UncheckedIOException;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("PayloadWriter: the journal's bytes exactly as DataOutputStream writes them")
class PayloadWriterTest {

  @Test
  @DisplayName("numbers, flags and strings of every kind (ASCII, NUL, two- and three-byte characters, lone surrogates) come out byte for byte alike")
  void writesWhatDataOutputStreamWrites() throws IOException {
    Random random = new Random(46);
    for (int round = 0; round < 2_000; round++) {
      ByteArrayOutputStream expectedBytes = new ByteArrayOutputStream();
      DataOutputStream expected = new DataOutputStream(expectedBytes);
      PayloadWriter actual = new PayloadWriter(4); // small: growing is part of what is checked
      for (int field = 0; field < 12; field++) {
        switch (random.nextInt(5)) {
          case 0 -> {
            int v = random.nextInt();
            expected.writeInt(v);
            actual.writeInt(v);
          }
          case 1 -> {
            long v = random.nextLong();
            expected.writeLong(v);
            actual.writeLong(v);
          }
          case 2 -> {
            boolean v = random.nextBoolean();
            expected.writeBoolean(v);
            actual.writeBoolean(v);
            int b = random.nextInt(256) - 128;
            expected.writeByte(b);
            actual.writeByte(b);
          }
          default -> {
            String s = randomString(random);
            expected.writeUTF(s);
            actual.writeUTF(s);
          }
        }
      }
      assertThat(actual.toByteArray()).isEqualTo(expectedBytes.toByteArray());
    }
  }

  @Test
  @DisplayName("an optional string is a presence flag, then the string")
  void optionalStrings() {
    PayloadWriter out = new PayloadWriter(8);
    out.writeOptionalUTF(null);
    out.writeOptionalUTF("k");
    assertThat(out.toByteArray()).containsExactly(0, 1, 0, 1, 'k');
  }

  @Test
  @DisplayName("a string encoding to more than 65,535 bytes is refused, as writeUTF refuses it")
  void refusesWhatWriteUtfRefuses() {
    String tooLong = "\u20ac".repeat(21_846); // 3 bytes each: 65,538
    assertThatThrownBy(() -> new DataOutputStream(new ByteArrayOutputStream()).writeUTF(tooLong))
        .isInstanceOf(UTFDataFormatException.class);
    assertThatThrownBy(() -> new PayloadWriter(16).writeUTF(tooLong))
        .isInstanceOf(UncheckedIOException.class)
        .hasCauseInstanceOf(UTFDataFormatException.class);
    new PayloadWriter(16).writeUTF("a".repeat(65_535)); // the largest that fits
  }

  private static String randomString(Random random) {
    int length = random.nextInt(4) == 0 ? random.nextInt(400) : random.nextInt(70);
    StringBuilder s = new StringBuilder(length);
    boolean ascii = random.nextBoolean();
    for (int i = 0; i < length; i++) {
      if (ascii) {
        s.append((char) (1 + random.nextInt(0x7F)));
      } else {
        s.append(switch (random.nextInt(5)) {
          case 0 -> (char) 0;
          case 1 -> (char) (0x80 + random.nextInt(0x780));     // two bytes
          case 2 -> (char) (0x800 + random.nextInt(0xF7FF));   // three bytes, surrogates included
          default -> (char) (1 + random.nextInt(0x7F));
        });
      }
    }
    return s.toString();
  }
}
