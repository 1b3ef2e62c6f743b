package io.freshet.worker.connector.feed;

import com.rometools.rome.feed.synd.SyndCategory;
import com.rometools.rome.feed.synd.SyndContent;
import com.rometools.rome.feed.synd.SyndEnclosure;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.feed.synd.SyndFeedImpl;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.WireFeedInput;
import com.rometools.rome.io.XmlReader;
import com.rometools.rome.io.impl.XmlFixerReader;
import io.freshet.worker.budget.WorkBudget;
import io.freshet.worker.connector.ServerHints;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.Text;
import io.freshet.worker.items.WebDates;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.JDOMException;

/**
 * RSS/Atom/RDF through Rome. The charset comes from the BOM, the XML prolog and the HTTP header,
 * leniently (a wrong declared charset falls back rather than fails). HTML in titles is reduced to
 * text; links are resolved against the feed's URL; the RSS event module's {@code ev:startdate} is
 * the item's event time.
 */
final class XmlFeedParser {

  /**
   * Entries mapped per document; later ones are not (far above any item limit: a feed that long is
   * hostile or a dump, and mapping it would only make garbage).
   */
  static final int MAX_ITEMS = 10_000;

  private static final String EVENT_MODULE = "http://purl.org/rss/1.0/modules/event/";

  private final ParseObserver observer;

  XmlFeedParser(ParseObserver observer) {
    this.observer = observer;
  }

  List<RawItem> parse(byte[] body, String contentType, URI base) throws FetchFailure {
    return read(body, contentType, base).items();
  }

  /** The items and what the channel says of how it wants to be read ({@link FeedHints}). */
  FeedDocument read(byte[] body, String contentType, URI base) throws FetchFailure {
    List<String> fixes = new ArrayList<>();
    String text = decode(body, contentType, fixes);
    Parsed parsed;
    try {
      parsed = strict(text, base);
    } catch (FeedException | JDOMException | IllegalArgumentException e) {
      // Not well-formed: heal it as feed readers do and parse again, as strictly.
      XmlRecovery.Healed healed = XmlRecovery.heal(text);
      if (healed.fixes().isEmpty()) {
        throw new FetchFailure(
            ErrorKind.PARSE, "not a readable RSS/Atom/RDF feed: " + rootCause(e));
      }
      try {
        parsed = strict(healed.text(), base);
      } catch (FeedException | JDOMException | IllegalArgumentException notHealed) {
        throw new FetchFailure(
            ErrorKind.PARSE, "not a readable RSS/Atom/RDF feed: " + rootCause(e));
      }
      fixes.addAll(healed.fixes());
    }
    if (!fixes.isEmpty()) {
      observer.recovered(fixes);
    }
    SyndFeed feed = parsed.feed();
    List<Element> entryElements = parsed.entries();
    URI feedBase = base;
    List<SyndEntry> entries = feed.getEntries();
    // Rome maps the document's entries in order; when the counts differ, its dates are kept
    boolean aligned = entryElements.size() == entries.size();
    List<RawItem> items = new ArrayList<>(Math.min(entries.size(), MAX_ITEMS));
    for (int i = 0; i < entries.size(); i++) {
      if (items.size() >= MAX_ITEMS) {
        break;
      }
      WorkBudget.checkpoint();
      items.add(item(entries.get(i), feedBase, aligned ? entryElements.get(i) : null));
    }
    return new FeedDocument(items, parsed.hints());
  }

  private record Parsed(SyndFeed feed, List<Element> entries, ServerHints hints) {}

  /**
   * Rome's own steps (its XML healer, its secure SAX builder: no DOCTYPE, no external entity), with
   * the document kept: the dates are read from their text.
   */
  private static Parsed strict(String text, URI base) throws FeedException, JDOMException {
    Input input = new Input();
    try (Reader reader = new XmlFixerReader(new StringReader(text))) {
      Document document = input.document(reader);
      // The hints are read here, and the skip lists taken out before Rome sees them: Rome rejects
      // a whole feed for one hour out of range, and needs none of them.
      ServerHints hints = FeedHints.of(document, base);
      FeedHints.detachSkips(document);
      return new Parsed(
          new SyndFeedImpl(input.build(document), false), RawDates.entries(document), hints);
    } catch (IOException e) {
      throw new JDOMException("cannot read: " + e.getMessage(), e); // a string does not fail
    }
  }

  /**
   * The document as text in the charset its BOM, prolog or HTTP header names; a document that is
   * not valid in the UTF-8 it claims is read as windows-1252, the usual truth ("Café" instead of
   * "Caf\uFFFD").
   */
  private static String decode(byte[] body, String contentType, List<String> fixes)
      throws FetchFailure {
    Charset charset;
    try (XmlReader reader = xmlReader(body, contentType)) {
      charset = Charset.forName(reader.getEncoding());
    } catch (IOException | IllegalArgumentException undecidable) {
      charset = StandardCharsets.UTF_8;
    }
    String text;
    try {
      text =
          charset
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException e) {
      if (charset.equals(StandardCharsets.UTF_8)) {
        text = new String(body, WINDOWS_1252);
        fixes.add("encoding");
      } else {
        text = new String(body, charset);
      }
    }
    return !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
  }

  private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

  /** Rome's input, its SAX builder reachable, DOCTYPEs refused. */
  private static final class Input extends WireFeedInput {
    Input() {
      super(false, java.util.Locale.US);
      setAllowDoctypes(false);
    }

    Document document(Reader reader) throws JDOMException, IOException {
      return createSAXBuilder().build(reader);
    }
  }

  // The document's own BOM or XML declaration wins over the HTTP header, which servers often get
  // wrong (a UTF-8 file served as ISO-8859-1); the header decides only when the document is silent.
  private static XmlReader xmlReader(byte[] body, String contentType) throws IOException {
    return contentType == null || declaresEncoding(body)
        ? new XmlReader(new ByteArrayInputStream(body), true)
        : new XmlReader(new ByteArrayInputStream(body), contentType, true);
  }

  private static boolean declaresEncoding(byte[] body) {
    int n = Math.min(body.length, 200);
    String head = new String(body, 0, n, StandardCharsets.ISO_8859_1);
    int end = head.indexOf("?>");
    return (body.length >= 2
            && ((body[0] & 0xff) == 0xef || (body[0] & 0xff) == 0xfe || (body[0] & 0xff) == 0xff))
        || (head.startsWith("<?xml") && end > 0 && head.substring(0, end).contains("encoding"));
  }

  private static RawItem item(SyndEntry entry, URI base, Element element) {
    String link = resolve(base, entry.getLink());
    String body = null;
    String bodyType = "text/html";
    if (entry.getContents() != null && !entry.getContents().isEmpty()) {
      SyndContent content = entry.getContents().get(0);
      body = content.getValue();
      bodyType = mediaType(content.getType());
    } else if (entry.getDescription() != null) {
      body = entry.getDescription().getValue();
      bodyType = mediaType(entry.getDescription().getType());
    }
    // The date as written, read by WebDates (Rome misreads fractions beyond milliseconds and does
    // not read an offset without a colon or a date-only Atom updated); Rome's when that fails.
    Instant written = element == null ? null : RawDates.published(element);
    Date romeDate =
        entry.getPublishedDate() != null ? entry.getPublishedDate() : entry.getUpdatedDate();
    Instant published = written != null ? written : romeDate == null ? null : romeDate.toInstant();
    Map<String, String> metadata = new HashMap<>();
    if (entry.getAuthor() != null && !entry.getAuthor().isBlank()) {
      metadata.put("author", entry.getAuthor().trim());
    }
    if (entry.getCategories() != null && !entry.getCategories().isEmpty()) {
      metadata.put(
          "categories",
          entry.getCategories().stream()
              .map(SyndCategory::getName)
              .filter(n -> n != null && !n.isBlank())
              .map(String::trim)
              .collect(Collectors.joining(", ")));
    }
    if (entry.getEnclosures() != null && !entry.getEnclosures().isEmpty()) {
      SyndEnclosure enclosure = entry.getEnclosures().get(0);
      if (enclosure.getUrl() != null) {
        metadata.put("enclosure", resolve(base, enclosure.getUrl()));
      }
    }
    String uri = entry.getUri();
    String id = uri == null || uri.isBlank() ? null : uri.trim();
    return new RawItem(
        id,
        link,
        Text.plain(entry.getTitle()),
        body,
        bodyType,
        published,
        eventStart(entry),
        false,
        metadata);
  }

  private static Instant eventStart(SyndEntry entry) {
    List<Element> markup = entry.getForeignMarkup();
    if (markup == null) {
      return null;
    }
    for (Element e : markup) {
      if (EVENT_MODULE.equals(e.getNamespaceURI()) && "startdate".equals(e.getName())) {
        return WebDates.instant(e.getTextTrim());
      }
    }
    return null;
  }

  private static String mediaType(String romeType) {
    if (romeType == null || romeType.equals("html") || romeType.equals("xhtml")) {
      return "text/html";
    }
    if (romeType.equals("text")) {
      return "text/plain";
    }
    return romeType;
  }

  private static String resolve(URI base, String link) {
    if (link == null || link.isBlank()) {
      return null;
    }
    try {
      return base == null ? link.trim() : base.resolve(link.trim()).toString();
    } catch (IllegalArgumentException e) {
      return link.trim();
    }
  }

  private static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return message.length() > 300 ? message.substring(0, 300) : message;
  }
}
