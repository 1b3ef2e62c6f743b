package io.freshet.scheduler.claims;

import io.freshet.scheduler.schedule.ClaimedSource;
import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchRequested;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds the {@code FetchRequested} of a claimed source. Pure: the request id is derived from the
 * source and epoch, so re-building the same claim gives the same id.
 */
public final class FetchRequestFactory {

  /** Keys of {@code config_json} that are the scheduler's, not the connector's. */
  static final Set<String> SCHEDULER_KEYS = Set.of("cadence", "hints");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private FetchRequestFactory() {}

  public static FetchRequested create(ClaimedSource source, Instant requestedAt, Instant notAfter) {
    return FetchRequested.newBuilder()
        .setRequestId(requestId(source.id(), source.epoch()))
        .setSourceId(source.id().toString())
        .setTenantId(source.tenantId())
        .setConnector(connector(source.connector()))
        .setUrl(source.url())
        .setConfig(flatten(source.configJson(), SCHEDULER_KEYS))
        .setCursor(flatten(source.cursorJson(), Set.of()))
        .setCredentialsEncrypted(
            source.credentialsEncrypted() == null
                ? null
                : ByteBuffer.wrap(source.credentialsEncrypted()))
        .setEpoch(source.epoch())
        .setRequestedAt(requestedAt)
        .setDueAt(source.dueAt() == null ? requestedAt : source.dueAt())
        .setNotAfter(notAfter)
        .setManual(source.manual())
        .setPriority(source.priority())
        .build();
  }

  /** One id per (source, epoch): a claim re-emitted after a rollback keeps its request id. */
  static String requestId(UUID sourceId, long epoch) {
    return UUID.nameUUIDFromBytes(
            (sourceId + "/" + epoch).getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .toString();
  }

  private static Connector connector(String name) {
    for (Connector c : Connector.values()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return Connector.unknown;
  }

  /** A JSON object's top-level entries as strings; structured values stay JSON text. */
  static Map<String, String> flatten(String json, Set<String> skip) {
    Map<String, String> out = new LinkedHashMap<>();
    if (json == null || json.isBlank()) {
      return out;
    }
    JsonNode root = JSON.readTree(json);
    for (var entry : root.properties()) {
      if (skip.contains(entry.getKey()) || entry.getValue().isNull()) {
        continue;
      }
      JsonNode v = entry.getValue();
      out.put(entry.getKey(), v.isString() ? v.asString() : JSON.writeValueAsString(v));
    }
    return out;
  }
}
