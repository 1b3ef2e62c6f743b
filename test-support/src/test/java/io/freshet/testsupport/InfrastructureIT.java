package io.freshet.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

@RealInfrastructure
class InfrastructureIT {

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void brokerCarriesARecordFromProducerToConsumer(KafkaFixture kafka) throws Exception {
    kafka.createTopic("it.roundtrip", 1, Map.of());
    var producerProps = new Properties();
    producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>("it.roundtrip", "k", "v")).get();
    }
    var consumerProps = new Properties();
    consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "it");
    consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (var consumer =
        new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of("it.roundtrip"));
      var values = new java.util.ArrayList<String>();
      long deadline = System.currentTimeMillis() + 20_000;
      while (values.isEmpty() && System.currentTimeMillis() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
      }
      assertThat(values).containsExactly("v");
    }
  }

  @Test
  void postgresIsVersion17AndAcceptsSeparateDatabases(PostgresFixture postgres) throws Exception {
    String db = postgres.createDatabase("infra_it");
    try (var conn = postgres.dataSource(db).getConnection();
        var rs = conn.createStatement().executeQuery("SHOW server_version")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).startsWith("17.");
    }
  }

  @Test
  void postgresStoppedRefusesConnectionsAndRestartsWithItsData(PostgresFixture postgres)
      throws Exception {
    String db = postgres.createDatabase("outage");
    try (var conn = postgres.dataSource(db).getConnection();
        var st = conn.createStatement()) {
      st.execute("CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)");
    }
    postgres.stop();
    try {
      assertThatThrownBy(() -> postgres.dataSource(db).getConnection().close())
          .isInstanceOf(java.sql.SQLException.class);
    } finally {
      postgres.restart();
    }
    try (var conn = postgres.dataSource(db).getConnection();
        var st = conn.createStatement();
        var rs = st.executeQuery("SELECT v FROM kept")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(42);
    }
  }

  @Test
  void registryServesTheConfluentCompatibleApi(RegistryFixture registry) throws Exception {
    var response =
        http.send(
            HttpRequest.newBuilder(URI.create(registry.ccompatUrl() + "/subjects")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).startsWith("[");
  }

  @Test
  void endpointsArePublishedForSpringContexts() {
    assertThat(System.getProperty("spring.kafka.bootstrap-servers")).contains(":");
    assertThat(System.getProperty("spring.datasource.url")).startsWith("jdbc:postgresql://");
    assertThat(System.getProperty("freshet.registry.url")).endsWith("/apis/registry/v2");
  }

  @Test
  void feedServerAnswersConditionalRequestsWith304() throws Exception {
    try (var server = FeedServer.start()) {
      server.serve("/feed.xml", "application/rss+xml", "<rss/>", "\"v1\"");
      var first =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url("/feed.xml"))).build(),
              HttpResponse.BodyHandlers.ofString());
      var second =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url("/feed.xml")))
                  .header("If-None-Match", "\"v1\"")
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(first.statusCode()).isEqualTo(200);
      assertThat(first.body()).isEqualTo("<rss/>");
      assertThat(second.statusCode()).isEqualTo(304);
      assertThat(server.requests("/feed.xml")).hasSize(2);
    }
  }
}
