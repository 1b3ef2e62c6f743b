package io.freshet.schemas.serde;

import io.apicurio.registry.resolver.SchemaResolverConfig;
import io.apicurio.registry.serde.Legacy4ByteIdHandler;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Builds Avro serdes that write and read the Confluent wire format (magic byte 0, 4-byte schema id,
 * Avro binary) through Apicurio's serde in its Confluent-compatible mode. The schema id is the
 * registry's content id, which is what a Confluent-compatible API ({@code /apis/ccompat/v7}) serves
 * under {@code /schemas/ids/{id}}; so any Confluent-format deserializer reads Freshet's topics.
 */
public final class AvroSerdes {

  private final RegistrySettings registry;

  public AvroSerdes(RegistrySettings registry) {
    this.registry = registry;
  }

  /** The client settings shared by serializers and deserializers, for values. */
  public Map<String, Object> clientConfig() {
    Map<String, Object> config = new HashMap<>(registry.extra());
    config.put(SerdeConfig.REGISTRY_URL, registry.url());
    config.put(SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, true);
    // the 4-byte id handler that as-confluent implies, named too so the serde does not warn
    config.put(SerdeConfig.ID_HANDLER, Legacy4ByteIdHandler.class.getName());
    config.put(SerdeConfig.ENABLE_HEADERS, false);
    config.put(SerdeConfig.USE_ID, "contentId");
    // The group that the Confluent-compatible API's subjects live in, so that schemas registered
    // through /apis/ccompat/v7 (SchemaRegistrar) and through the serde are the same artifacts.
    config.put(SerdeConfig.EXPLICIT_ARTIFACT_GROUP_ID, "default");
    // Apicurio 2.6's look-up-only path (auto-register off) sends the schema with its nested named
    // types as references, so it never matches a self-contained registration. Its
    // register-or-return path sends the self-contained schema and returns the registered id when
    // the content is there. So the serde always takes that path; with autoRegister off, Freshet
    // first checks that the schema is registered and refuses to write otherwise (see
    // RegisteredSchemaCheck), and the subject's BACKWARD rule refuses incompatible versions.
    config.put(SerdeConfig.AUTO_REGISTER_ARTIFACT, true);
    config.put(SerdeConfig.AUTO_REGISTER_ARTIFACT_IF_EXISTS, "RETURN_OR_UPDATE");
    config.put(AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, true);
    // One self-contained schema per subject (nested enums and records inline, no artifact
    // references): what /schemas/ids/{id} hands any Confluent client, and exactly the content
    // SchemaRegistrar registers, so lookups by content find it.
    config.put(SchemaResolverConfig.DEREFERENCE_SCHEMA, true);
    return config;
  }

  /** A configured value serializer for records of {@code type}. */
  public <T extends SpecificRecord> Serializer<T> valueSerializer(Class<T> type) {
    Serializer<T> serializer = new SchemaIdCachingSerializer<>(new AvroKafkaSerializer<T>());
    serializer.configure(clientConfig(), false);
    if (registry.autoRegister()) {
      return serializer;
    }
    var check = new RegisteredSchemaCheck(registry.ccompatUrl());
    return new Serializer<>() {
      @Override
      public byte[] serialize(String topic, T data) {
        if (data != null) {
          check.requireRegistered(topic, data.getSchema());
        }
        return serializer.serialize(topic, data);
      }

      @Override
      public void close() {
        serializer.close();
      }
    };
  }

  /**
   * A configured value deserializer for records of {@code type}. Input that is not Confluent-format
   * Avro fails with a {@link org.apache.kafka.common.errors.SerializationException} saying why; the
   * consumer adds the partition and offset.
   */
  public <T extends SpecificRecord> Deserializer<T> valueDeserializer(Class<T> type) {
    Deserializer<T> deserializer =
        new WireFormatCheckingDeserializer<>(type, new AvroKafkaDeserializer<>());
    Map<String, Object> config = clientConfig();
    config.put(SerdeConfig.DESERIALIZER_SPECIFIC_VALUE_RETURN_CLASS, type.getName());
    // one reader per writer schema and thread, not one per record (see the class)
    config.put(
        AvroKafkaSerdeConfig.AVRO_DATUM_PROVIDER, ReaderCachingDatumProvider.class.getName());
    deserializer.configure(config, false);
    return deserializer;
  }

  /** A value serde for records of {@code type}. */
  public <T extends SpecificRecord> Serde<T> valueSerde(Class<T> type) {
    return Serdes.serdeFrom(valueSerializer(type), valueDeserializer(type));
  }
}
