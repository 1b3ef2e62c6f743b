package io.freshet.sink.ingest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A batch of item versions in the order they were consumed, made ready for one upsert statement:
 * repeats of the same version collapse into one row (a statement may touch a row only once) that
 * keeps the first occurrence's content and the latest fetch time as {@code last_seen_at}; and each
 * version knows which earlier row of the same batch it follows, so that an item changed twice
 * within one batch is linked v1 ← v2 ← v3 in consumption order. A row carries its first
 * occurrence's request; a repeat of it under another request is listed apart, because the activity
 * log counts it for that request too (as a duplicate).
 *
 * @param rows distinct versions in first-occurrence order
 * @param lastSeen for each row, the latest fetch time among its occurrences
 * @param previousInBatch for each row, the 0-based index of the row it is a new version of, or -1
 *     when that is decided by what is already stored
 * @param collapsed occurrences folded into an earlier row of the batch (duplicates within it)
 * @param repeats the occurrences folded into a row that came from another request than the row's
 *     own, one per (request, row), in consumption order
 */
public record UpsertPlan(
    List<ContentVersion> rows,
    List<Instant> lastSeen,
    int[] previousInBatch,
    int collapsed,
    List<Repeat> repeats) {

  /**
   * A version that request {@code requestId} emitted too, after another request of the batch did.
   *
   * @param row the 0-based index of the version's row
   * @param requestId the repeating record's request
   * @param tenantId the repeating record's tenant
   */
  public record Repeat(int row, String requestId, String tenantId) {}

  public static UpsertPlan of(List<ContentVersion> consumed) {
    Map<ContentVersion.Key, Integer> index = new LinkedHashMap<>();
    Map<ContentVersion.ItemKey, Integer> latestOfItem = new HashMap<>();
    List<ContentVersion> rows = new ArrayList<>();
    List<Instant> lastSeen = new ArrayList<>();
    List<Integer> previous = new ArrayList<>();
    int collapsed = 0;
    List<Repeat> repeats = new ArrayList<>();
    Set<String> repeated = new HashSet<>();
    for (ContentVersion v : consumed) {
      Integer seen = index.get(v.key());
      if (seen != null) {
        collapsed++;
        if (!v.requestId().equals(rows.get(seen).requestId())
            && repeated.add(seen + "\u0000" + v.requestId())) {
          repeats.add(new Repeat(seen, v.requestId(), v.tenantId()));
        }
        if (v.fetchedAt().isAfter(lastSeen.get(seen))) {
          lastSeen.set(seen, v.fetchedAt());
        }
        latestOfItem.put(v.itemKey(), seen);
        continue;
      }
      int at = rows.size();
      Integer prior = latestOfItem.get(v.itemKey());
      rows.add(v);
      lastSeen.add(v.fetchedAt());
      previous.add(prior == null ? -1 : prior);
      index.put(v.key(), at);
      latestOfItem.put(v.itemKey(), at);
    }
    return new UpsertPlan(
        List.copyOf(rows),
        List.copyOf(lastSeen),
        previous.stream().mapToInt(Integer::intValue).toArray(),
        collapsed,
        List.copyOf(repeats));
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }
}
