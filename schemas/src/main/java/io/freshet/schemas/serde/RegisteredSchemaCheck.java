package io.freshet.schemas.serde;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * With auto-registration off, makes sure a producer's schema is already registered under its
 * subject before the first record is written, and fails clearly if not ("run SchemaRegistrar").
 * Asks the Confluent-compatible API ({@code POST /subjects/{subject}}), which looks a schema up
 * without registering it. Each subject is checked once per serializer.
 */
final class RegisteredSchemaCheck {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String ccompatUrl;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final Set<String> verified = ConcurrentHashMap.newKeySet();

  RegisteredSchemaCheck(String ccompatUrl) {
    this.ccompatUrl = ccompatUrl;
  }

  void requireRegistered(String topic, Schema schema) {
    String subject = topic + "-value";
    if (verified.contains(subject)) {
      return;
    }
    try {
      var request =
          HttpRequest.newBuilder(
                  URI.create(
                      ccompatUrl
                          + "/subjects/"
                          + URLEncoder.encode(subject, StandardCharsets.UTF_8)))
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", "application/vnd.schemaregistry.v1+json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      JSON.writeValueAsString(Map.of("schema", schema.toString()))))
              .build();
      var response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() == 404) {
        throw new SerializationException(
            "topic "
                + topic
                + ": schema "
                + schema.getFullName()
                + " is not registered under subject "
                + subject
                + " and auto-registration is off; run io.freshet.schemas.registry.SchemaRegistrar"
                + " against the registry first");
      }
      if (response.statusCode() / 100 != 2) {
        throw new SerializationException(
            "topic "
                + topic
                + ": registry answered "
                + response.statusCode()
                + " looking up "
                + subject
                + ": "
                + response.body());
      }
      verified.add(subject);
    } catch (IOException e) {
      throw new SerializationException(
          "topic " + topic + ": cannot reach registry at " + ccompatUrl, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SerializationException("interrupted", e);
    }
  }
}
