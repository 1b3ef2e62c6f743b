package io.freshet.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.freshet.schemas.registry.EventSchemas;
import io.freshet.schemas.registry.SchemaRegistrar;
import io.freshet.schemas.testdata.Events;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import io.freshet.testsupport.RegistryFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Freshet's topics are readable by any Confluent-format Avro client: records written with Freshet's
 * serde through a real broker and registry decode with nothing but the registry's
 * Confluent-compatible API and plain Avro.
 */
@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
class ConfluentWireFormatIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void everyEventDecodesWithoutFreshetSerdeFromTheRawBytes(
      KafkaFixture kafka, RegistryFixture registry) throws Exception {
    var topics = FreshetTopics.create(RegistrySettings.of(registry.apiUrl(), true), 1);
    assertDecodesFromRawBytes(kafka, registry, topics.fetchRequested(), Events.fetchRequested());
    assertDecodesFromRawBytes(kafka, registry, topics.contentFetched(), Events.contentFetched());
    assertDecodesFromRawBytes(kafka, registry, topics.fetchCompleted(), Events.fetchCompleted());
    assertDecodesFromRawBytes(kafka, registry, topics.sourceStats(), Events.sourceStats());
  }

  @Test
  void laterRecordsAreWrittenByteForByteAsTheRegistrySerdeWritesTheFirst(RegistryFixture registry) {
    var topics = FreshetTopics.create(RegistrySettings.of(registry.apiUrl(), true), 1);
    for (var pair :
        List.<Map.Entry<Topic<String, ? extends SpecificRecord>, SpecificRecord>>of(
            Map.entry(topics.fetchRequested(), Events.fetchRequested()),
            Map.entry(topics.contentFetched(), Events.contentFetched()),
            Map.entry(topics.fetchCompleted(), Events.fetchCompleted()),
            Map.entry(topics.sourceStats(), Events.sourceStats()))) {
      @SuppressWarnings("unchecked")
      var serializer =
          (org.apache.kafka.common.serialization.Serializer<SpecificRecord>)
              pair.getKey().valueSerde().serializer();
      byte[] first = serializer.serialize(pair.getKey().name(), pair.getValue());
      byte[] second = serializer.serialize(pair.getKey().name(), pair.getValue());

      assertThat(second).as(pair.getKey().name()).isEqualTo(first);
    }
  }

  @Test
  void registrarRegistersEverySchemaBackwardAndProducersUseItsIdsWithoutAutoRegistering(
      KafkaFixture kafka, RegistryFixture registry) throws Exception {
    var registrar = new SchemaRegistrar(registry.ccompatUrl());
    var registrations = registrar.registerAll();

    assertThat(registrations)
        .extracting(SchemaRegistrar.Registration::subject)
        .containsExactlyElementsOf(EventSchemas.ALL.stream().map(EventSchemas::subject).toList());
    for (var registration : registrations) {
      assertThat(registrar.compatibility(registration.subject())).isEqualTo("BACKWARD");
    }
    assertThat(registrar.registerAll())
        .as("registering again is idempotent")
        .isEqualTo(registrations);

    var topics = FreshetTopics.create(RegistrySettings.of(registry.apiUrl(), false), 1);
    byte[] bytes = produceAndReadRaw(kafka, topics.fetchCompleted(), Events.fetchCompleted());
    int fetchCompletedId =
        registrations.stream()
            .filter(r -> r.subject().startsWith("freshet.fetch.completed"))
            .findFirst()
            .orElseThrow()
            .id();
    assertThat(ConfluentWireFormat.schemaId(bytes)).isEqualTo(fetchCompletedId);
  }

  @Test
  void producerWithoutAutoRegistrationRefusesAnUnregisteredSchema(RegistryFixture registry) {
    var serializer =
        new AvroSerdes(RegistrySettings.of(registry.apiUrl(), false))
            .valueSerializer(io.freshet.schemas.avro.FetchRequested.class);

    assertThatThrownBy(
            () ->
                serializer.serialize(
                    "it.unregistered." + UUID.randomUUID(), Events.fetchRequested()))
        .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
        .hasMessageContaining("is not registered under subject it.unregistered.")
        .hasMessageContaining("SchemaRegistrar");
  }

  @Test
  void registryRefusesAnIncompatibleSchemaAndTheRegistrarSaysWhich(RegistryFixture registry) {
    var registrar = new SchemaRegistrar(registry.ccompatUrl());
    registrar.registerAll();
    String incompatible =
        "{\"type\":\"record\",\"name\":\"SourceStats\",\"namespace\":\"io.freshet.schemas.avro\","
            + "\"fields\":[{\"name\":\"source_id\",\"type\":\"int\"}]}";

    assertThatThrownBy(() -> registrar.register("freshet.source.stats.v1-value", incompatible))
        .isInstanceOf(SchemaRegistrar.RegistrationException.class)
        .hasMessageContaining("freshet.source.stats.v1-value")
        .hasMessageContaining("409");
  }

  @Test
  void recordThatIsNotConfluentAvroFailsNamingTopicPartitionAndOffset(
      KafkaFixture kafka, RegistryFixture registry) throws Exception {
    String topic = "it.malformed." + UUID.randomUUID();
    kafka.createTopic(topic, 1, Map.of());
    try (var producer = rawProducer(kafka)) {
      producer
          .send(new ProducerRecord<>(topic, "k".getBytes(), "{\"not\":\"avro\"}".getBytes()))
          .get();
    }
    var serdes = new AvroSerdes(RegistrySettings.of(registry.apiUrl(), true));
    Deserializer<io.freshet.schemas.avro.FetchRequested> deserializer =
        serdes.valueDeserializer(io.freshet.schemas.avro.FetchRequested.class);

    try (var consumer =
        new KafkaConsumer<>(consumerProps(kafka), new StringDeserializer(), deserializer)) {
      consumer.subscribe(List.of(topic));
      RecordDeserializationException failure = null;
      long deadline = System.currentTimeMillis() + 20_000;
      while (failure == null && System.currentTimeMillis() < deadline) {
        try {
          consumer.poll(Duration.ofMillis(200));
        } catch (RecordDeserializationException e) {
          failure = e;
        }
      }
      assertThat(failure).as("deserialization failure").isNotNull();
      assertThat(DeserializationFailures.describe(failure))
          .isEqualTo(
              "topic "
                  + topic
                  + " partition 0 offset 0: topic "
                  + topic
                  + ": cannot read FetchRequested: not Confluent-format Avro: first byte is 0x7B,"
                  + " expected the magic byte 0x00");
    }
  }

  @Test
  void recordsOfAnOlderWriterSchemaInterleavedWithCurrentOnesEachDecodeByTheirOwnSchema(
      RegistryFixture registry) throws Exception {
    // The deserializer keeps one Avro reader per writer schema and thread
    // (ReaderCachingDatumProvider): records of two writer schemas, interleaved, on two threads,
    // with a corrupt one in between, must each still be read by their own schema.
    var topics = FreshetTopics.create(RegistrySettings.of(registry.apiUrl(), true), 1);
    var topic = topics.contentFetched();
    var current = Events.contentFetched();
    byte[] currentBytes = topic.valueSerde().serializer().serialize(topic.name(), current);

    // ContentFetched as it was before `retention` and `metadata` (both defaulted) were added.
    Schema schema = current.getSchema();
    Schema older =
        Schema.createRecord(
            schema.getName(),
            schema.getDoc(),
            schema.getNamespace(),
            false,
            schema.getFields().stream()
                .filter(f -> !f.name().equals("retention") && !f.name().equals("metadata"))
                .map(f -> new Schema.Field(f, f.schema()))
                .toList());
    int olderId =
        new SchemaRegistrar(registry.ccompatUrl())
            .register("it.older." + UUID.randomUUID() + "-value", older.toString())
            .id();
    assertThat(olderId).isNotEqualTo(ConfluentWireFormat.schemaId(currentBytes));
    var olderRecord = new org.apache.avro.generic.GenericData.Record(older);
    for (Schema.Field f : older.getFields()) {
      olderRecord.put(f.name(), current.get(schema.getField(f.name()).pos()));
    }
    var out = new java.io.ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(olderId).array());
    var encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
    new org.apache.avro.specific.SpecificDatumWriter<org.apache.avro.generic.GenericRecord>(
            older,
            org.apache.avro.specific.SpecificData.getForClass(
                io.freshet.schemas.avro.ContentFetched.class))
        .write(olderRecord, encoder);
    encoder.flush();
    byte[] olderBytes = out.toByteArray();
    byte[] corrupt = java.util.Arrays.copyOf(olderBytes, 12);
    var expectedFromOlder = io.freshet.schemas.avro.ContentFetched.newBuilder(current);
    expectedFromOlder.setRetention(null);
    expectedFromOlder.setMetadata(Map.of());
    var fromOlder = expectedFromOlder.build();

    var deserializer = topic.valueSerde().deserializer();
    java.util.concurrent.Callable<Integer> reads =
        () -> {
          int read = 0;
          for (int i = 0; i < 300; i++) {
            assertThat(deserializer.deserialize(topic.name(), currentBytes))
                .usingRecursiveComparison()
                .isEqualTo(current);
            assertThat(deserializer.deserialize(topic.name(), olderBytes))
                .usingRecursiveComparison()
                .isEqualTo(fromOlder);
            if (i % 100 == 0) {
              assertThatThrownBy(() -> deserializer.deserialize(topic.name(), corrupt))
                  .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class);
            }
            read += 2;
          }
          return read;
        };
    try (var pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
      var a = pool.submit(reads);
      var b = pool.submit(reads);
      assertThat(a.get() + b.get()).isEqualTo(1200);
    }
  }

  private <V extends SpecificRecord> void assertDecodesFromRawBytes(
      KafkaFixture kafka, RegistryFixture registry, Topic<String, V> topic, V event)
      throws Exception {
    byte[] bytes = produceAndReadRaw(kafka, topic, event);

    assertThat(bytes[0]).as("magic byte").isZero();
    int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
    var response =
        http.send(
            HttpRequest.newBuilder(URI.create(registry.ccompatUrl() + "/schemas/ids/" + id))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET /schemas/ids/" + id).isEqualTo(200);
    Schema writer =
        new Schema.Parser().parse(JSON.readTree(response.body()).path("schema").asText());
    GenericRecord decoded =
        new GenericDatumReader<GenericRecord>(writer)
            .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));

    assertThat(writer.getFullName()).isEqualTo(event.getSchema().getFullName());
    // Freshet's own deserializer gives back the very record ...
    // (compared field by field: Avro's own equals() on arrays of records with nullable
    // timestamps throws, it resolves the union without the logical-type conversions)
    assertThat(topic.valueSerde().deserializer().deserialize(topic.name(), bytes))
        .usingRecursiveComparison()
        .isEqualTo(event);
    // ... and plain Avro reads every field back as the value that was sent.
    for (Schema.Field field : writer.getFields()) {
      Object sent = event.get(event.getSchema().getField(field.name()).pos());
      Object read = decoded.get(field.name());
      assertThat(plain(read)).as(field.name()).isEqualTo(plain(sent));
    }
  }

  /** A value as plain text whichever Avro data model made it (Utf8/String, enum, Instant/long). */
  private static String plain(Object value) {
    if (value instanceof java.time.Instant instant) {
      return Long.toString(instant.toEpochMilli());
    }
    if (value instanceof java.util.Map<?, ?> map) {
      return new java.util.TreeMap<>(
              map.entrySet().stream()
                  .collect(
                      java.util.stream.Collectors.toMap(
                          e -> e.getKey().toString(), e -> plain(e.getValue()))))
          .toString();
    }
    if (value instanceof java.util.List<?> list) {
      return list.stream().map(ConfluentWireFormatIT::plain).toList().toString();
    }
    if (value instanceof GenericRecord record) {
      return record.getSchema().getFields().stream()
          .map(f -> f.name() + "=" + plain(record.get(f.pos())))
          .toList()
          .toString();
    }
    return String.valueOf(value);
  }

  private <V> byte[] produceAndReadRaw(KafkaFixture kafka, Topic<String, V> topic, V event)
      throws Exception {
    String name = topic.name() + "." + UUID.randomUUID();
    kafka.createTopic(name, 1, topic.config());
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    // Bytes as the serde makes them for the real topic (its subject), sent through a topic of
    // this test's own so that runs never see each other's records.
    byte[] value = topic.valueSerde().serializer().serialize(topic.name(), event);
    try (var producer = rawProducer(kafka)) {
      producer.send(new ProducerRecord<>(name, "src-1".getBytes(), value)).get();
    }
    try (var consumer =
        new KafkaConsumer<>(
            consumerProps(kafka), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(name));
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      long deadline = System.currentTimeMillis() + 20_000;
      while (records.isEmpty() && System.currentTimeMillis() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      assertThat(records).hasSize(1);
      return records.getFirst().value();
    }
  }

  private static KafkaProducer<byte[], byte[]> rawProducer(KafkaFixture kafka) {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static Properties consumerProps(KafkaFixture kafka) {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return props;
  }
}
