package io.freshet.stack.demoweb;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Compares, source by source, how many versions the demo web served with how many distinct versions
 * a store holds: more stored than served is a duplicate (the same version stored twice under
 * different hashes), fewer is a loss.
 *
 * @param published versions served (what the store must hold)
 * @param stored versions stored, over the same sources
 * @param duplicates stored beyond what was served, summed per source
 * @param lost served but not stored, summed per source
 */
public record Reconciliation(long published, long stored, long duplicates, long lost) {

  /**
   * @param expected per source, versions served
   * @param stored per source, distinct versions stored; sources absent count as 0, sources not in
   *     {@code expected} count entirely as duplicates
   */
  public static Reconciliation of(Map<String, Integer> expected, Map<String, Integer> stored) {
    long published = 0;
    long storedTotal = 0;
    long duplicates = 0;
    long lost = 0;
    Set<String> ids = new HashSet<>(expected.keySet());
    ids.addAll(stored.keySet());
    for (String id : ids) {
      int e = expected.getOrDefault(id, 0);
      int s = stored.getOrDefault(id, 0);
      published += e;
      storedTotal += s;
      duplicates += Math.max(0, s - e);
      lost += Math.max(0, e - s);
    }
    return new Reconciliation(published, storedTotal, duplicates, lost);
  }

  /** Whether every served version is stored exactly once. */
  public boolean exact() {
    return duplicates == 0 && lost == 0;
  }

  /** The one line tests print: {@code published N, stored N, duplicates 0, lost 0}. */
  public String line() {
    return "published "
        + published
        + ", stored "
        + stored
        + ", duplicates "
        + duplicates
        + ", lost "
        + lost;
  }
}
