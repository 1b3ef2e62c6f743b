package io.freshet.worker.items;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class WebDatesTest {

  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // ISO-8601 as feeds write it
        "2026-02-16T09:57:56.488907+00:00 | 2026-02-16T09:57:56.488907Z", // six digits are micros
        "2026-02-16T09:57:56.4+00:00      | 2026-02-16T09:57:56.400Z",
        "2026-02-16T09:57:56.123456789Z   | 2026-02-16T09:57:56.123456789Z",
        "2026-02-17T17:36:36-0500         | 2026-02-17T22:36:36Z", // no colon in the offset
        "2026-02-17T17:36:36-05           | 2026-02-17T22:36:36Z",
        "2026-02-17T17:36:36+05:30        | 2026-02-17T12:06:36Z",
        "2026-02-17T17:36:36Z             | 2026-02-17T17:36:36Z",
        "2026-02-17t17:36:36z             | 2026-02-17T17:36:36Z",
        "2026-02-17 17:36:36              | 2026-02-17T17:36:36Z", // no zone: UTC
        "2026-02-17 17:36:36 +0100        | 2026-02-17T16:36:36Z",
        "2026-02-17T17:36                 | 2026-02-17T17:36:00Z",
        "2023-11-15                       | 2023-11-15T00:00:00Z", // an Atom updated with a date
        // only
        "20260217T173636Z                 | 2026-02-17T17:36:36Z",
        "2026-2-7T07:36:36Z               | 2026-02-07T07:36:36Z",
        "2026-02-17T24:00:00Z             | 2026-02-18T00:00:00Z",
        // RFC 822 / 1123 as feeds write it
        "Tue, 17 Feb 2026 17:36:36 GMT    | 2026-02-17T17:36:36Z",
        "Tue, 17 Feb 2026 17:36:36 +0000  | 2026-02-17T17:36:36Z",
        "Tue, 17 Feb 2026 17:36:36 -05:00 | 2026-02-17T22:36:36Z",
        "Tue, 17 Feb 2026 17:36:36 EST    | 2026-02-17T22:36:36Z",
        "Tue, 17 Feb 2026 17:36:36 PDT    | 2026-02-18T00:36:36Z",
        "Tue, 17 Feb 2026 17:36:36 Z      | 2026-02-17T17:36:36Z",
        "Tue, 17 Feb 26 17:36:36 GMT      | 2026-02-17T17:36:36Z", // two-digit year
        "17 Feb 2026 17:36 GMT            | 2026-02-17T17:36:00Z", // no weekday, no seconds
        "Tuesday, 17 February 2026 17:36:36 +0000 | 2026-02-17T17:36:36Z",
        "Tue, 7 Feb 2026 07:36:36 +0000   | 2026-02-07T07:36:36Z",
        "Tue,17 Feb 2026 17:36:36 +0000   | 2026-02-17T17:36:36Z",
        "Tue, 17 Sept 2026 17:36:36 +0000 | 2026-09-17T17:36:36Z",
        "Tue, 17 Feb 2026 17:36:36 +0000 (UTC) | 2026-02-17T17:36:36Z",
        "Tue, 17 Feb 2026 17:36:36 XYZ    | 2026-02-17T17:36:36Z", // unknown zone: UTC (RFC 2822)
        "17 Feb 2026                      | 2026-02-17T00:00:00Z",
        "Tue, 17 Feb 2026 17:36:36 GMT+0100 | 2026-02-17T16:36:36Z", // an offset after GMT
        "Tue, 17 Feb 2026 17:36:36 UTC-05:00 | 2026-02-17T22:36:36Z",
        "Tue, 17 Feb 2026 5:36:36 PM +0000 | 2026-02-17T17:36:36Z", // a 12-hour clock
        "Tue, 17 Feb 2026 12:05:00 AM UTC | 2026-02-17T00:05:00Z",
        "Tue, 17 Feb 2026 12:05:00 pm EST | 2026-02-17T17:05:00Z",
        "Tue, 17 Feb 2026 9:05 a.m. GMT   | 2026-02-17T09:05:00Z",
        "  Tue, 17 Feb 2026 17:36:36 GMT  | 2026-02-17T17:36:36Z",
        // broken forms of the real web
        "Tue Feb 17 17:36:36 UTC 2026     | 2026-02-17T17:36:36Z", // java.util.Date.toString()
        "Tue Feb 17 17:36:36 CET 2026     | 2026-02-17T16:36:36Z",
        "February 17, 2026                | 2026-02-17T00:00:00Z",
        "Feb 17, 2026 17:36:36 GMT        | 2026-02-17T17:36:36Z",
      })
  void readsTheDatesOfTheWeb(String text, String expected) {
    assertThat(WebDates.read(text, NOW))
        .isEqualTo(new WebDates.Reading(WebDates.Kind.DATE, Instant.parse(expected)));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "Mon, 01 Jan 0001 00:00:00 +0000", // Hugo's "no date"
        "0001-01-01T00:00:00Z",
        "1970-01-01T00:00:00Z", // an epoch zero
        "Fri, 31 Dec 9999 23:59:59 GMT",
        "2026-11-26T12:00:00Z", // two days ahead of now
      })
  void aPlaceholderIsNoDate(String text) {
    assertThat(WebDates.read(text, NOW))
        .isEqualTo(new WebDates.Reading(WebDates.Kind.IMPLAUSIBLE, null));
    assertThat(WebDates.parse(text, NOW)).isNull();
  }

  @ParameterizedTest(name = "[{0}]")
  @ValueSource(
      strings = {
        "",
        "   ",
        "yesterday",
        "2026-02-30T10:00:00Z", // no February 30th
        "2026-13-01",
        "Tue, 17 Foo 2026 17:36:36 GMT",
        "Tue, 17 Febtember 2026 17:36:36 GMT",
        "2026-02-17T25:00:00Z",
        "2026-02-17T17:36:36+99:00",
        "12345",
        "1771349796", // epoch seconds are the JSON connectors' to read, not a text date
      })
  void anythingElseIsUnreadable(String text) {
    assertThat(WebDates.read(text, NOW).kind()).isEqualTo(WebDates.Kind.UNREADABLE);
  }

  @ParameterizedTest
  @ValueSource(ints = {101, 10_000})
  void aTextTooLongToBeADateIsNotSearched(int length) {
    assertThat(WebDates.read("Tue, 17 Feb 2026 " + "1 ".repeat(length), NOW).kind())
        .isEqualTo(WebDates.Kind.UNREADABLE);
  }

  @org.junit.jupiter.api.Test
  void nullIsUnreadable() {
    assertThat(WebDates.read(null, NOW).kind()).isEqualTo(WebDates.Kind.UNREADABLE);
  }
}
