package dev.hfr.runtime.internal.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.config.PoolSettings;
import java.util.Objects;

/**
 * The pool behind every JDBC URL HFR opens (the ledger's, the fleet's): HikariCP, the pool Spring Boot uses,
 * instead of a connection per statement. It starts without its database (the first connection is made when
 * asked), so an engine builds while PostgreSQL is down. Loaded only when a URL is used: HikariCP and the
 * PostgreSQL driver stay optional dependencies.
 */
public final class JdbcPools {

  private JdbcPools() {}

  /** A pool named {@code name} on {@code jdbcUrl} (credentials in the URL) with {@code settings}. */
  public static HikariDataSource open(String jdbcUrl, PoolSettings settings, String name) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(settings, "settings");
    HikariConfig c = new HikariConfig();
    c.setPoolName(name);
    c.setJdbcUrl(jdbcUrl);
    c.setDriverClassName("org.postgresql.Driver");
    c.setMaximumPoolSize(settings.maxSize());
    c.setMinimumIdle(Math.min(2, settings.maxSize()));
    c.setConnectionTimeout(settings.connectTimeoutMs());
    c.setValidationTimeout(Math.min(settings.connectTimeoutMs(), 5_000));
    c.setInitializationFailTimeout(-1); // start without the database; connect when asked
    c.addDataSourceProperty("ApplicationName", name); // pg_stat_activity tells HFR's connections apart
    // The driver's own bounds, in whole seconds (rounded up): the TCP connect and the login, then each answer.
    int connectSeconds = (int) Math.max(1, (settings.connectTimeoutMs() + 999) / 1000);
    c.addDataSourceProperty("connectTimeout", String.valueOf(connectSeconds));
    c.addDataSourceProperty("loginTimeout", String.valueOf(connectSeconds));
    if (settings.socketTimeoutMs() > 0) {
      c.addDataSourceProperty("socketTimeout", String.valueOf(Math.max(1, (settings.socketTimeoutMs() + 999) / 1000)));
    }
    if (settings.statementTimeoutMs() > 0) {
      c.addDataSourceProperty("options", "-c statement_timeout=" + settings.statementTimeoutMs());
    }
    return new HikariDataSource(c);
  }
}
