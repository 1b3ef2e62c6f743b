package io.freshet.stack.demoweb;

/**
 * One version of one item as the demo web publishes it: for feeds, calendars and APIs each trace
 * event is a new item (version 1); for pages each event is a new version of the page's one item.
 *
 * @param sourceId the demo source
 * @param itemId the item's id as its document states it (guid, id, uid; the page URL's id)
 * @param version 1-based for items; for pages the number of trace changes it includes (0 = the
 *     version before the first change)
 * @param index the trace event index this version comes from (-1 for a page's initial version)
 * @param publishedTrace trace time of publication, epoch seconds
 */
public record ItemVersion(
    String sourceId, String itemId, int version, int index, long publishedTrace) {

  /** A key unique per source, item and version. */
  public String key() {
    return sourceId + '|' + itemId + '|' + version;
  }
}
