package io.freshet.sink.testing;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.RealInfrastructure;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The setup every sink {@code *IT} shares: the real broker, registry and PostgreSQL, one database
 * for the test JVM, one Spring context (so one set of listeners in the test group), producers of
 * both input topics. Tests keep apart by writing their own sources (a random prefix).
 */
@RealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("it")
public abstract class SinkItSupport {

  private static String database;
  private static KafkaProducer<String, ContentFetched> contentProducer;
  private static KafkaProducer<String, FetchCompleted> completedProducer;

  @Autowired protected JdbcClient jdbc;
  @Autowired protected FreshetTopics topics;

  @DynamicPropertySource
  static void ownDatabase(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", () -> Infrastructure.postgres().jdbcUrl(database()));
    registry.add("spring.datasource.username", () -> Infrastructure.postgres().username());
    registry.add("spring.datasource.password", () -> Infrastructure.postgres().password());
  }

  /** The test JVM's database (created on first use). */
  protected static synchronized String database() {
    if (database == null) {
      database = Infrastructure.postgres().createDatabase("content_sink_it");
    }
    return database;
  }

  @AfterAll
  static synchronized void closeProducers() {
    if (contentProducer != null) {
      contentProducer.close();
      contentProducer = null;
    }
    if (completedProducer != null) {
      completedProducer.close();
      completedProducer = null;
    }
  }

  private static Properties producerProps() {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    return props;
  }

  /** Publishes content events keyed by source, as the fetch-worker does, and waits for the acks. */
  protected void sendContent(List<ContentFetched> events) {
    synchronized (SinkItSupport.class) {
      if (contentProducer == null) {
        contentProducer =
            new KafkaProducer<>(
                producerProps(),
                topics.contentFetched().keySerde().serializer(),
                topics.contentFetched().valueSerde().serializer());
      }
    }
    for (ContentFetched e : events) {
      contentProducer.send(new ProducerRecord<>(FreshetTopics.CONTENT_FETCHED, e.getSourceId(), e));
    }
    contentProducer.flush();
  }

  /** Publishes fetch outcomes keyed by source and waits for the acks. */
  protected void sendCompleted(List<FetchCompleted> events) {
    synchronized (SinkItSupport.class) {
      if (completedProducer == null) {
        completedProducer =
            new KafkaProducer<>(
                producerProps(),
                topics.fetchCompleted().keySerde().serializer(),
                topics.fetchCompleted().valueSerde().serializer());
      }
    }
    for (FetchCompleted e : events) {
      completedProducer.send(
          new ProducerRecord<>(FreshetTopics.FETCH_COMPLETED, e.getSourceId(), e));
    }
    completedProducer.flush();
  }

  /** Content rows of sources whose id starts with {@code prefix}. */
  protected long rows(String prefix) {
    return jdbc.sql("SELECT count(*) FROM platform_content WHERE source_id LIKE :p")
        .param("p", prefix + "%")
        .query(Long.class)
        .single();
  }
}
