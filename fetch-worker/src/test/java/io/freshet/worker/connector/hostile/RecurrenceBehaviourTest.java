package io.freshet.worker.connector.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.FetchedItem;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.Requests;
import io.freshet.worker.testing.TestFetchPaths;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Period;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.component.VEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the bounded expansion gives for ordinary calendars: the same items, in the same order, as
 * ical4j's own {@code calculateRecurrenceSet} followed by the fetch's window and item limit (the
 * path before the bounds); a COUNT counted from DTSTART; EXDATE; the VEVENT cap; an endless rule
 * from long ago starting at the window.
 */
class RecurrenceBehaviourTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final Duration BACK = Duration.ofDays(30);
  private static final Duration AHEAD = Duration.ofDays(60);
  private static FeedServer server;

  private final FakeTime time = new FakeTime(NOW);
  private final HttpFetcher http = TestFetchPaths.fetcher(time, TestFetchPaths.largeBodySettings());
  private final SourceFetcher fetcher =
      TestFetchPaths.sourceFetcher(http, new ConnectorOptions(50, BACK, AHEAD, false), time);

  @BeforeAll
  static void start() {
    server = FeedServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @AfterEach
  void reset() {
    server.reset();
    http.close();
  }

  private FetchResult fetch(String body, Map<String, String> config) throws Exception {
    server.serve("/cal.ics", "text/calendar", body, null);
    Map<String, String> all = new HashMap<>(config);
    all.put("emit", "all");
    return fetcher.fetch(
        Requests.request(Connector.ical, server.url("/cal.ics"), NOW).setConfig(all).build(),
        false);
  }

  /** An item as compared: id, event time, end. */
  private record Seen(String id, Instant eventAt, String end) {}

  private static List<Seen> seen(FetchResult result) {
    List<Seen> out = new ArrayList<>();
    for (FetchedItem item : result.items()) {
      out.add(new Seen(item.itemId(), item.raw().eventAt(), item.raw().metadata().get("end")));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}, item_limit {1}")
  @CsvSource({
    "/hostile/ordinary-recurrences.ics, 0",
    "/hostile/ordinary-recurrences.ics, 7",
    "/hostile/ordinary-recurrences.ics, 50",
    "/calendars/town.ics, 0",
    "/calendars/town.ics, 3"
  })
  void ordinaryCalendarsGiveWhatIcal4jsRecurrenceSetGave(String resource, int limit)
      throws Exception {
    String body = resource(resource);
    FetchResult result = fetch(body, Map.of("item_limit", Integer.toString(limit)));
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    List<Seen> expected = ical4jRecurrenceSet(body, limit);
    assertThat(expected).isNotEmpty();
    assertThat(seen(result)).containsExactlyElementsOf(expected);
  }

  @Test
  void theOrdinaryCalendarCoversWhatItShould() throws Exception {
    List<Seen> items =
        seen(fetch(resource("/hostile/ordinary-recurrences.ics"), Map.of("item_limit", "0")));
    assertThat(items)
        .extracting(Seen::id)
        // COUNT counted from DTSTART: 1 Sep + 11 weeks = 17 Nov is the last
        .contains("count-from-september@2026-11-17T07:00:00Z")
        .doesNotContain("count-from-september@2026-11-24T07:00:00Z")
        // EXDATE, EXRULE
        .doesNotContain("weekly-byday@2026-11-25T18:00:00Z")
        .contains("weekly-byday@2026-11-27T18:00:00Z")
        .doesNotContain("weekdays-by-exrule@2026-11-28T08:00:00Z")
        .contains("weekdays-by-exrule@2026-11-27T08:00:00Z")
        // RDATE period and date
        .contains("rdates@2026-12-05T10:00:00Z", "rdates@2026-11-30T12:00:00Z")
        // a zone defined in the document, and one ical4j knows
        .contains("monthly-last-day@2026-11-30T18:00:00Z", "new-york-single")
        .contains("yearly-birthday@2026-12-03T00:00:00Z")
        // started before the window: dropped by the window, as before
        .doesNotContain("started-before-window");
    assertThat(items)
        .filteredOn(s -> s.id().equals("rdates@2026-12-05T10:00:00Z"))
        .extracting(Seen::end)
        .containsExactly("2026-12-05T11:30:00Z");
  }

  @Test
  void aDailyCountIsCountedFromDtstartAndAnExdateRemovesOne() throws Exception {
    // DTSTART five days ago at 09:00; today's occurrence is an hour old.
    String dtStart = HostileDocuments.utc(Instant.parse("2026-11-17T09:00:00Z"));
    String daily =
        HostileDocuments.calendar(
            HostileDocuments.event("daily", dtStart, "RRULE:FREQ=DAILY;COUNT=10"));
    Map<String, String> fromToday = Map.of("window_days", "1", "window_ahead_days", "30");

    // 17..26 Nov: of the ten, the five from today on — not ten from today on.
    assertThat(seen(fetch(daily, fromToday)))
        .extracting(Seen::eventAt)
        .containsExactly(
            Instant.parse("2026-11-22T09:00:00Z"),
            Instant.parse("2026-11-23T09:00:00Z"),
            Instant.parse("2026-11-24T09:00:00Z"),
            Instant.parse("2026-11-25T09:00:00Z"),
            Instant.parse("2026-11-26T09:00:00Z"));
    // With thirty days back, all ten.
    assertThat(seen(fetch(daily, Map.of("window_ahead_days", "30")))).hasSize(10);

    String excepted =
        HostileDocuments.calendar(
            HostileDocuments.event(
                "daily", dtStart, "RRULE:FREQ=DAILY;COUNT=10", "EXDATE:20261124T090000Z"));
    assertThat(seen(fetch(excepted, fromToday)))
        .extracting(Seen::id)
        .containsExactly(
            "daily@2026-11-22T09:00:00Z",
            "daily@2026-11-23T09:00:00Z",
            "daily@2026-11-25T09:00:00Z",
            "daily@2026-11-26T09:00:00Z");
  }

  @Test
  void eventsInFloatingTimeArePlacedAsIfInUtc() throws Exception {
    // ical4j's calculateRecurrenceSet fails on these (a floating time against a zoned window),
    // so they used to give no items.
    String doc =
        HostileDocuments.calendar(
            HostileDocuments.event("single", "20261128T150000"),
            HostileDocuments.event("listed", "20261128T150000", "RDATE:20261129T150000"),
            HostileDocuments.event("weekly", "20261128T150000", "RRULE:FREQ=WEEKLY;COUNT=4"));
    assertThat(seen(fetch(doc, Map.of())))
        .extracting(Seen::id)
        .containsExactly(
            "single",
            "listed@2026-11-28T15:00:00Z",
            "weekly@2026-11-28T15:00:00Z",
            "listed@2026-11-29T15:00:00Z",
            "weekly@2026-12-05T15:00:00Z",
            "weekly@2026-12-12T15:00:00Z",
            "weekly@2026-12-19T15:00:00Z");
  }

  @Test
  void anEndlessRuleFromLongAgoStartsAtTheWindow() throws Exception {
    // ical4j alone loops for ever on this one (its int period multiplier overflows)
    List<Seen> items = seen(fetch(HostileDocuments.resource("secondly-from-1970.ics"), Map.of()));
    assertThat(items).hasSize(50);
    Instant windowStart = NOW.minus(BACK);
    for (int i = 0; i < items.size(); i++) {
      assertThat(items.get(i).eventAt()).isEqualTo(windowStart.plusSeconds(i));
    }
  }

  @Test
  void aCountFrom1970EndsWithNothingInTheWindow() throws Exception {
    // Counted from DTSTART, its occurrences looked at run out in January 1970.
    FetchResult result = fetch(HostileDocuments.resource("secondly-count-1970.ics"), Map.of());
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(result.items()).isEmpty();
  }

  @Test
  void eventsPastTheCapAreNotRead() throws Exception {
    // 20,000 events ten days ahead, then 80,000 tomorrow: were the later ones read, they would
    // be the first items.
    StringBuilder doc =
        new StringBuilder("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Freshet//Test//EN\r\n");
    for (int i = 0; i < 100_000; i++) {
      Instant at = NOW.plus(Duration.ofDays(i < 20_000 ? 10 : 1)).plusSeconds(i);
      doc.append(HostileDocuments.event("e" + i, HostileDocuments.utc(at)));
    }
    doc.append("END:VCALENDAR\r\n");
    FetchResult result = fetch(doc.toString(), Map.of());
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(seen(result))
        .hasSize(50)
        .allSatisfy(s -> assertThat(Integer.parseInt(s.id().substring(1))).isLessThan(20_000));
  }

  /** The items the path gave before the bounds: ical4j's recurrence set, windowed and limited. */
  private static List<Seen> ical4jRecurrenceSet(String body, int limit) throws Exception {
    Calendar calendar = new CalendarBuilder().build(new StringReader(body));
    Instant from = NOW.minus(BACK);
    Instant to = NOW.plus(AHEAD);
    Period<ZonedDateTime> window =
        new Period<>(from.atZone(ZoneOffset.UTC), to.atZone(ZoneOffset.UTC));
    List<Seen> all = new ArrayList<>();
    for (VEvent event : calendar.<VEvent>getComponents(Component.VEVENT)) {
      Set<Period<Temporal>> periods;
      try {
        periods = event.calculateRecurrenceSet(window);
      } catch (RuntimeException unexpandable) {
        continue;
      }
      String uid = event.getProperty(Property.UID).map(Property::getValue).orElse(null);
      boolean recurring =
          event.getProperty(Property.RRULE).isPresent()
              || event.getProperty(Property.RDATE).isPresent();
      for (Period<Temporal> p : periods) {
        Instant start = instant(p.getStart());
        Instant end = p.getEnd() == null ? null : instant(p.getEnd());
        if (start == null || start.isBefore(from) || start.isAfter(to)) {
          continue;
        }
        all.add(
            new Seen(
                recurring ? uid + "@" + start : uid,
                start,
                end == null || end.equals(start) ? null : end.toString()));
      }
    }
    all.sort(Comparator.comparing(Seen::eventAt)); // stable: events in document order
    List<Seen> limited = limit > 0 && all.size() > limit ? all.subList(0, limit) : all;
    Set<String> ids = new HashSet<>();
    return limited.stream().filter(s -> ids.add(s.id())).toList();
  }

  private static Instant instant(Temporal t) {
    return switch (t) {
      case Instant i -> i;
      case ZonedDateTime z -> z.toInstant();
      case OffsetDateTime o -> o.toInstant();
      case LocalDateTime floating -> floating.toInstant(ZoneOffset.UTC);
      case LocalDate day -> day.atStartOfDay(ZoneOffset.UTC).toInstant();
      default -> null;
    };
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = RecurrenceBehaviourTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
