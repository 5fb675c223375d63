package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.ledger.internal.JournalCodec;
import dev.hfr.runtime.ledger.internal.StoredEntry;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal over 2 GiB (a crash while a burst of large records waited to move, say) opens in a JVM whose heap
 * is a sixteenth of it: the journal is read through a window, with long offsets, and a crash tail past 2 GiB is
 * cut off and saved like any other.
 */
@Tag("e2e") // writes 2 GiB to disk: the end-to-end pass (-Pe2e)
class LargeJournalTest {

  private static final String TENANT = "acme";
  private static final long TWO_GIB = 2L * 1024 * 1024 * 1024;

  @TempDir Path tmp;

  @Test
  @DisplayName("a journal over 2 GiB opens with -Xmx128m, keeps its last records and loses its crash tail only")
  void aJournalOverTwoGibOpensInASmallHeap() throws Exception {
    Path dir = tmp.resolve("ledger");
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir)) {
      ledger.prepare(TENANT, "before", "Orders.create", "args-before");
      ledger.transition(TENANT, "before", LedgerState.PREPARED, LedgerState.COMMITTED, "r-before", 0);
    }
    Path journal = dir.resolve(EmbeddedFileLedger.JOURNAL);
    long framesBefore = JournalImage.frameOffsets(journal).size();
    JournalCodec.FileHeader header = JournalCodec.readFileHeader(Files.readAllBytes(journal));
    long firstLarge = header.firstSeq() + framesBefore;
    long frames = appendLargeFramesPast(journal, firstLarge, TWO_GIB);
    long tornAt = Files.size(journal);
    appendTornFrame(journal, firstLarge + frames);

    Path log = tmp.resolve("open.log");
    Process open = ForkedJvm.start(OpenAndRead.class, log, dir.toString());
    assertThat(open.waitFor(5, TimeUnit.MINUTES)).as("the forked open finished").isTrue();
    List<String> out = Files.readAllLines(log);
    assertThat(open.exitValue()).as("exit status; output: %s", out).isZero();

    assertThat(out).contains(
        "torn tail at " + tornAt,
        "before COMMITTED",
        "big-" + (frames - 1) % 10 + " PREPARED",
        "frames read " + (framesBefore + frames));
    assertThat(Files.size(journal)).as("the open compacted it").isLessThan(10L * 1024 * 1024);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("ledger.journal.torn-" + tornAt));
    }
  }

  /** Opens the ledger, prints what the open found and what a few records hold. */
  public static final class OpenAndRead {
    public static void main(String[] args) {
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(Path.of(args[0]))) {
        EmbeddedFileLedger.OpenReport report = ledger.openReport();
        System.out.println("torn tail at " + report.tornTailOffset());
        System.out.println("frames read " + report.framesRead());
        for (String key : new String[] {"before", "big-0", "big-1", "big-2", "big-3", "big-4", "big-5", "big-6", "big-7", "big-8", "big-9"}) {
          ledger.find(TENANT, key).ifPresent(r -> System.out.println(key + " " + r.state()));
        }
      }
    }
  }

  /**
   * Appends frames of nearly the largest payload, numbered from {@code seq}, each a record of one of ten keys,
   * until the journal is longer than {@code length}; returns how many. They follow the last forced frame, as
   * frames written before a crash do.
   */
  private static long appendLargeFramesPast(Path journal, long seq, long length) throws Exception {
    long n = 0;
    try (FileChannel out = FileChannel.open(journal, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      while (out.size() <= length) {
        write(out, JournalCodec.frame(seq + n, largePut("big-" + n % 10, n)));
        n++;
      }
    }
    return n;
  }

  /** The first half of one more frame: what a crash in the middle of a write leaves. */
  private static void appendTornFrame(Path journal, long seq) throws Exception {
    ByteBuffer frame = JournalCodec.frame(seq, largePut("torn", seq));
    frame.limit(frame.limit() / 2);
    try (FileChannel out = FileChannel.open(journal, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      write(out, frame);
    }
  }

  private static void write(FileChannel out, ByteBuffer b) throws Exception {
    while (b.hasRemaining()) {
      out.write(b);
    }
  }

  private static byte[] largePut(String key, long n) {
    Instant now = Instant.parse("2026-12-07T12:00:00Z");
    String bigHash = "h".repeat(JournalCodec.MAX_PAYLOAD - 600) + n; // a result hash stands in for any large field
    return JournalCodec.encodePut(new StoredEntry(
        new LedgerRecord(TENANT, key, "Orders.create", "args-" + key, LedgerState.PREPARED, 1, bigHash, n + 1, now, now, null), null, 0));
  }
}
