package io.freshet.scheduler.testing;

import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.RealInfrastructure;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the scheduler's claim, outcome and run integration tests: the real Kafka, registry and
 * PostgreSQL, a database of these tests' own (emptied before each test), and small builders for
 * rows and for reading what was requested.
 */
@RealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("it")
public abstract class SchedulerItSupport {

  private static String database;

  @DynamicPropertySource
  static void ownDatabase(DynamicPropertyRegistry registry) {
    // Its own consumer group too: another test context's listeners must not take our outcomes.
    registry.add("spring.kafka.consumer.group-id", () -> "freshet-scheduler-it-own");
    registry.add(
        "spring.datasource.url",
        () -> {
          synchronized (SchedulerItSupport.class) {
            if (database == null) {
              database = Infrastructure.postgres().createDatabase("scheduler_it");
            }
          }
          return Infrastructure.postgres().jdbcUrl(database);
        });
  }

  /** The database these tests own. */
  protected static String database() {
    return database;
  }

  /**
   * Runs {@code during} while this tests' database refuses every connection (existing ones are
   * cut), then lets connections in again — a database outage as the service sees it.
   */
  protected static void withDatabaseDown(Runnable during) {
    var admin = JdbcClient.create(Infrastructure.postgres().dataSource());
    admin.sql("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS false").update();
    try {
      admin
          .sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :db")
          .param("db", database)
          .query((rs, i) -> 0)
          .list();
      during.run();
    } finally {
      admin.sql("ALTER DATABASE " + database + " WITH ALLOW_CONNECTIONS true").update();
    }
  }

  @Autowired protected JdbcClient jdbc;
  @Autowired protected FreshetTopics topics;

  protected String tenant;

  @BeforeEach
  void emptyTables() {
    jdbc.sql(
            "TRUNCATE scheduler.sources, scheduler.tenants, scheduler.claim_reservations,"
                + " scheduler.audit_log CASCADE")
        .update();
    tenant = "t-" + UUID.randomUUID().toString().substring(0, 8);
    tenant(tenant, "pro");
  }

  protected void tenant(String id, String tier) {
    jdbc.sql("INSERT INTO scheduler.tenants (id, tier) VALUES (:id, :tier)")
        .param("id", id)
        .param("tier", tier)
        .update();
  }

  /** A row builder with sensible defaults: an enabled feed, due now, never fetched. */
  protected SourceRow source() {
    return new SourceRow(jdbc, tenant);
  }

  /** Reads one column of a source. */
  protected <T> T column(UUID id, String column, Class<T> type) {
    return jdbc.sql("SELECT " + column + " FROM scheduler.sources WHERE id = :id")
        .param("id", id)
        .query(type)
        .optional()
        .orElse(null);
  }

  protected Instant instantColumn(UUID id, String column) {
    Timestamp ts = column(id, column, Timestamp.class);
    return ts == null ? null : ts.toInstant();
  }

  /**
   * Every FetchRequested of this test's tenant on the topic, read from the beginning up to the
   * topic's current end (every request a committed claim made has been acknowledged, so it is in).
   */
  protected List<FetchRequested> requestsOfTenant() {
    var deserializer = topics.fetchRequested().valueSerde().deserializer();
    List<FetchRequested> found = new ArrayList<>();
    for (var record : records(topics.fetchRequested().name())) {
      FetchRequested request = deserializer.deserialize(record.topic(), record.value());
      if (request.getTenantId().equals(tenant)) {
        found.add(request);
      }
    }
    return found;
  }

  /** Every committed record of {@code topic}, from the beginning up to its current end. */
  protected static List<ConsumerRecord<String, byte[]>> records(String topic) {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-reader-" + UUID.randomUUID());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long deadline = System.currentTimeMillis() + 30_000;
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
          && System.currentTimeMillis() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(found::add);
      }
    }
    return found;
  }
}
