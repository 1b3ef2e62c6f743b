package io.freshet.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A real PostgreSQL 17 server (zonky embedded binaries), on a random port. As root it runs the
 * server through {@code unshare -U}, which zonky does by itself.
 */
public final class PostgresFixture {

  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final EmbeddedPostgres server;

  private PostgresFixture(EmbeddedPostgres server) {
    this.server = server;
  }

  static PostgresFixture start(Path workDir) {
    try {
      Path binaries = Files.createDirectories(workDir.resolve("pg-binaries"));
      Path data =
          Files.createDirectories(workDir).resolve("pg-data-" + ProcessHandle.current().pid());
      var server =
          EmbeddedPostgres.builder()
              .setOverrideWorkingDirectory(binaries.toFile())
              .setDataDirectory(data)
              .setCleanDataDirectory(true)
              .setServerConfig("fsync", "off")
              .setServerConfig("synchronous_commit", "off")
              .setServerConfig("full_page_writes", "off")
              .setServerConfig("max_connections", "200")
              .setServerConfig("shared_buffers", "256MB")
              .start();
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      server.close();
                    } catch (IOException ignored) {
                      // the JVM is exiting; the data directory is under target/ and cleaned next
                      // run
                    }
                  },
                  "postgres-fixture-stop"));
      return new PostgresFixture(server);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
    }
  }

  public int port() {
    return server.getPort();
  }

  public String username() {
    return "postgres";
  }

  public String password() {
    return "postgres";
  }

  /** JDBC URL of the default database {@code postgres}. */
  public String jdbcUrl() {
    return jdbcUrl("postgres");
  }

  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:" + port() + "/" + database;
  }

  /** A data source on the default database. */
  public DataSource dataSource() {
    return dataSource("postgres");
  }

  public DataSource dataSource(String database) {
    var ds = new PGSimpleDataSource();
    ds.setUrl(jdbcUrl(database));
    ds.setUser(username());
    ds.setPassword(password());
    return ds;
  }

  /**
   * Creates a new, empty database and returns its name, so that a test class can own its data
   * without cleaning up after others.
   */
  public String createDatabase(String prefix) {
    String name =
        prefix.toLowerCase().replaceAll("[^a-z0-9_]", "_") + "_" + DATABASES.incrementAndGet();
    try (var conn = dataSource().getConnection();
        var st = conn.createStatement()) {
      st.execute("CREATE DATABASE " + name);
      return name;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
  }
}
