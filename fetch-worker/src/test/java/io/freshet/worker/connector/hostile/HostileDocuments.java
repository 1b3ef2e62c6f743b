package io.freshet.worker.connector.hostile;

import io.freshet.schemas.avro.Connector;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Documents written to make a fetch-worker spend without bound: endless and huge recurrences, too
 * many events or items, deep nesting. Shared by {@link HostileDocumentsTest} (in-process, parse
 * allocation measured) and {@link HostileDocumentsHeapIT} (a child JVM with a small heap). Dates
 * are relative to {@code now} where the case needs it.
 */
final class HostileDocuments {

  /**
   * One hostile document.
   *
   * @param name short name, printed in the table
   * @param connector the connector that reads it
   * @param contentType served as
   * @param body the document
   * @param config the request's config
   * @param outcomes acceptable outcomes: {@code ok}, or {@code failed/<error_kind>}
   * @param metered whether the parser checks the budget as it goes, so that what the parse
   *     allocates stays near the budget; Rome builds a whole feed in one call, checked only after
   */
  record Case(
      String name,
      Connector connector,
      String contentType,
      String body,
      Map<String, String> config,
      Set<String> outcomes,
      boolean metered) {

    @Override
    public String toString() {
      return name;
    }
  }

  static final String OK = "ok";
  static final String BUDGET = "failed/budget_exceeded";
  static final String PARSE = "failed/parse";

  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private HostileDocuments() {}

  static List<Case> all(Instant now) {
    String weekAgo = UTC.format(now.minus(Duration.ofDays(7)));
    return List.of(
        ical(
            "ical-secondly-endless",
            calendar(event("endless", weekAgo, "RRULE:FREQ=SECONDLY")),
            Set.of(OK)),
        ical("ical-secondly-count-1970", resource("secondly-count-1970.ics"), Set.of(OK)),
        ical(
            "ical-minutely-until-2099",
            calendar(event("minutely", weekAgo, "RRULE:FREQ=MINUTELY;UNTIL=20991231T000000Z")),
            Set.of(OK)),
        ical("ical-secondly-from-1970", resource("secondly-from-1970.ics"), Set.of(OK)),
        ical("ical-vtimezone-secondly", resource("vtimezone-secondly.ics"), Set.of(OK)),
        ical("ical-by-expansion", resource("by-expansion.ics"), Set.of(OK)),
        ical("ical-100k-events", manyEvents(100_000, now, null), Set.of(OK)),
        ical("ical-5k-timezones", manyZones(5_000, now), Set.of(OK)),
        ical(
            "ical-nested-100k",
            calendar("BEGIN:VEVENT\r\n".repeat(100_000) + "END:VEVENT\r\n".repeat(100_000)),
            Set.of(PARSE)),
        // ok here, on some 600 MiB of the 1 GiB budget in 2 s; a slower machine may run out of
        // the budget's 5 s of CPU first
        ical(
            "ical-100k-secondly-events",
            manyEvents(100_000, now, "RRULE:FREQ=SECONDLY"),
            Set.of(OK, BUDGET)),
        new Case(
            "feed-50k-items",
            Connector.feed,
            "application/rss+xml",
            rss(50_000),
            Map.of(),
            Set.of(BUDGET),
            false),
        new Case(
            "feed-json-50k-items",
            Connector.feed,
            "application/feed+json",
            jsonFeed(50_000),
            Map.of(),
            Set.of(OK),
            true),
        new Case(
            "json-50k-items",
            Connector.json,
            "application/json",
            jsonApi(50_000),
            Map.of(),
            Set.of(OK),
            true),
        new Case(
            "feed-xml-nested-100k",
            Connector.feed,
            "application/rss+xml",
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>"
                + "<x>".repeat(100_000)
                + "</x>".repeat(100_000)
                + "</channel></rss>",
            Map.of(),
            Set.of(PARSE),
            true),
        new Case(
            "json-nested-100k",
            Connector.json,
            "application/json",
            "[".repeat(100_000) + "]".repeat(100_000),
            Map.of(),
            Set.of(PARSE),
            true),
        new Case(
            "html-nested-100k",
            Connector.html,
            "text/html",
            nestedDivs(100_000),
            Map.of(),
            Set.of(OK),
            true),
        new Case(
            "html-nested-100k-selector",
            Connector.html,
            "text/html",
            nestedDivs(100_000),
            Map.of("selector", "div"),
            Set.of(OK),
            true));
  }

  private static Case ical(String name, String body, Set<String> outcomes) {
    return new Case(name, Connector.ical, "text/calendar", body, Map.of(), outcomes, true);
  }

  static String calendar(String... events) {
    StringBuilder out =
        new StringBuilder("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Freshet//Hostile//EN\r\n");
    for (String e : events) {
      out.append(e);
    }
    return out.append("END:VCALENDAR\r\n").toString();
  }

  static String event(String uid, String dtStart, String... lines) {
    StringBuilder out =
        new StringBuilder("BEGIN:VEVENT\r\nUID:")
            .append(uid)
            .append("\r\nDTSTAMP:20261101T100000Z\r\nDTSTART:")
            .append(dtStart)
            .append("\r\n");
    for (String line : lines) {
      out.append(line).append("\r\n");
    }
    return out.append("SUMMARY:").append(uid).append("\r\nEND:VEVENT\r\n").toString();
  }

  static String utc(Instant t) {
    return UTC.format(t);
  }

  /** {@code n} small events spread over the coming 50 days, each with {@code rule} if given. */
  static String manyEvents(int n, Instant now, String rule) {
    StringBuilder out =
        new StringBuilder(n * 140)
            .append("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Freshet//Hostile//EN\r\n");
    for (int i = 0; i < n; i++) {
      Instant start = now.plus(Duration.ofDays(i % 50)).plusSeconds(i);
      out.append(rule == null ? event("e" + i, utc(start)) : event("e" + i, utc(start), rule));
    }
    return out.append("END:VCALENDAR\r\n").toString();
  }

  /**
   * {@code n} VTIMEZONEs (each with a daylight-saving rule, as real ones have) and one event in the
   * first: ical4j registers every zone under an id from a pool shared by the JVM.
   */
  static String manyZones(int n, Instant now) {
    StringBuilder out =
        new StringBuilder(n * 400)
            .append("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Freshet//Hostile//EN\r\n");
    for (int i = 0; i < n; i++) {
      out.append("BEGIN:VTIMEZONE\r\nTZID:Zone/")
          .append(i)
          .append(
              "\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
                  + "DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n"
                  + "END:DAYLIGHT\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\n"
                  + "TZOFFSETTO:+0100\r\nDTSTART:19701025T030000\r\n"
                  + "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\n"
                  + "END:VTIMEZONE\r\n");
    }
    String local =
        java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")
            .format(now.plus(Duration.ofDays(3)).atZone(ZoneOffset.UTC));
    out.append("BEGIN:VEVENT\r\nUID:zoned\r\nDTSTAMP:20261101T100000Z\r\nDTSTART;TZID=Zone/0:")
        .append(local)
        .append("\r\nSUMMARY:zoned\r\nEND:VEVENT\r\n");
    return out.append("END:VCALENDAR\r\n").toString();
  }

  static String rss(int n) {
    StringBuilder out =
        new StringBuilder(n * 250)
            .append(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel>"
                    + "<title>t</title><link>https://feed.example/</link>"
                    + "<description>d</description>");
    for (int i = 0; i < n; i++) {
      out.append("<item><title>Item ")
          .append(i)
          .append("</title><guid>g")
          .append(i)
          .append("</guid><link>https://feed.example/")
          .append(i)
          .append("</link><description>Body of item ")
          .append(i)
          .append("</description><pubDate>Sat, 21 Nov 2026 09:00:00 GMT</pubDate></item>");
    }
    return out.append("</channel></rss>").toString();
  }

  static String jsonFeed(int n) {
    StringBuilder out =
        new StringBuilder(n * 150)
            .append(
                "{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"t\",\"items\":[");
    for (int i = 0; i < n; i++) {
      out.append(i == 0 ? "" : ",")
          .append("{\"id\":\"g")
          .append(i)
          .append("\",\"url\":\"https://feed.example/")
          .append(i)
          .append("\",\"title\":\"Item ")
          .append(i)
          .append("\",\"content_text\":\"Body of item ")
          .append(i)
          .append("\",\"date_published\":\"2026-11-21T09:00:00Z\"}");
    }
    return out.append("]}").toString();
  }

  static String jsonApi(int n) {
    StringBuilder out = new StringBuilder(n * 130).append("{\"items\":[");
    for (int i = 0; i < n; i++) {
      out.append(i == 0 ? "" : ",")
          .append("{\"id\":\"g")
          .append(i)
          .append("\",\"url\":\"https://api.example/")
          .append(i)
          .append("\",\"title\":\"Item ")
          .append(i)
          .append("\",\"body\":\"Body of item ")
          .append(i)
          .append("\",\"published_at\":\"2026-11-21T09:00:00Z\"}");
    }
    return out.append("]}").toString();
  }

  static String nestedDivs(int depth) {
    return "<!doctype html><html><head><title>deep</title></head><body>"
        + "<div>".repeat(depth)
        + "<a href=\"/x\">deep</a>"
        + "</div>".repeat(depth)
        + "</body></html>";
  }

  static String resource(String name) {
    try (InputStream in = HostileDocuments.class.getResourceAsStream("/hostile/" + name)) {
      if (in == null) {
        throw new IllegalStateException("no test resource /hostile/" + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
