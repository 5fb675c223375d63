package dev.hfr.benchmarks;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An R1 call through the HFR proxy with the embedded ledger (key derived, PREPARED written before the
 * attempt, COMMITTED after it), beside the same two ledger writes made directly: the difference is the
 * engine's own cost around a durable write.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LedgerWriteBenchmark {

  private final AtomicLong sequence = new AtomicLong();
  private Path directory;
  private EmbeddedFileLedger ledger;
  private Hfr hfr;
  private PaymentTools payments;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    directory = Files.createTempDirectory("hfr-ledger-bench");
    ledger = EmbeddedFileLedger.open(directory);
    hfr = Protections.hfr(ledger);
    payments = PaymentTools_Recovering.create(hfr);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    hfr.close();
    ledger.close();
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  /** A new logical write each time (outside a task scope every call is its own one-step task). */
  @Benchmark
  public String r1CallThroughHfr() {
    return payments.charge("acct-7", 1250L, null);
  }

  /** The ledger writes alone: derive the key, PREPARED, COMMITTED. */
  @Benchmark
  public String rawLedgerPrepareCommit() {
    long n = sequence.incrementAndGet();
    List<Object> args = List.of("acct-7", 1250L);
    String key = IdempotencyKeys.key("bench", "task-" + n, "PaymentTools.charge", args, 0);
    ledger.prepare("bench", key, "PaymentTools.charge", IdempotencyKeys.argsHash(args));
    ledger.transition("bench", key, LedgerState.PREPARED, LedgerState.COMMITTED, null, 0L);
    return key;
  }
}
