package io.freshet.scheduler.api.imports;

import io.freshet.cadence.source.Category;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.sources.SourceRequest;
import io.freshet.scheduler.api.support.WireNames;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns an OPML 1.0 or 2.0 subscription list into create bodies: every {@code <outline>} with an
 * {@code xmlUrl} becomes a {@code feed} source named by its {@code title} (else {@code text}, else
 * the URL). Its category is the text of the nearest enclosing folder outline that names one of
 * Freshet's categories ({@code rss}, {@code social}, …); folders with other names ("Tech", "News")
 * give no category, since the category drives the cadence.
 *
 * <p>Outlines are numbered from 1 in document order, folders included, for error messages. The
 * parser refuses DTDs and external entities (no XXE, no entity expansion); HTML's named entities
 * ({@code &nbsp;}, {@code &eacute;}) are read as the characters they name ({@link HtmlEntities}). A
 * title longer than a source name may be is truncated, with a warning in the import's result.
 */
final class OpmlImport {

  private OpmlImport() {}

  /**
   * @throws ApiException 400 when the body is not well-formed OPML or has no feed, 413 beyond
   *     {@code maxOutlines} feeds
   */
  static List<ImportEntry> parse(byte[] xml, int maxOutlines) {
    List<ImportEntry> entries = new ArrayList<>();
    // the text of each open outline; null for a feed outline, which is not a folder
    List<String> open = new ArrayList<>();
    int number = 0;
    boolean root = true;
    XMLStreamReader reader = null;
    try {
      reader =
          factory()
              .createXMLStreamReader(
                  new ByteArrayInputStream(HtmlEntities.toNumericReferences(xml)));
      while (reader.hasNext()) {
        int event = reader.next();
        if (event == XMLStreamConstants.DTD) {
          throw ApiException.badRequest("body: OPML must not contain a DOCTYPE");
        }
        if (event == XMLStreamConstants.START_ELEMENT) {
          String element = reader.getLocalName();
          if (root) {
            if (!element.equals("opml")) {
              throw ApiException.badRequest(
                  "body: not an OPML document (root element <" + element + ">, expected <opml>)");
            }
            root = false;
          } else if (element.equals("outline")) {
            number++;
            String url = attribute(reader, "xmlUrl");
            if (url != null) {
              if (entries.size() == maxOutlines) {
                throw ApiException.tooLarge(
                    "body: more than " + maxOutlines + " feed outlines; split the import");
              }
              entries.add(entry(number, reader, url, category(open)));
              open.add(null);
            } else {
              open.add(firstNonBlank(attribute(reader, "text"), attribute(reader, "title")));
            }
          }
        } else if (event == XMLStreamConstants.END_ELEMENT
            && reader.getLocalName().equals("outline")) {
          open.removeLast();
        }
      }
    } catch (XMLStreamException e) {
      throw ApiException.badRequest("body: not well-formed XML" + where(e) + ": " + reason(e));
    } finally {
      close(reader);
    }
    if (root) {
      throw ApiException.badRequest("body: empty; expected an OPML document");
    }
    if (entries.isEmpty()) {
      throw ApiException.badRequest("body: no <outline> with an xmlUrl attribute");
    }
    return entries;
  }

  private static ImportEntry entry(int number, XMLStreamReader reader, String url, String cat) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    String label = "outline " + number;
    String name = firstNonBlank(attribute(reader, "title"), attribute(reader, "text"), url.strip());
    List<String> warnings = new ArrayList<>();
    if (name.length() > SourceRequest.MAX_NAME) {
      // a long title is no reason to refuse a subscription list: keep its start
      int cut = SourceRequest.MAX_NAME;
      if (Character.isHighSurrogate(name.charAt(cut - 1))) {
        cut--;
      }
      warnings.add(
          label
              + ": title of "
              + name.length()
              + " characters truncated to the limit of "
              + SourceRequest.MAX_NAME);
      name = name.substring(0, cut).strip();
    }
    body.put("name", name);
    body.put("connector", "feed");
    body.put("url", url);
    if (cat != null) {
      body.put("category", cat);
    }
    return new ImportEntry(label, body, warnings);
  }

  /** The nearest enclosing folder whose text is a category's name, as its wire name. */
  static String category(List<String> open) {
    for (int i = open.size() - 1; i >= 0; i--) {
      Optional<Category> category = WireNames.parse(Category.class, open.get(i));
      if (category.isPresent()) {
        return WireNames.of(category.get());
      }
    }
    return null;
  }

  /** An attribute by local name, case-insensitively (some exporters write {@code xmlurl}). */
  private static String attribute(XMLStreamReader reader, String name) {
    for (int i = 0; i < reader.getAttributeCount(); i++) {
      if (reader.getAttributeLocalName(i).equalsIgnoreCase(name)) {
        return reader.getAttributeValue(i);
      }
    }
    return null;
  }

  private static String firstNonBlank(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v.strip();
      }
    }
    return null;
  }

  private static XMLInputFactory factory() {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, false);
    return factory;
  }

  private static String where(XMLStreamException e) {
    Location at = e.getLocation();
    return at == null || at.getLineNumber() < 1
        ? ""
        : " at line " + at.getLineNumber() + ", column " + at.getColumnNumber();
  }

  private static String reason(XMLStreamException e) {
    String message = e.getMessage() == null ? "unreadable" : e.getMessage();
    // The JDK's message starts with "ParseError at [row,col]:[l,c]\nMessage: ..."
    int at = message.lastIndexOf("Message: ");
    return at >= 0 ? message.substring(at + "Message: ".length()).strip() : message.strip();
  }

  private static void close(XMLStreamReader reader) {
    if (reader != null) {
      try {
        reader.close();
      } catch (XMLStreamException ignored) {
        // nothing was read from a resource that needs closing: the input is a byte array
      }
    }
  }
}
