package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random bit flips anywhere in a journal are detected — refused as damage, or (only where the bytes were
 * never forced) cut off and reported as a crash tail — and never silently accepted: a ledger that opens
 * holds exactly the records of the frames before the first flipped one.
 */
class JournalBitFlipProperties {

  private static final Logger LEDGER_LOG = Logger.getLogger("dev.hfr.runtime.ledger.EmbeddedFileLedger");
  private static Path root;
  private static JournalImage image;
  private static Level logLevel;

  @BeforeContainer
  static void writeAJournal() throws Exception {
    logLevel = LEDGER_LOG.getLevel();
    LEDGER_LOG.setLevel(Level.OFF);
    root = JournalImage.scratch(Files.createTempDirectory("hfr-flips"), "x").getParent();
    image = JournalImage.written(root.resolve("written"), 3, 5);
  }

  @AfterContainer
  static void cleanUp() throws Exception {
    LEDGER_LOG.setLevel(logLevel);
    JournalImage.deleteTree(root);
  }

  @Provide
  Arbitrary<List<Long>> flips() {
    return Arbitraries.longs().between(0, (long) image.bytes.length * 8 - 1).list().ofMinSize(1).ofMaxSize(4).uniqueElements();
  }

  @Property(tries = 400)
  void flippedBitsAreNeverSilentlyAccepted(@ForAll("flips") List<Long> bits, @ForAll double markShare) throws Exception {
    int forcedFrames = (int) Math.floor(Math.abs(markShare) % 1.0 * (image.frames.size() + 1));
    byte[] damaged = image.bytes.clone();
    long firstFlipped = Long.MAX_VALUE;
    for (long bit : bits) {
      damaged[(int) (bit / 8)] ^= (byte) (1 << (bit % 8));
      firstFlipped = Math.min(firstFlipped, bit / 8);
    }
    Path dir = root.resolve("state");
    image.install(dir, damaged, forcedFrames);
    long mark = image.boundary(forcedFrames);
    int firstDamagedFrame = image.frameAt(firstFlipped);

    EmbeddedFileLedger ledger;
    try {
      ledger = EmbeddedFileLedger.open(dir);
    } catch (LedgerCorruptedException refused) {
      Statistics.collect(firstFlipped < mark ? "refused: damage before the forced mark" : "refused: damage after the mark");
      assertThat(Files.readAllBytes(dir.resolve(EmbeddedFileLedger.JOURNAL))).as("a refusal changes nothing").isEqualTo(damaged);
      assertThat(refused.damages()).isNotEmpty();
      return;
    }
    try (ledger) {
      Statistics.collect("opened: the damaged unforced tail cut and reported");
      assertThat(firstFlipped).as("damage before the forced mark %d is always refused", mark).isGreaterThanOrEqualTo(mark);
      EmbeddedFileLedger.OpenReport r = ledger.openReport();
      assertThat(r.hadTornTail()).as("flipped bits after the mark are cut and reported").isTrue();
      assertThat(r.tornTailOffset()).isLessThanOrEqualTo(image.boundary(firstDamagedFrame));
      assertThat(r.framesRead()).isLessThanOrEqualTo(firstDamagedFrame);
      assertThat(image.statesIn(ledger)).isEqualTo(image.statesAfter((int) r.framesRead()));
      assertThat(Arrays.equals(damaged, 0, (int) r.tornTailOffset(), image.bytes, 0, (int) r.tornTailOffset())).isTrue();
    }
  }
}
