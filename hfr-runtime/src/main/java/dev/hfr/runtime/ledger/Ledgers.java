package dev.hfr.runtime.ledger;

import java.nio.file.Path;
import javax.sql.DataSource;

/** Where to get a ledger. */
public final class Ledgers {

  /** The default ledger's directory, relative to the working directory. */
  public static final Path DEFAULT_DIRECTORY = Path.of("hfr-ledger");

  private Ledgers() {}

  /** The default: an {@link EmbeddedFileLedger} in {@code ./hfr-ledger/} of the working directory. */
  public static EmbeddedFileLedger embeddedDefault() {
    return EmbeddedFileLedger.open(DEFAULT_DIRECTORY);
  }

  /** An {@link EmbeddedFileLedger} in {@code directory}. */
  public static EmbeddedFileLedger embedded(Path directory, LedgerOptions options) {
    return EmbeddedFileLedger.open(directory, options);
  }

  /** A {@link PostgresLedger} on {@code dataSource}, for several JVMs sharing one ledger. */
  public static PostgresLedger postgres(DataSource dataSource, LedgerOptions options) {
    return PostgresLedger.create(dataSource, options);
  }

  /** An {@link InMemoryLedger}: nothing survives the process; for tests and simulations. */
  public static InMemoryLedger inMemory(LedgerOptions options) {
    return new InMemoryLedger(options);
  }
}
