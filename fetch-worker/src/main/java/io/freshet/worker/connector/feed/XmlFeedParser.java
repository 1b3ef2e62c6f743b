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
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jdom2.Content;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.JDOMException;
import org.jdom2.JDOMFactory;
import org.jdom2.Namespace;
import org.jdom2.input.sax.SAXEngine;
import org.jdom2.input.sax.SAXHandler;
import org.jdom2.input.sax.SAXHandlerFactory;
import org.xml.sax.SAXNotRecognizedException;
import org.xml.sax.SAXNotSupportedException;

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
      items.add(
          aligned
              ? item(entries.get(i), feedBase, entryElements.get(i), parsed.written(i))
              : item(entries.get(i), feedBase, null, null));
    }
    return new FeedDocument(items, parsed.hints());
  }

  /**
   * @param written each entry element's date as written ({@link RawDates#published}), null when it
   *     has none that reads; null for a document whose dates were left to Rome
   */
  private record Parsed(
      SyndFeed feed, List<Element> entries, List<Instant> written, ServerHints hints) {

    /** Entry {@code i}'s date as written; read now when the dates were not read beforehand. */
    Instant written(int i) {
      return written != null ? written.get(i) : RawDates.published(entries.get(i));
    }
  }

  /**
   * Rome's own steps (its XML healer — {@link EntityFixer}, the same repairs in one pass — its
   * secure SAX builder: no DOCTYPE, no external entity), with the document kept: the dates are read
   * from their text.
   *
   * <p>An entry whose date reads as written loses its date elements before Rome maps it: Rome's
   * date would not be used, and Rome reads each date by trying its formats one after another, a new
   * {@code SimpleDateFormat} per try — a fifth of a feed's parse. Should Rome's entries then not be
   * the document's (the written dates unusable), the elements are put back and Rome maps the
   * document again with them.
   */
  private static Parsed strict(String text, URI base) throws FeedException, JDOMException {
    Input input = Input.forText(text.length());
    Document document;
    // the healed copy of the text is let go as soon as the document is built, before Rome's feed
    try (Reader reader = new StringReader(EntityFixer.fix(text))) {
      document = input.document(reader);
    } catch (IOException e) {
      throw new JDOMException("cannot read: " + e.getMessage(), e); // a string does not fail
    }
    // The hints are read here, and the skip lists taken out before Rome sees them: Rome rejects
    // a whole feed for one hour out of range, and needs none of them.
    ServerHints hints = FeedHints.of(document, base);
    FeedHints.detachSkips(document);
    List<Element> entries = RawDates.entries(document);
    // A document with more entries than are mapped (hostile, or a dump) is left to Rome as it is,
    // its dates read per mapped entry: mapping 10,000 of its entries beside Rome's feed of all of
    // them needs more heap than the work budget, which Rome's dates exhaust first, lets it have.
    if (entries.size() > MAX_ITEMS) {
      return new Parsed(new SyndFeedImpl(build(input, document), false), entries, null, hints);
    }
    List<Instant> written = new ArrayList<>(entries.size());
    Map<Element, List<Content>> withoutDates = new IdentityHashMap<>();
    for (Element entry : entries) {
      WorkBudget.checkpoint();
      Instant at = RawDates.published(entry);
      written.add(at);
      if (at != null) {
        List<Content> content = List.copyOf(entry.getContent());
        if (RawDates.detachRomeDates(entry)) {
          withoutDates.put(entry, content);
        }
      }
    }
    SyndFeed feed = new SyndFeedImpl(build(input, document), false);
    if (feed.getEntries().size() != entries.size() && !withoutDates.isEmpty()) {
      withoutDates.forEach(
          (entry, content) -> {
            entry.removeContent();
            entry.addContent(content);
          });
      feed = new SyndFeedImpl(build(input, document), false);
    }
    return new Parsed(feed, entries, written, hints);
  }

  /**
   * Rome's feed of the document; an {@code <rss>} whose version Rome knows no parser for ({@code
   * version="2"}) is read as RSS 2.0, as feed readers do.
   */
  private static com.rometools.rome.feed.WireFeed build(Input input, Document document)
      throws FeedException {
    try {
      return input.build(document);
    } catch (IllegalArgumentException noParser) {
      Element root = document.getRootElement();
      if (!root.getName().equals("rss") || "2.0".equals(root.getAttributeValue("version"))) {
        throw noParser;
      }
      root.setAttribute("version", "2.0");
      return input.build(document);
    }
  }

  /**
   * The document as text in the charset its BOM, prolog or HTTP header names, read as browsers and
   * feed readers do: ISO-8859-1 and US-ASCII as windows-1252 (their superset, which is what such
   * documents hold: "smart quotes" in 0x80-0x9F); a document declared single-byte whose bytes are
   * valid UTF-8 as UTF-8 (a template copied with its declaration); a document not valid in the
   * UTF-8 it claims with each byte that is not UTF-8 read as windows-1252 ("Café" instead of
   * "Caf\uFFFD", and the UTF-8 around it kept).
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
    if (charset.equals(StandardCharsets.ISO_8859_1) || charset.equals(StandardCharsets.US_ASCII)) {
      String utf8 = strictly(StandardCharsets.UTF_8, body);
      if (utf8 != null && !isAscii(body)) {
        text = utf8;
        fixes.add("encoding");
      } else {
        text = Utf8OrWindows1252.windows1252(body);
      }
    } else {
      text = strictly(charset, body);
      if (text == null) {
        if (charset.equals(StandardCharsets.UTF_8)) {
          text = Utf8OrWindows1252.decode(body);
          fixes.add("encoding");
        } else {
          text = new String(body, charset);
        }
      }
    }
    return !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
  }

  /** {@code body} in {@code charset}, or null when it is not valid in it. */
  private static String strictly(Charset charset, byte[] body) {
    if (charset.equals(StandardCharsets.UTF_8)) {
      // The JDK's own UTF-8 constructor is many times faster than a decoder and makes no char
      // buffer to copy from; it replaces what is malformed with U+FFFD, so a result without any
      // is the body read strictly. One with U+FFFD (malformed, or written) is read again below.
      String text = new String(body, StandardCharsets.UTF_8);
      if (text.indexOf('\uFFFD') < 0) {
        return text;
      }
    }
    try {
      return charset
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static boolean isAscii(byte[] body) {
    for (byte b : body) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Documents up to this many characters are parsed by their parse thread's own {@link Input};
   * larger ones by one of their own, so that what a parser keeps between documents (buffers as
   * large as the largest text or attribute it read) stays small.
   */
  static final int REUSED_UP_TO_CHARS = 1 << 20;

  private static final ThreadLocal<Input> THREAD_INPUT = new ThreadLocal<>();

  /**
   * Rome's input, DOCTYPEs refused, with its SAX engine built once and kept. Rome makes a new SAX
   * builder per document, and the builder a new parser twice (once to see which features it
   * supports, once to parse): building the JDK's parser — its scanners, entity manager and their
   * buffers — was most of the allocation of parsing a small feed and a tenth of its CPU. An engine
   * parses one document at a time, and resets its parser and handler before and after each; its
   * symbol table is made anew per document ({@code jdk.xml.resetSymbolTable}), so no name read in
   * one document is kept for the next. An engine whose parse failed is not used again.
   */
  private static final class Input extends WireFeedInput {
    private final SAXEngine engine;

    private Input() throws JDOMException {
      super(false, java.util.Locale.US);
      setAllowDoctypes(false);
      com.rometools.rome.io.SAXBuilder builder = createSAXBuilder();
      if (supports(builder, RESET_SYMBOL_TABLE)) {
        builder.setFeature(RESET_SYMBOL_TABLE, true);
      }
      builder.setSAXHandlerFactory(new KeptSettings(builder));
      engine = builder.buildEngine();
    }

    /**
     * Handlers that keep the builder's settings across documents: JDOM's handler resets its entity
     * expansion to on and its white-space settings to off after every document, where Rome asks for
     * expansion off, so a kept engine would parse its second document otherwise than its first.
     */
    private record KeptSettings(boolean expand, boolean ignoringWhite, boolean ignoringBoundary)
        implements SAXHandlerFactory {
      KeptSettings(org.jdom2.input.SAXBuilder builder) {
        this(
            builder.getExpandEntities(),
            builder.getIgnoringElementContentWhitespace(),
            builder.getIgnoringBoundaryWhitespace());
      }

      @Override
      public SAXHandler createSAXHandler(JDOMFactory factory) {
        return new SAXHandler(factory) {
          @Override
          protected void resetSubCLass() {
            setExpandEntities(expand);
            setIgnoringElementContentWhitespace(ignoringWhite);
            setIgnoringBoundaryWhitespace(ignoringBoundary);
          }
        };
      }
    }

    /** This thread's input for a document of {@code chars} characters, or a new one. */
    static Input forText(int chars) throws JDOMException {
      if (chars > REUSED_UP_TO_CHARS) {
        return new Input();
      }
      Input input = THREAD_INPUT.get();
      if (input == null) {
        input = new Input();
        THREAD_INPUT.set(input);
      }
      return input;
    }

    Document document(Reader reader) throws JDOMException, IOException {
      boolean parsed = false;
      try {
        Document document = engine.build(reader);
        parsed = true;
        return document;
      } finally {
        if (!parsed && THREAD_INPUT.get() == this) {
          THREAD_INPUT.remove();
        }
      }
    }

    /** This thread's kept engine, null when it has none (for tests). */
    static SAXEngine threadEngine() {
      Input input = THREAD_INPUT.get();
      return input == null ? null : input.engine;
    }

    private static boolean supports(com.rometools.rome.io.SAXBuilder builder, String feature)
        throws JDOMException {
      try {
        builder.createParser().getFeature(feature);
        return true;
      } catch (SAXNotRecognizedException | SAXNotSupportedException e) {
        return false;
      }
    }
  }

  /** This thread's kept SAX engine, null when it has none: for tests of what it keeps. */
  static SAXEngine threadEngine() {
    return Input.threadEngine();
  }

  private static final String RESET_SYMBOL_TABLE = "jdk.xml.resetSymbolTable";

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

  private static RawItem item(SyndEntry entry, URI feedUri, Element element, Instant written) {
    URI base = element == null ? feedUri : xmlBase(feedUri, element);
    String link = resolve(base, entry.getLink());
    if (link == null) {
      link = resolve(base, permalinkGuid(element)); // Rome takes it only when <link> is absent
    }
    String body = null;
    String bodyType = "text/html";
    if (entry.getContents() != null && !entry.getContents().isEmpty()) {
      SyndContent content = entry.getContents().get(0);
      body = Utf8OrWindows1252.c1AsWindows1252(content.getValue());
      bodyType = mediaType(content.getType());
    } else if (entry.getDescription() != null) {
      body = Utf8OrWindows1252.c1AsWindows1252(entry.getDescription().getValue());
      bodyType = mediaType(entry.getDescription().getType());
    }
    // The date as written, read by WebDates (Rome misreads fractions beyond milliseconds and does
    // not read an offset without a colon or a date-only Atom updated); Rome's when that fails.
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
    if (id != null && link != null && !link.equals(id) && ownIdMissing(element)) {
      // Rome's id for an entry without one is its link as written: known by the absolute link
      if (entry.getLink() != null && id.equals(entry.getLink().trim())) {
        id = link;
      }
    }
    return new RawItem(
        id,
        link,
        title(entry, element),
        body,
        bodyType,
        published,
        eventStart(entry),
        false,
        metadata);
  }

  /**
   * The title as plain text: an Atom title of type {@code text} (the default) is text, so what
   * looks like markup in it stays ("Use List<String>"); any other title (RSS's, Atom's {@code html}
   * and {@code xhtml}) is read as HTML.
   */
  private static String title(SyndEntry entry, Element element) {
    String written = Utf8OrWindows1252.c1AsWindows1252(entry.getTitle());
    Element title = element == null ? null : element.getChild("title", ATOM);
    if (title != null) {
      String type = title.getAttributeValue("type");
      if (type == null || type.strip().equals("text")) {
        String text = Text.collapse(written);
        return text == null || text.isEmpty() ? null : text;
      }
    }
    return Text.plain(written);
  }

  private static final Namespace ATOM = Namespace.getNamespace("http://www.w3.org/2005/Atom");

  /** An RSS item's guid when it is its permalink (isPermaLink absent or true), else null. */
  private static String permalinkGuid(Element element) {
    Element guid = element == null ? null : element.getChild("guid");
    if (guid == null
        || "false".equalsIgnoreCase(guid.getAttributeValue("isPermaLink", "").strip())) {
      return null;
    }
    String value = guid.getTextTrim();
    return value.startsWith("http://") || value.startsWith("https://") ? value : null;
  }

  /** Whether the entry element has no id of its own (RSS {@code guid}, Atom {@code id}). */
  private static boolean ownIdMissing(Element element) {
    if (element == null) {
      return false;
    }
    for (Element child : element.getChildren()) {
      String name = child.getName();
      if (name.equals("guid") || name.equals("id")) {
        return false;
      }
    }
    return element.getAttribute("about", RDF) == null;
  }

  private static final Namespace RDF =
      Namespace.getNamespace("http://www.w3.org/1999/02/22-rdf-syntax-ns#");

  /**
   * The base an entry's relative links resolve against: the feed's URL with the {@code xml:base} of
   * each enclosing element applied, outermost first.
   */
  private static URI xmlBase(URI feedUri, Element element) {
    List<String> bases = new ArrayList<>();
    for (Element e = element; e != null; e = e.getParentElement()) {
      String b = e.getAttributeValue("base", Namespace.XML_NAMESPACE);
      if (b != null && !b.isBlank()) {
        bases.add(b.trim());
      }
    }
    URI base = feedUri;
    for (int i = bases.size() - 1; i >= 0; i--) {
      try {
        base = base == null ? new URI(bases.get(i)) : base.resolve(bases.get(i));
      } catch (URISyntaxException | IllegalArgumentException e) {
        // an unusable xml:base is ignored
      }
    }
    return base;
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
