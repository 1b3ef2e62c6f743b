package io.freshet.worker.kafka;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Documents built to exhaust a worker, each small on the wire or within the body cap. */
final class Hostile {

  private Hostile() {}

  /** An event repeating every second from a week ago, forever (237 bytes did 3.5 GB before). */
  static String secondlyCalendar() {
    String start =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now().minus(7, ChronoUnit.DAYS));
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\nBEGIN:VEVENT\r\n"
        + "UID:every-second@hostile\r\nDTSTAMP:"
        + start
        + "\r\nDTSTART:"
        + start
        + "\r\nRRULE:FREQ=SECONDLY\r\nSUMMARY:tick\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
  }

  static String rssItems(int n) {
    StringBuilder s =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel>"
                + "<title>t</title><link>https://feed.example/</link><description>d</description>");
    for (int i = 0; i < n; i++) {
      s.append("<item><title>")
          .append(i)
          .append("</title><guid>")
          .append(i)
          .append("</guid></item>");
    }
    return s.append("</channel></rss>").toString();
  }

  static String nestedJson(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  static String nestedHtml(int depth) {
    return "<html><body>" + "<div>".repeat(depth) + "x" + "</div>".repeat(depth) + "</body></html>";
  }
}
