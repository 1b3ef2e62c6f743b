package io.freshet.scheduler.schedule;

import io.freshet.schemas.avro.ServerHints;
import tools.jackson.databind.json.JsonMapper;

/**
 * A source's last freshness hints as the {@code sources.hints} column stores them (JSON with the
 * event's field names), and the merge a 304 makes with them. Pure.
 */
final class StoredHints {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private StoredHints() {}

  /** The stored hints with a 304's caching headers on top; null when neither says anything. */
  static ServerHints refreshed(ServerHints stored, ServerHints fresh) {
    if (stored == null) {
      return fresh;
    }
    if (fresh == null) {
      return stored;
    }
    ServerHints merged = ServerHints.newBuilder(stored).build();
    if (fresh.getMaxAgeSeconds() != null) {
      merged.setMaxAgeSeconds(fresh.getMaxAgeSeconds());
    }
    return merged;
  }

  /** Hints as {@link #write} stored them; null for none or unreadable. */
  static ServerHints read(String json) {
    if (json == null || json.isBlank()) {
      return null;
    }
    var node = JSON.readTree(json);
    ServerHints hints = ServerHints.newBuilder().build();
    if (node.hasNonNull("max_age_seconds")) {
      hints.setMaxAgeSeconds(node.get("max_age_seconds").asLong());
    }
    if (node.hasNonNull("ttl_minutes")) {
      hints.setTtlMinutes(node.get("ttl_minutes").asInt());
    }
    if (node.hasNonNull("update_period_seconds")) {
      hints.setUpdatePeriodSeconds(node.get("update_period_seconds").asLong());
    }
    java.util.List<Integer> hours = new java.util.ArrayList<>();
    node.path("skip_hours").forEach(h -> hours.add(h.asInt()));
    hints.setSkipHours(hours);
    java.util.List<Integer> days = new java.util.ArrayList<>();
    node.path("skip_days").forEach(d -> days.add(d.asInt()));
    hints.setSkipDays(days);
    return hints;
  }

  static String write(ServerHints hints) {
    if (hints == null) {
      return null;
    }
    var node = JSON.createObjectNode();
    if (hints.getMaxAgeSeconds() != null) {
      node.put("max_age_seconds", hints.getMaxAgeSeconds());
    }
    if (hints.getTtlMinutes() != null) {
      node.put("ttl_minutes", hints.getTtlMinutes());
    }
    if (hints.getUpdatePeriodSeconds() != null) {
      node.put("update_period_seconds", hints.getUpdatePeriodSeconds());
    }
    if (!hints.getSkipHours().isEmpty()) {
      var a = node.putArray("skip_hours");
      hints.getSkipHours().forEach(a::add);
    }
    if (!hints.getSkipDays().isEmpty()) {
      var a = node.putArray("skip_days");
      hints.getSkipDays().forEach(a::add);
    }
    return JSON.writeValueAsString(node);
  }
}
