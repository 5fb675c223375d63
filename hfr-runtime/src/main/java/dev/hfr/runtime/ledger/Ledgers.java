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

  /**
   * A {@link PostgresLedger} on {@code dataSource}, for several JVMs sharing one ledger; it starts whether or
   * not the database answers ({@link PostgresLedger#start}).
   */
  public static PostgresLedger postgres(DataSource dataSource, LedgerOptions options) {
    return PostgresLedger.start(dataSource, options);
  }

  /**
   * A {@link PostgresLedger} on the database at {@code jdbcUrl} (credentials in the URL, e.g. {@code
   * jdbc:postgresql://db:5432/hfr?user=hfr&password=...}), through the driver's own simple data source.
   * A fleet in production passes its connection pool to {@link #postgres(DataSource, LedgerOptions)}.
   *
   * @throws LedgerStorageException if the PostgreSQL driver is not on the class path, or the database
   *     cannot be reached
   */
  public static PostgresLedger postgres(String jdbcUrl, LedgerOptions options) {
    DataSource dataSource;
    try {
      dataSource = DriverDataSource.of(jdbcUrl);
    } catch (NoClassDefFoundError missing) {
      throw new LedgerStorageException("idempotency.ledger: postgres needs the PostgreSQL driver: add"
          + " org.postgresql:postgresql to the application's dependencies", missing);
    }
    return postgres(dataSource, options);
  }

  /** An {@link InMemoryLedger}: nothing survives the process; for tests and simulations. */
  public static InMemoryLedger inMemory(LedgerOptions options) {
    return new InMemoryLedger(options);
  }

  /** Loaded only when a JDBC URL is used, so the driver stays optional. */
  private static final class DriverDataSource {
    private DriverDataSource() {}

    static DataSource of(String jdbcUrl) {
      org.postgresql.ds.PGSimpleDataSource ds = new org.postgresql.ds.PGSimpleDataSource();
      ds.setURL(jdbcUrl);
      return ds;
    }
  }
}
