package io.freshet.worker.connector.feed;

import io.freshet.worker.connector.ServerHints;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;

/**
 * What an XML feed says of how it wants to be read: RSS {@code <ttl>}, {@code <skipHours>} and
 * {@code <skipDays>}, the syndication module's {@code sy:updatePeriod} / {@code sy:updateFrequency}
 * (RSS 2.0, RDF, Atom), and its {@code atom:link} (or Atom {@code link}) with {@code rel="self"}
 * and {@code rel="hub"}. Only the channel's (or feed's) own children are read; values out of range
 * are ignored, never guessed.
 */
final class FeedHints {

  private static final Namespace SY =
      Namespace.getNamespace("http://purl.org/rss/1.0/modules/syndication/");

  private static final Namespace ATOM = Namespace.getNamespace("http://www.w3.org/2005/Atom");

  private static final Map<String, Duration> PERIODS =
      Map.of(
          "hourly", Duration.ofHours(1),
          "daily", Duration.ofDays(1),
          "weekly", Duration.ofDays(7),
          "monthly", Duration.ofDays(30),
          "yearly", Duration.ofDays(365));

  private static final Map<String, Integer> DAYS =
      Map.of(
          "monday", 1,
          "tuesday", 2,
          "wednesday", 3,
          "thursday", 4,
          "friday", 5,
          "saturday", 6,
          "sunday", 7);

  /** Longest {@code <ttl>} read (a year); a larger one is nonsense, not a hint. */
  private static final int MAX_TTL_MINUTES = 366 * 24 * 60;

  /** Most children of one skip element looked at. */
  private static final int MAX_SKIP_ENTRIES = 64;

  private FeedHints() {}

  static ServerHints of(Document document, URI base) {
    Element root = document.getRootElement();
    Element channel = channel(root);
    if (channel == null) {
      return ServerHints.NONE;
    }
    return new ServerHints(
        null,
        ttl(child(channel, "ttl", null)),
        updatePeriod(channel),
        hours(child(channel, "skipHours", null)),
        days(child(channel, "skipDays", null)),
        null,
        link(channel, "self", base),
        link(channel, "hub", base));
  }

  /** Takes the channel's {@code skipHours} and {@code skipDays} out of the document. */
  static void detachSkips(Document document) {
    Element channel = channel(document.getRootElement());
    if (channel != null) {
      channel.removeChildren("skipHours");
      channel.removeChildren("skipDays");
    }
  }

  private static Element channel(Element root) {
    return switch (root.getName()) {
      case "rss", "RDF" -> child(root, "channel", null);
      case "feed" -> root;
      default -> null;
    };
  }

  private static Integer ttl(Element ttl) {
    Long minutes = number(ttl);
    return minutes == null || minutes < 1 || minutes > MAX_TTL_MINUTES ? null : minutes.intValue();
  }

  private static Duration updatePeriod(Element channel) {
    Element period = child(channel, "updatePeriod", SY);
    Element frequency = child(channel, "updateFrequency", SY);
    if (period == null && frequency == null) {
      return null;
    }
    Duration base =
        period == null
            ? Duration.ofDays(1) // the module's default period
            : PERIODS.get(period.getTextTrim().toLowerCase(Locale.ROOT));
    Long times = frequency == null ? Long.valueOf(1) : number(frequency);
    if (base == null || times == null || times < 1 || times > 1_000_000) {
      return null;
    }
    return base.dividedBy(times);
  }

  private static SortedSet<Integer> hours(Element skipHours) {
    SortedSet<Integer> hours = new TreeSet<>();
    if (skipHours == null) {
      return hours;
    }
    int seen = 0;
    for (Element hour : skipHours.getChildren()) {
      if (++seen > MAX_SKIP_ENTRIES) {
        break;
      }
      Long h = hour.getName().equals("hour") ? number(hour) : null;
      if (h != null && h >= 0 && h <= 24) {
        hours.add((int) (h % 24)); // some feeds write 1-24, where 24 is midnight
      }
    }
    return hours.size() == 24 ? new TreeSet<>() : hours; // "never" is no hint
  }

  private static SortedSet<Integer> days(Element skipDays) {
    SortedSet<Integer> days = new TreeSet<>();
    if (skipDays == null) {
      return days;
    }
    int seen = 0;
    for (Element day : skipDays.getChildren()) {
      if (++seen > MAX_SKIP_ENTRIES) {
        break;
      }
      Integer d =
          day.getName().equals("day") ? DAYS.get(day.getTextTrim().toLowerCase(Locale.ROOT)) : null;
      if (d != null) {
        days.add(d);
      }
    }
    return days.size() == 7 ? new TreeSet<>() : days;
  }

  private static String link(Element channel, String rel, URI base) {
    int seen = 0;
    for (Element e : channel.getChildren("link", ATOM)) {
      if (++seen > MAX_SKIP_ENTRIES) {
        break;
      }
      if (rel.equals(e.getAttributeValue("rel")) && e.getAttributeValue("href") != null) {
        return resolve(base, e.getAttributeValue("href"));
      }
    }
    return null;
  }

  private static String resolve(URI base, String href) {
    String h = href.trim();
    if (h.isEmpty() || h.length() > 2_048) {
      return null;
    }
    try {
      return base == null ? h : base.resolve(h).toString();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Long number(Element e) {
    if (e == null) {
      return null;
    }
    String t = e.getTextTrim();
    if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(Character::isDigit)) {
      return null;
    }
    return Long.parseLong(t);
  }

  private static Element child(Element parent, String name, Namespace ns) {
    for (Element e : parent.getChildren()) {
      if (e.getName().equals(name) && (ns == null || ns.equals(e.getNamespace()))) {
        return e;
      }
    }
    return null;
  }
}
