package io.freshet.sink.activity;

import io.freshet.sink.ingest.ContentUpserter;
import io.freshet.sink.ingest.ContentVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One stored version arriving for one fetch request: the unit the activity log counts once, however
 * often Kafka redelivers it.
 *
 * @param requestId the fetch request the record came from
 * @param sourceId its source
 * @param tenantId its tenant
 * @param contentId the stored row ({@code platform_content.id})
 * @param novelty what the upsert found
 */
public record Arrival(
    String requestId, String sourceId, String tenantId, long contentId, Novelty novelty) {

  /**
   * The arrivals of a stored batch, in consumption order, one per (request, version). A version
   * counts as new or changed for the request of its first record in the batch when this batch
   * inserted it; every other record of it counts as a duplicate. A redelivered batch therefore
   * yields only duplicates, and those find their arrival already recorded and count nothing.
   *
   * @param consumed the batch's valid records in consumption order
   * @param stored what the upsert returned for each version of the batch
   */
  public static List<Arrival> of(
      List<ContentVersion> consumed,
      java.util.Map<ContentVersion.Key, ContentUpserter.Stored> stored) {
    Set<ContentVersion.Key> firstSeen = new HashSet<>();
    Set<String> recorded = new HashSet<>();
    List<Arrival> arrivals = new ArrayList<>();
    for (ContentVersion v : consumed) {
      ContentUpserter.Stored row = stored.get(v.key());
      if (row == null) {
        throw new IllegalStateException("the upsert returned no row for " + v.key());
      }
      boolean first = firstSeen.add(v.key());
      if (!recorded.add(v.requestId() + "\u0000" + row.id())) {
        continue;
      }
      Novelty novelty =
          first && row.inserted()
              ? (row.isVersion() ? Novelty.CHANGED : Novelty.NEW)
              : Novelty.DUPLICATE;
      arrivals.add(new Arrival(v.requestId(), v.sourceId(), v.tenantId(), row.id(), novelty));
    }
    return arrivals;
  }
}
