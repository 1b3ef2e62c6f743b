package io.freshet.worker.connector.feed;

import io.freshet.worker.items.WebDates;
import java.time.Instant;
import java.util.List;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;

/**
 * An XML feed's entry dates as written: the entry elements of RSS 0.9x/2.0 ({@code channel/item}),
 * RDF/RSS 1.0 ({@code item} beside {@code channel}) and Atom ({@code entry}), and each entry's
 * first date element that {@link WebDates} reads (its name in any case): {@code pubDate}, {@code
 * published}, {@code issued}, {@code dc:date}, {@code updated}, {@code modified}, in that order.
 */
final class RawDates {

  private static final Namespace DC = Namespace.getNamespace("http://purl.org/dc/elements/1.1/");

  private static final List<String> DATE_ELEMENTS =
      List.of("pubDate", "published", "issued", "date", "updated", "modified");

  private RawDates() {}

  /** The entry elements in document order (empty for a document that is no known feed). */
  static List<Element> entries(Document document) {
    Element root = document.getRootElement();
    return switch (root.getName()) {
      case "rss" -> {
        Element channel = child(root, "channel");
        yield channel == null ? List.of() : children(channel, "item");
      }
      case "RDF" -> children(root, "item");
      case "feed" -> children(root, "entry");
      default -> List.of();
    };
  }

  /** The entry's publication date as written, or null when none reads as one. */
  static Instant published(Element entry) {
    for (String name : DATE_ELEMENTS) {
      for (Element e : entry.getChildren()) {
        // any case: some generators write <pubdate>
        if (e.getName().equalsIgnoreCase(name)
            && (!name.equals("date") || DC.equals(e.getNamespace()))) {
          Instant at = WebDates.instant(e.getTextTrim());
          if (at != null && !at.isBefore(WebDates.EARLIEST)) { // 0001-01-01 means "no date"
            return at;
          }
        }
      }
    }
    return null;
  }

  /** Local names of the entry dates Rome reads (RSS, Atom 0.3 and 1.0; {@code date} in DC only). */
  private static final java.util.Set<String> ROME_DATES =
      java.util.Set.of(
          "pubDate", "expirationDate", "published", "updated", "issued", "modified", "created");

  /**
   * Detaches the entry's own date elements that Rome would read (for an entry whose date was read
   * here: Rome's would go unused); true when there were any.
   */
  static boolean detachRomeDates(Element entry) {
    return entry
            .removeContent(
                new org.jdom2.filter.AbstractFilter<Element>() {
                  @Override
                  public Element filter(Object content) {
                    return content instanceof Element e
                            && (ROME_DATES.contains(e.getName())
                                || (e.getName().equals("date") && DC.equals(e.getNamespace())))
                        ? e
                        : null;
                  }
                })
            .size()
        > 0;
  }

  private static Element child(Element parent, String name) {
    for (Element e : parent.getChildren()) {
      if (e.getName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  private static List<Element> children(Element parent, String name) {
    return parent.getChildren().stream().filter(e -> e.getName().equals(name)).toList();
  }
}
