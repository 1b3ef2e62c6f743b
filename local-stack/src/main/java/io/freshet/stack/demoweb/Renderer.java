package io.freshet.stack.demoweb;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders a source's document from the versions it shows. Deterministic: the same versions give the
 * same bytes, so an unchanged item hashes the same on every fetch. Dates are wall times (see {@link
 * ScaledClock}).
 */
final class Renderer {

  /** What an Atom {@code <id>} puts before the demo's item (and feed) id: a URN, as Atom asks. */
  static final String ATOM_ID_PREFIX = DemoHub.ATOM_ID_PREFIX;

  private static final DateTimeFormatter ICAL_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /** How far (trace time) after its publication a calendar event takes place. */
  static final Duration EVENT_LEAD = Duration.ofDays(7);

  /** How long (trace time) a calendar event lasts. */
  static final Duration EVENT_LENGTH = Duration.ofHours(2);

  private final ScaledClock clock;
  private final JsonMapper json;

  Renderer(ScaledClock clock, JsonMapper json) {
    this.clock = clock;
    this.json = json;
  }

  /**
   * @param baseUrl scheme, host and port the client used, e.g. {@code http://127.0.1.7:8090}
   * @param nextSyncToken for {@link Kind#JSON_API}: the token of the next read
   */
  String render(DemoSource s, List<ItemVersion> shown, String baseUrl, int nextSyncToken) {
    String self = baseUrl + s.path();
    return switch (s.kind()) {
      case RSS -> rss(s, shown, self);
      case ATOM -> atom(s, shown, self);
      case JSON_FEED -> jsonFeed(s, shown, self);
      case ICAL -> ical(s, shown);
      case JSON_API -> jsonApi(shown, self, nextSyncToken);
      case HTML -> html(s, shown.getFirst());
    };
  }

  static String title(ItemVersion v) {
    return "Item " + (v.index() + 1) + " of " + v.sourceId();
  }

  static String body(ItemVersion v) {
    return "Demo content of "
        + v.itemId()
        + " version "
        + v.version()
        + ", replayed from trace event "
        + (v.index() + 1)
        + " of its source ("
        + Instant.ofEpochSecond(v.publishedTrace())
        + " in the trace).";
  }

  private Instant published(ItemVersion v) {
    return clock.toWall(v.publishedTrace());
  }

  private String rss(DemoSource s, List<ItemVersion> shown, String self) {
    StringBuilder b = new StringBuilder(512 + 400 * shown.size());
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>")
        .append("<title>Demo feed ")
        .append(s.id())
        .append("</title><link>")
        .append(xml(self))
        .append("</link><description>Replays trace ")
        .append(s.traceId())
        .append("</description>");
    for (ItemVersion v : shown.reversed()) {
      b.append("<item><guid isPermaLink=\"false\">")
          .append(v.itemId())
          .append("</guid><title>")
          .append(xml(title(v)))
          .append("</title><link>")
          .append(xml(self + "/" + v.itemId()))
          .append("</link><description>")
          .append(xml(body(v)))
          .append("</description><pubDate>")
          .append(
              DateTimeFormatter.RFC_1123_DATE_TIME.format(published(v).atOffset(ZoneOffset.UTC)))
          .append("</pubDate></item>");
    }
    return b.append("</channel></rss>\n").toString();
  }

  private String atom(DemoSource s, List<ItemVersion> shown, String self) {
    StringBuilder b = new StringBuilder(512 + 400 * shown.size());
    Instant updated = shown.isEmpty() ? clock.origin() : published(shown.getLast());
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Demo feed ")
        .append(s.id())
        .append("</title><id>")
        .append(ATOM_ID_PREFIX)
        .append(s.id())
        .append("</id><updated>")
        .append(updated)
        .append("</updated><link rel=\"self\" href=\"")
        .append(xml(self))
        .append("\"/>");
    for (ItemVersion v : shown.reversed()) {
      b.append("<entry><id>")
          .append(ATOM_ID_PREFIX)
          .append(v.itemId())
          .append("</id><title>")
          .append(xml(title(v)))
          .append("</title><link href=\"")
          .append(xml(self + "/" + v.itemId()))
          .append("\"/><published>")
          .append(published(v))
          .append("</published><updated>")
          .append(published(v))
          .append("</updated><summary>")
          .append(xml(body(v)))
          .append("</summary></entry>");
    }
    return b.append("</feed>\n").toString();
  }

  private String jsonFeed(DemoSource s, List<ItemVersion> shown, String self) {
    ObjectNode root = json.createObjectNode();
    root.put("version", "https://jsonfeed.org/version/1.1");
    root.put("title", "Demo feed " + s.id());
    root.put("feed_url", self);
    ArrayNode items = root.putArray("items");
    for (ItemVersion v : shown.reversed()) {
      ObjectNode i = items.addObject();
      i.put("id", v.itemId());
      i.put("url", self + "/" + v.itemId());
      i.put("title", title(v));
      i.put("content_text", body(v));
      i.put("date_published", published(v).toString());
    }
    return json.writeValueAsString(root);
  }

  /** When (wall time) the calendar event a version is listed as ends. */
  static Instant eventEnd(ScaledClock clock, ItemVersion v) {
    return clock.toWall(v.publishedTrace() + EVENT_LEAD.toSeconds() + EVENT_LENGTH.toSeconds());
  }

  private String ical(DemoSource s, List<ItemVersion> shown) {
    StringBuilder b = new StringBuilder(256 + 300 * shown.size());
    b.append("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Freshet//Demo web//EN\r\n")
        .append("X-WR-CALNAME:Demo calendar ")
        .append(s.id())
        .append("\r\n");
    for (ItemVersion v : shown.reversed()) {
      Instant start = clock.toWall(v.publishedTrace() + EVENT_LEAD.toSeconds());
      Instant end = eventEnd(clock, v);
      b.append("BEGIN:VEVENT\r\nUID:")
          .append(v.itemId())
          .append("@demo.freshet\r\nDTSTAMP:")
          .append(ICAL_TIME.format(published(v)))
          .append("\r\nDTSTART:")
          .append(ICAL_TIME.format(start))
          .append("\r\nDTEND:")
          .append(ICAL_TIME.format(end))
          .append("\r\nSUMMARY:")
          .append(ical(title(v)))
          .append("\r\nDESCRIPTION:")
          .append(ical(body(v)))
          .append("\r\nEND:VEVENT\r\n");
    }
    return b.append("END:VCALENDAR\r\n").toString();
  }

  private String jsonApi(List<ItemVersion> shown, String self, int nextSyncToken) {
    ObjectNode root = json.createObjectNode();
    ArrayNode items = root.putArray("items");
    for (ItemVersion v : shown) {
      ObjectNode i = items.addObject();
      i.put("id", v.itemId());
      i.put("title", title(v));
      i.put("body", body(v));
      i.put("url", self + "/" + v.itemId());
      i.put("published_at", published(v).toString());
    }
    root.put("next_sync_token", Integer.toString(nextSyncToken));
    return json.writeValueAsString(root);
  }

  private String html(DemoSource s, ItemVersion v) {
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Policy "
        + s.id()
        + "</title></head><body><header>Demo policy pages</header><main><h1>Policy "
        + s.id()
        + "</h1><p>"
        + xml(body(v))
        + "</p><p>This page changes whenever trace "
        + s.traceId()
        + " recorded a change.</p></main></body></html>\n";
  }

  static String xml(String text) {
    StringBuilder b = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static String ical(String text) {
    return text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;");
  }
}
