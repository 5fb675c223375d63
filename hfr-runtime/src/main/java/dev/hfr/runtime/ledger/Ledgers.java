package dev.hfr.runtime.ledger;

import dev.hfr.runtime.config.PoolSettings;
import dev.hfr.runtime.internal.jdbc.JdbcPools;
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
   * jdbc:postgresql://db:5432/hfr?user=hfr&password=...}), through a HikariCP pool with the ledger's default
   * settings ({@link PoolSettings#LEDGER_DEFAULTS}), closed with the ledger.
   *
   * @throws LedgerStorageException if HikariCP or the PostgreSQL driver is not on the class path
   */
  public static PostgresLedger postgres(String jdbcUrl, LedgerOptions options) {
    return postgres(jdbcUrl, PoolSettings.LEDGER_DEFAULTS, options);
  }

  /**
   * A {@link PostgresLedger} on the database at {@code jdbcUrl} through a HikariCP pool with {@code pool}'s
   * settings ({@code idempotency.pool}), closed with the ledger. It starts whether or not the database answers.
   *
   * @throws LedgerStorageException if HikariCP or the PostgreSQL driver is not on the class path
   */
  public static PostgresLedger postgres(String jdbcUrl, PoolSettings pool, LedgerOptions options) {
    AutoCloseable opened;
    DataSource dataSource;
    try {
      var hikari = JdbcPools.open(jdbcUrl, pool, "hfr-ledger");
      opened = hikari;
      dataSource = hikari;
    } catch (NoClassDefFoundError | IllegalStateException | IllegalArgumentException missing) {
      throw new LedgerStorageException("idempotency.ledger: postgres with a jdbc_url needs HikariCP and the PostgreSQL"
          + " driver: add com.zaxxer:HikariCP and org.postgresql:postgresql to the application's dependencies (hfr-bom"
          + " manages both versions): " + missing, missing);
    }
    try {
      return postgres(dataSource, options).closing(opened);
    } catch (RuntimeException e) {
      try {
        opened.close();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** An {@link InMemoryLedger}: nothing survives the process; for tests and simulations. */
  public static InMemoryLedger inMemory(LedgerOptions options) {
    return new InMemoryLedger(options);
  }
}
