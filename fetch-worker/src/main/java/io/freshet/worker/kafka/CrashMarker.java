package io.freshet.worker.kafka;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a worker records, in the metadata of its consumer group's committed offset, before it
 * fetches a partition's records: which instance started them, from which offset, which single
 * record (if any) it is fetching alone, and how often each record already was in flight alone when
 * a worker died. The batch's transaction commits the next offset with empty metadata, so a marker
 * that is still there when a partition is picked up again means its records were in flight when
 * their worker went away.
 *
 * @param instance the worker process that wrote it (random per start)
 * @param at the first offset of the partition's records being fetched (= the committed offset)
 * @param current the offset fetched alone, or -1 while the batch's records are fetched together
 * @param crashes offset → times a worker died while that record was fetched alone
 */
record CrashMarker(String instance, long at, long current, Map<Long, Integer> crashes) {

  static final String PREFIX = "freshet-crash-guard:v1;";

  /** Offset metadata is capped by the broker (4096 bytes by default): keep far below it. */
  static final int MAX_CRASH_ENTRIES = 32;

  CrashMarker {
    crashes = Map.copyOf(crashes);
  }

  /** This marker's view after its worker died: the record fetched alone counts one crash more. */
  Map<Long, Integer> crashesAfterDeath() {
    Map<Long, Integer> counts = new LinkedHashMap<>(crashes);
    if (current >= 0) {
      counts.merge(current, 1, Integer::sum);
    }
    return counts;
  }

  String encode() {
    StringBuilder s =
        new StringBuilder(PREFIX)
            .append("i=")
            .append(instance)
            .append(";at=")
            .append(at)
            .append(";cur=")
            .append(current)
            .append(";c=");
    int n = 0;
    for (Map.Entry<Long, Integer> e : crashes.entrySet()) {
      if (n++ == MAX_CRASH_ENTRIES) {
        break;
      }
      s.append(n > 1 ? "," : "").append(e.getKey()).append(':').append(e.getValue());
    }
    return s.toString();
  }

  /** The marker in an offset's metadata, or null when there is none (or not one of ours). */
  static CrashMarker decode(String metadata) {
    if (metadata == null || !metadata.startsWith(PREFIX)) {
      return null;
    }
    try {
      Map<String, String> fields = new LinkedHashMap<>();
      for (String part : metadata.substring(PREFIX.length()).split(";", -1)) {
        int eq = part.indexOf('=');
        if (eq > 0) {
          fields.put(part.substring(0, eq), part.substring(eq + 1));
        }
      }
      Map<Long, Integer> crashes = new LinkedHashMap<>();
      String c = fields.getOrDefault("c", "");
      if (!c.isEmpty()) {
        for (String entry : c.split(",")) {
          int colon = entry.indexOf(':');
          crashes.put(
              Long.parseLong(entry.substring(0, colon)),
              Integer.parseInt(entry.substring(colon + 1)));
        }
      }
      String instance = fields.get("i");
      if (instance == null) {
        return null;
      }
      return new CrashMarker(
          instance, Long.parseLong(fields.get("at")), Long.parseLong(fields.get("cur")), crashes);
    } catch (RuntimeException unreadable) {
      return null; // a marker this version cannot read protects nothing: treated as none
    }
  }
}
