package io.freshet.stack.demoweb;

/** The kinds of demo source, one per document format the fetch-worker's connectors read. */
public enum Kind {
  RSS("feed", "rss", "application/rss+xml; charset=utf-8"),
  ATOM("feed", "atom", "application/atom+xml; charset=utf-8"),
  JSON_FEED("feed", "jsonfeed", "application/feed+json; charset=utf-8"),
  ICAL("ical", "ical", "text/calendar; charset=utf-8"),
  JSON_API("json", "api", "application/json; charset=utf-8"),
  HTML("html", "page", "text/html; charset=utf-8");

  private final String connector;
  private final String pathSegment;
  private final String contentType;

  Kind(String connector, String pathSegment, String contentType) {
    this.connector = connector;
    this.pathSegment = pathSegment;
    this.contentType = contentType;
  }

  /** The {@code connector} value of a Freshet source reading this kind. */
  public String connector() {
    return connector;
  }

  /** The first path segment of this kind's URLs. */
  public String pathSegment() {
    return pathSegment;
  }

  public String contentType() {
    return contentType;
  }

  /** Whether each trace event is a new item (feeds, calendars, APIs) or a new page version. */
  public boolean itemPerEvent() {
    return this != HTML;
  }

  /** The kind whose URLs start with {@code segment}, or null. */
  public static Kind ofPathSegment(String segment) {
    for (Kind k : values()) {
      if (k.pathSegment.equals(segment)) {
        return k;
      }
    }
    return null;
  }
}
