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

  private final Path binaries;
  private final Path data;
  private final int port;
  private volatile EmbeddedPostgres server;

  private PostgresFixture(EmbeddedPostgres server, Path binaries, Path data) {
    this.server = server;
    this.binaries = binaries;
    this.data = data;
    this.port = server.getPort();
  }

  static PostgresFixture start(Path workDir) {
    try {
      Path binaries = Files.createDirectories(workDir.resolve("pg-binaries"));
      Path data =
          Files.createDirectories(workDir).resolve("pg-data-" + ProcessHandle.current().pid());
      deleteRecursively(data);
      // Never zonky's clean-up: it deletes the data directory on every close, and stop() must
      // keep it for restart(). The shutdown hook deletes it once the JVM is done with it.
      var fixture = new PostgresFixture(launch(binaries, data, 0), binaries, data);
      Runtime.getRuntime()
          .addShutdownHook(new Thread(fixture::closeQuietly, "postgres-fixture-stop"));
      return fixture;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
    }
  }

  private static EmbeddedPostgres launch(Path binaries, Path data, int port) throws IOException {
    var builder =
        EmbeddedPostgres.builder()
            .setOverrideWorkingDirectory(binaries.toFile())
            .setDataDirectory(data)
            .setCleanDataDirectory(false)
            .setServerConfig("fsync", "off")
            .setServerConfig("synchronous_commit", "off")
            .setServerConfig("full_page_writes", "off")
            .setServerConfig("max_connections", "200")
            .setServerConfig("shared_buffers", "256MB");
    if (port > 0) {
      builder.setPort(port);
    }
    return builder.start();
  }

  /**
   * Stops the server process (a real outage: connections are cut and new ones refused) and keeps
   * its data directory, so that {@link #restart()} brings the same databases back on the same port.
   * Every test class of the JVM shares this server: a test that stops it restarts it in a {@code
   * finally}.
   */
  public synchronized void stop() {
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop embedded PostgreSQL", e);
    }
  }

  /** Starts the server again after {@link #stop()}, on the same port and data directory. */
  public synchronized void restart() {
    try {
      server = launch(binaries, data, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot restart embedded PostgreSQL on port " + port, e);
    }
  }

  private void closeQuietly() {
    try {
      server.close();
      deleteRecursively(data);
    } catch (IOException | RuntimeException ignored) {
      // the JVM is exiting; the data directory is under target/ and cleaned next run
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  public int port() {
    return port;
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
