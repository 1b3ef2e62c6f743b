package io.freshet.sink.activity;

/** What storing one {@code ContentFetched} record found, as the activity log counts it. */
public enum Novelty {
  /** The first version of an item: a new row. */
  NEW,
  /** A new hash of a known item: a new row linked to the previous version. */
  CHANGED,
  /** The version was stored already (an earlier request, a repeat in the batch). */
  DUPLICATE;

  String column() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
