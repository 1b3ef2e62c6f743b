package io.freshet.worker.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Realistic iCalendar documents, generated: the demo web's calendar and a calendar application's
 * export. Shared by the calendar benchmark and the test that the connector's items do not depend on
 * how much of a calendar ical4j builds.
 */
public final class Calendars {

  private static final DateTimeFormatter UTC =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private Calendars() {}

  /**
   * The demo web's calendar (local-stack's {@code Renderer}): {@code events} VEVENTs of UID,
   * DTSTAMP, DTSTART, DTEND, SUMMARY and DESCRIPTION, an hour apart from {@code now} on.
   */
  public static String demoWeb(Instant now, int events) {
    StringBuilder b = new StringBuilder(256 + 300 * events);
    b.append("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Freshet//Demo web//EN\r\n")
        .append("X-WR-CALNAME:Demo calendar s-42\r\n");
    for (int i = events - 1; i >= 0; i--) {
      Instant published = now.minus(Duration.ofMinutes(10L * (events - i)));
      Instant start = now.plus(Duration.ofHours(i + 1));
      b.append("BEGIN:VEVENT\r\nUID:s-42-item-")
          .append(i)
          .append("@demo.freshet\r\nDTSTAMP:")
          .append(UTC.format(published))
          .append("\r\nDTSTART:")
          .append(UTC.format(start))
          .append("\r\nDTEND:")
          .append(UTC.format(start.plus(Duration.ofMinutes(45))))
          .append("\r\nSUMMARY:Item ")
          .append(i + 1)
          .append(" of s-42\r\nDESCRIPTION:Demo content of s-42-item-")
          .append(i)
          .append(" version 3\\, replayed from trace event ")
          .append(i + 1)
          .append(" of its source (")
          .append(published)
          .append(")\r\nEND:VEVENT\r\n");
    }
    return b.append("END:VCALENDAR\r\n").toString();
  }

  /**
   * A calendar application's export (Google, Outlook): a VTIMEZONE, events in it (TZID on DTSTART
   * and DTEND) with CREATED, LAST-MODIFIED, SEQUENCE, STATUS, TRANSP, ORGANIZER, four ATTENDEEs, X-
   * properties, a folded DESCRIPTION and a VALARM; every tenth event weekly, every twenty-fifth all
   * day. {@code events} of them, a day apart around {@code now}.
   */
  public static String export(Instant now, int events) {
    StringBuilder b = new StringBuilder(1024 + 1600 * events);
    b.append("BEGIN:VCALENDAR\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n")
        .append("VERSION:2.0\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\n")
        .append("X-WR-CALNAME:Team calendar\r\nX-WR-TIMEZONE:Europe/Berlin\r\n")
        .append("BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nX-LIC-LOCATION:Europe/Berlin\r\n")
        .append("BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\n")
        .append("DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n")
        .append("END:DAYLIGHT\r\n")
        .append("BEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\n")
        .append("DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n")
        .append("END:STANDARD\r\nEND:VTIMEZONE\r\n");
    LocalDateTime first =
        LocalDateTime.ofInstant(now, BERLIN).withHour(9).withMinute(30).withSecond(0).withNano(0);
    for (int i = 0; i < events; i++) {
      LocalDateTime start = first.plusDays(i - events / 2).plusHours(i % 7);
      Instant created = now.minus(Duration.ofDays(40 + i));
      b.append("BEGIN:VEVENT\r\n");
      if (i % 25 == 7) {
        b.append("DTSTART;VALUE=DATE:")
            .append(start.toLocalDate().toString().replace("-", ""))
            .append("\r\nDTEND;VALUE=DATE:")
            .append(start.toLocalDate().plusDays(1).toString().replace("-", ""))
            .append("\r\n");
      } else {
        b.append("DTSTART;TZID=Europe/Berlin:")
            .append(LOCAL.format(start))
            .append("\r\nDTEND;TZID=Europe/Berlin:")
            .append(LOCAL.format(start.plusMinutes(30 + 15 * (i % 4))))
            .append("\r\n");
      }
      if (i % 10 == 3) {
        b.append("RRULE:FREQ=WEEKLY;BYDAY=")
            .append(start.getDayOfWeek().name(), 0, 2)
            .append(i % 20 == 3 ? ";COUNT=12" : "")
            .append("\r\n");
        if (i % 20 == 13) {
          b.append("EXDATE;TZID=Europe/Berlin:")
              .append(LOCAL.format(start.plusWeeks(2)))
              .append("\r\n");
        }
      }
      b.append("DTSTAMP:")
          .append(UTC.format(now.minusSeconds(17)))
          .append("\r\nORGANIZER;CN=Alex Example:mailto:alex.example@example.com\r\nUID:")
          .append(Integer.toHexString(0x5f3a1c00 + i * 7919))
          .append("a1b2c3d4e5f6g7h8i9@google.com\r\n");
      String[] people = {"alex.example", "sam.sample", "kim.test", "rooms-berlin-4"};
      for (int p = 0; p < people.length; p++) {
        b.append("ATTENDEE;CUTYPE=")
            .append(p == 3 ? "RESOURCE" : "INDIVIDUAL")
            .append(";ROLE=REQ-PARTICIPANT;PARTSTAT=")
            .append(p == 0 ? "ACCEPTED" : "NEEDS-ACTION")
            .append(";RSVP=\r\n ")
            .append(p == 0 ? "FALSE" : "TRUE")
            .append(";CN=")
            .append(people[p])
            .append("@example.com;X-NUM-GUESTS=0:mailto:")
            .append(people[p])
            .append("@example.com\r\n");
      }
      b.append("X-MICROSOFT-CDO-OWNERAPPTID:")
          .append(-1_500_000_000L + i * 104_729L)
          .append("\r\nCREATED:")
          .append(UTC.format(created))
          .append("\r\nDESCRIPTION:Agenda for meeting ")
          .append(i)
          .append(":\\n1. Notes from last time\\n2. Plans\\, risks and the budget\\n3. Any other")
          .append("\r\n  business\\nJoin: https://meet.example.com/abc-defg-")
          .append(i)
          .append("\r\nLAST-MODIFIED:")
          .append(UTC.format(created.plus(Duration.ofDays(3))))
          .append("\r\nLOCATION:Room ")
          .append(100 + i % 12)
          .append("\\, Berlin office\r\nSEQUENCE:")
          .append(i % 3)
          .append("\r\nSTATUS:CONFIRMED\r\nSUMMARY:Team meeting ")
          .append(i)
          .append("\r\nTRANSP:OPAQUE\r\nX-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC\r\n")
          .append("BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:This is an event reminder\r\n")
          .append("TRIGGER:-P0DT0H10M0S\r\nEND:VALARM\r\nEND:VEVENT\r\n");
    }
    return b.append("END:VCALENDAR\r\n").toString();
  }
}
