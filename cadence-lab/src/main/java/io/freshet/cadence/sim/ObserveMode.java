package io.freshet.cadence.sim;

/** What a simulated fetch can see of a source. */
public enum ObserveMode {
  /**
   * A feed: the fetch lists the source's latest {@code feedSize} items with their publication times
   * (and signal types, event dates); more new items than that since the previous fetch are lost.
   */
  FEED,
  /** A page: the fetch only tells whether the source changed since the previous fetch. */
  PAGE
}
