package io.freshet.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The test JVM's single Kafka broker, PostgreSQL server and schema registry. Each starts on first
 * use (in parallel with the others when asked together) and stops at JVM exit.
 */
public final class Infrastructure {

  private static final Logger log = LoggerFactory.getLogger(Infrastructure.class);

  private static volatile KafkaFixture kafka;
  private static volatile PostgresFixture postgres;
  private static volatile RegistryFixture registry;

  // One lock per part, so that parts asked for together start in parallel.
  private static final Object KAFKA_LOCK = new Object();
  private static final Object POSTGRES_LOCK = new Object();
  private static final Object REGISTRY_LOCK = new Object();

  private Infrastructure() {}

  /** The broker, started if it is not yet. */
  public static KafkaFixture kafka() {
    if (kafka == null) {
      synchronized (KAFKA_LOCK) {
        if (kafka == null) {
          kafka = timed("Kafka broker", KafkaFixture::start);
        }
      }
    }
    return kafka;
  }

  /** The database server, started if it is not yet. */
  public static PostgresFixture postgres() {
    if (postgres == null) {
      synchronized (POSTGRES_LOCK) {
        if (postgres == null) {
          postgres = timed("PostgreSQL", () -> PostgresFixture.start(workDir()));
        }
      }
    }
    return postgres;
  }

  /** The schema registry, started if it is not yet. */
  public static RegistryFixture registry() {
    if (registry == null) {
      synchronized (REGISTRY_LOCK) {
        if (registry == null) {
          registry = timed("schema registry", () -> RegistryFixture.start(workDir()));
        }
      }
    }
    return registry;
  }

  /** Starts the given parts concurrently and waits for all of them. */
  public static void start(Collection<RealInfrastructure.Component> components) {
    long t0 = System.nanoTime();
    var futures =
        components.stream()
            .map(
                c ->
                    CompletableFuture.runAsync(
                        switch (c) {
                          case KAFKA -> Infrastructure::kafka;
                          case POSTGRES -> Infrastructure::postgres;
                          case REGISTRY -> Infrastructure::registry;
                        }))
            .toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(futures).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
    log.info(
        "infrastructure {} ready in {} ms",
        components,
        Duration.ofNanos(System.nanoTime() - t0).toMillis());
  }

  /**
   * Publishes the started parts' endpoints as system properties, under Spring Boot's names and
   * Freshet's own, so that a service context started afterwards connects to them.
   */
  public static void publishSystemProperties() {
    if (kafka != null) {
      System.setProperty("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
      System.setProperty("freshet.kafka.bootstrap-servers", kafka.bootstrapServers());
    }
    if (postgres != null) {
      System.setProperty("spring.datasource.url", postgres.jdbcUrl());
      System.setProperty("spring.datasource.username", postgres.username());
      System.setProperty("spring.datasource.password", postgres.password());
    }
    if (registry != null) {
      System.setProperty("freshet.registry.url", registry.apiUrl());
      System.setProperty("freshet.registry.ccompat-url", registry.ccompatUrl());
    }
  }

  /** Where fixtures keep their files: under the module's {@code target/}. */
  static Path workDir() {
    return Path.of("target", "freshet-infrastructure").toAbsolutePath();
  }

  private static <T> T timed(String what, Supplier<T> starter) {
    long t0 = System.nanoTime();
    T started = starter.get();
    log.info("{} started in {} ms", what, Duration.ofNanos(System.nanoTime() - t0).toMillis());
    return started;
  }
}
