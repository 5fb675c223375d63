package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash consistency in the spirit of ALICE and CrashMonkey: a journal written by concurrent writers is
 * cut and torn into every state a crash could leave, and each is opened by a real ledger.
 *
 * <p>The crash model: frames before the last force (the checkpoint's mark) are on the device. After it,
 * a process crash ({@code SIGKILL}) leaves any prefix of what was written; a power loss leaves the file
 * at any length and any subset of its unforced 512-byte sectors (the others read as zeros): unforced
 * writes dropped or reordered. For every state: open never refuses (a crash is not damage), nothing
 * forced is lost, the records are exactly the replay of the frames kept, and whatever was dropped is
 * reported as a crash tail. Every forced state is tried against every mark among the last frames.
 */
@DisplayName("Crash consistency: every truncation and every unforced-sector loss of the last frames recovers, loses nothing forced, reports what it drops")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrashConsistencyTest {

  private static final int LAST_FRAMES = 6; // crash points are enumerated over the last frames
  private static final int SECTOR = 512;

  // thousands of crash tails are cut here; their WARNING lines would cost more than the opens
  private static final java.util.logging.Logger LEDGER_LOG = java.util.logging.Logger.getLogger("dev.hfr.runtime.ledger.EmbeddedFileLedger");

  @TempDir Path tmp;
  private Path scratch;
  private java.util.logging.Level logLevel;
  private JournalImage image;

  @BeforeAll
  void writeAJournalWithConcurrentWriters() throws Exception {
    logLevel = LEDGER_LOG.getLevel();
    LEDGER_LOG.setLevel(java.util.logging.Level.SEVERE);
    scratch = JournalImage.scratch(tmp, "states");
    image = JournalImage.written(scratch.resolveSibling("written"), 4, 6);
    assertThat(image.frames).hasSizeGreaterThan(40);
    // every acknowledged operation is in the journal, in the order it was acknowledged per key
    assertThat(image.statesAfter(image.frames.size())).hasSize(24);
    for (JournalImage.Ack ack : image.acks) {
      assertThat(image.frames).anySatisfy(f -> {
        assertThat(f.frame().put().key()).isEqualTo(ack.key());
        assertThat(f.frame().put().record().state()).isEqualTo(ack.state());
      });
    }
  }

  @AfterAll
  void cleanUp() throws Exception {
    LEDGER_LOG.setLevel(logLevel);
    JournalImage.deleteTree(scratch.getParent());
  }

  @Test
  @DisplayName("process crash: every byte-level truncation after each of the last marks keeps every complete frame and cuts only the partial one")
  void everyTruncation() throws Exception {
    int n = image.frames.size();
    int states = 0;
    int torn = 0;
    for (int mark = n - LAST_FRAMES; mark <= n; mark++) {
      for (long cut = image.boundary(mark); cut <= image.bytes.length; cut++) {
        byte[] state = Arrays.copyOf(image.bytes, (int) cut);
        image.install(scratch, state, mark);
        int complete = completeFrames(cut);
        try (EmbeddedFileLedger l = EmbeddedFileLedger.open(scratch)) {
          EmbeddedFileLedger.OpenReport r = l.openReport();
          assertThat(r.framesRead()).as("frames kept, cut at %d, mark %d", cut, mark).isEqualTo(complete);
          assertThat(image.statesIn(l)).isEqualTo(image.statesAfter(complete));
          boolean partial = cut != image.boundary(complete);
          assertThat(r.hadTornTail()).isEqualTo(partial);
          if (partial) {
            assertThat(r.tornTailOffset()).isEqualTo(image.boundary(complete));
            torn++;
          }
        }
        states++;
      }
    }
    System.out.printf("crash consistency, process crash: %d states over %d marks, %d torn tails cut, 0 refusals, 0 forced frames lost%n",
        states, LAST_FRAMES + 1, torn);
    assertThat(states).isGreaterThan(500);
  }

  @Test
  @DisplayName("power loss: unforced sectors dropped in any combination, file at any sector length — forced frames kept, drops reported, never refused")
  void everyUnforcedSectorLoss() throws Exception {
    int n = image.frames.size();
    int states = 0;
    int dropped = 0;
    int outcomesDropped = 0;
    for (int mark = n - LAST_FRAMES; mark <= n; mark++) {
      long forced = image.boundary(mark);
      long firstSector = forced / SECTOR;
      int sectors = (int) ((image.bytes.length - 1) / SECTOR - firstSector + 1);
      for (long length = forced; length <= image.bytes.length; length = Math.min(image.bytes.length, (length / SECTOR + 1) * SECTOR)) {
        for (int lost = 0; lost < (1 << sectors); lost++) {
          byte[] state = Arrays.copyOf(image.bytes, (int) length);
          for (int s = 0; s < sectors; s++) {
            if ((lost & 1 << s) != 0) {
              long from = Math.max(forced, (firstSector + s) * SECTOR); // the forced part of a sector stays
              long to = Math.min(length, (firstSector + s + 1) * SECTOR);
              for (long b = from; b < to; b++) {
                state[(int) b] = 0;
              }
            }
          }
          image.install(scratch, state, mark);
          int intact = intactPrefix(state);
          try (EmbeddedFileLedger l = EmbeddedFileLedger.open(scratch)) {
            EmbeddedFileLedger.OpenReport r = l.openReport();
            assertThat(r.framesRead()).as("nothing forced is lost").isGreaterThanOrEqualTo(mark).isEqualTo(intact);
            Map<String, LedgerState> recovered = image.statesIn(l);
            assertThat(recovered).isEqualTo(image.statesAfter(intact));
            if (intact < framesWithin(length)) {
              assertThat(r.hadTornTail()).as("a drop is reported").isTrue();
              assertThat(r.tornTailOffset()).isEqualTo(image.boundary(intact));
              dropped++;
              for (int f = intact; f < framesWithin(length); f++) {
                String key = image.frames.get(f).frame().put().key();
                boolean couldHaveBeenAcknowledged = image.statesAfter(mark).containsKey(key); // its prepare was forced
                if (image.frames.get(f).frame().put().record().state() != LedgerState.PREPARED && couldHaveBeenAcknowledged) {
                  outcomesDropped++;
                  assertThat(recovered.get(key)).as("an outcome lost to a power loss leaves its record to be reconciled, never absent")
                      .isNotNull();
                }
              }
            }
          }
          states++;
        }
        if (length == image.bytes.length) {
          break;
        }
      }
    }
    System.out.printf("crash consistency, power loss: %d states over %d marks, %d with unforced frames dropped and reported "
        + "(%d attempt outcomes among them), 0 refusals, 0 forced frames lost%n", states, LAST_FRAMES + 1, dropped, outcomesDropped);
    assertThat(states).isGreaterThan(50);
  }

  /** Frames that end at or before {@code cut}. */
  private int completeFrames(long cut) {
    int k = 0;
    while (k < image.frames.size() && image.boundary(k + 1) <= cut) {
      k++;
    }
    return k;
  }

  private int framesWithin(long length) {
    return completeFrames(length);
  }

  /** How many frames of {@code state}, from the first, are byte-for-byte the ones written. */
  private int intactPrefix(byte[] state) {
    int k = 0;
    while (k < image.frames.size()) {
      long from = image.boundary(k);
      long to = image.boundary(k + 1);
      if (to > state.length || !Arrays.equals(state, (int) from, (int) to, image.bytes, (int) from, (int) to)) {
        break;
      }
      k++;
    }
    return k;
  }

}
