package io.freshet.worker.connector.ical;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.worker.bench.Calendars;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.items.RawItem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Building only what the connector reads gives the items the full build gave, for every calendar
 * the tests have and for realistic ones; and a broken line the connector never reads no longer
 * fails the document, while one it reads still does.
 */
class ReadEventsHandlerTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  private static final List<ConnectorOptions> OPTIONS =
      List.of(
          new ConnectorOptions(0, null, null, false),
          new ConnectorOptions(50, Duration.ofDays(30), Duration.ofDays(60), false),
          new ConnectorOptions(5, null, Duration.ofDays(7), false));

  static Stream<Arguments> calendars() throws IOException {
    List<Arguments> all = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/test/resources"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".ics")).sorted().toList()) {
        all.add(Arguments.of(f.toString(), Files.readString(f, StandardCharsets.UTF_8)));
      }
    }
    all.add(Arguments.of("demo web", Calendars.demoWeb(NOW, 20)));
    all.add(Arguments.of("export", Calendars.export(NOW, 100)));
    return all.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calendars")
  void sameItemsAsTheFullBuild(String name, String body) {
    assertThat(body).contains("BEGIN:VEVENT");
    for (ConnectorOptions options : OPTIONS) {
      assertThat(outcome(() -> IcalParses.read(body, options, NOW)))
          .as("%s with %s", name, options)
          .isEqualTo(outcome(() -> IcalParses.full(body, options, NOW)));
    }
  }

  @Test
  void theRealisticCalendarsGiveItemsAtAll() throws Exception {
    ConnectorOptions unlimited = OPTIONS.getFirst();
    assertThat(IcalParses.read(Calendars.demoWeb(NOW, 20), unlimited, NOW)).hasSize(20);
    List<RawItem> export = IcalParses.read(Calendars.export(NOW, 100), unlimited, NOW);
    assertThat(export.size()).isGreaterThan(100); // weekly ones expanded
    assertThat(export)
        .anySatisfy(
            i -> {
              assertThat(i.metadata()).containsEntry("location", "Room 100, Berlin office");
              assertThat(i.publishedAt()).isNotNull();
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unreadBrokenParts")
  void brokenLinesTheConnectorNeverReadsNoLongerFailTheDocument(
      String broken, String beforeEvent, String inEvent) throws Exception {
    String body =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n"
            + beforeEvent
            + "BEGIN:VEVENT\r\nUID:ev-1\r\nDTSTAMP:20261101T100000Z\r\n"
            + "DTSTART:20261125T180000Z\r\nDTEND:20261125T200000Z\r\n"
            + inEvent
            + "SUMMARY:Town hall\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    ConnectorOptions unlimited = OPTIONS.getFirst();

    assertThat(outcome(() -> IcalParses.full(body, unlimited, NOW))).startsWith("failed PARSE");
    List<RawItem> items = IcalParses.read(body, unlimited, NOW);

    assertThat(items).hasSize(1);
    assertThat(items.getFirst().sourceId()).isEqualTo("ev-1");
    assertThat(items.getFirst().title()).isEqualTo("Town hall");
    assertThat(items.getFirst().eventAt()).isEqualTo(Instant.parse("2026-11-25T18:00:00Z"));
  }

  static Stream<Arguments> unreadBrokenParts() {
    return Stream.of(
        Arguments.of(
            "a VTODO's DUE", "BEGIN:VTODO\r\nUID:t\r\nDUE:not-a-date\r\nEND:VTODO\r\n", ""),
        Arguments.of("CREATED", "", "CREATED:yesterday\r\n"),
        Arguments.of("GEO", "", "GEO:the town hall\r\n"),
        Arguments.of("RECURRENCE-ID", "", "RECURRENCE-ID:the first one\r\n"),
        Arguments.of("ATTENDEE", "", "ATTENDEE;CN=Sam:mailto:sam smith@example.com\r\n"),
        Arguments.of(
            "a VALARM's TRIGGER",
            "",
            "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:soon\r\nEND:VALARM\r\n"),
        Arguments.of("the calendar's own", "REFRESH-INTERVAL;VALUE=DURATION:weekly\r\n", ""));
  }

  @Test
  void brokenLinesTheConnectorReadsStillFailTheDocument() {
    for (String line :
        List.of("LAST-MODIFIED:yesterday", "DTSTAMP:now", "DTEND:later", "RDATE:soon")) {
      String body =
          "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:ev-1\r\n"
              + "DTSTART:20261125T180000Z\r\n"
              + line
              + "\r\nSUMMARY:Town hall\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
      assertThat(outcome(() -> IcalParses.read(body, OPTIONS.getFirst(), NOW)))
          .as(line)
          .startsWith("failed PARSE")
          .isEqualTo(outcome(() -> IcalParses.full(body, OPTIONS.getFirst(), NOW)));
    }
  }

  @Test
  void componentsNestedTooDeepStillFailEvenWhereSkipped() {
    String body =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
            + "BEGIN:VTODO\r\n".repeat(50)
            + "END:VTODO\r\n".repeat(50)
            + "BEGIN:VEVENT\r\nUID:ev-1\r\nDTSTART:20261125T180000Z\r\nEND:VEVENT\r\n"
            + "END:VCALENDAR\r\n";
    assertThat(outcome(() -> IcalParses.read(body, OPTIONS.getFirst(), NOW)))
        .startsWith("failed PARSE")
        .isEqualTo(outcome(() -> IcalParses.full(body, OPTIONS.getFirst(), NOW)));
  }

  private interface Parse {
    List<RawItem> run() throws FetchFailure;
  }

  /** The items, or how the parse failed: so the two builds' outcomes compare as one value. */
  private static String outcome(Parse parse) {
    try {
      return parse.run().toString();
    } catch (FetchFailure f) {
      return "failed " + f.kind() + ": " + f.getMessage();
    }
  }
}
