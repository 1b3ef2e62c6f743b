package io.freshet.stack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a subscriber in any language does with a Freshet topic, without Freshet's or Confluent's
 * serdes: raw bytes, magic byte 0, the 4-byte schema id looked up in the registry's
 * Confluent-compatible API ({@code /schemas/ids/{id}}), Avro binary decoded with that schema.
 */
public final class PlainAvroDecoder {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final String ccompatUrl;
  private final HttpClient http = HttpClient.newHttpClient();
  private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

  /**
   * @param ccompatUrl the registry's Confluent-compatible API, e.g. {@code …/apis/ccompat/v7}
   */
  public PlainAvroDecoder(String ccompatUrl) {
    this.ccompatUrl = ccompatUrl;
  }

  /** The record a Confluent-format value holds; a value in another format is an error. */
  public GenericRecord decode(byte[] value) {
    ByteBuffer buf = ByteBuffer.wrap(value);
    if (value.length < 5 || buf.get() != 0) {
      throw new IllegalStateException("not the Confluent wire format (magic byte 0, schema id)");
    }
    Schema schema = schemas.computeIfAbsent(buf.getInt(), this::schemaById);
    try {
      return new GenericDatumReader<GenericRecord>(schema)
          .read(null, DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, null));
    } catch (IOException e) {
      throw new IllegalStateException("undecodable Avro body with schema " + schema.getName(), e);
    }
  }

  private Schema schemaById(int id) {
    try {
      var r =
          http.send(
              HttpRequest.newBuilder(URI.create(ccompatUrl + "/schemas/ids/" + id)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("schema id " + id + ": HTTP " + r.statusCode());
      }
      return new Schema.Parser().parse(JSON.readTree(r.body()).get("schema").asString());
    } catch (IOException e) {
      throw new IllegalStateException("schema id " + id + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
