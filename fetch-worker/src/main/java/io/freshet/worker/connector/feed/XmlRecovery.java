package io.freshet.worker.connector.feed;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Entities;

/**
 * Heals a feed that is not well-formed XML the way feed readers do, for a second, still strict,
 * parse: junk before the prolog is cut, a DOCTYPE is removed (never resolved: no external entity,
 * no DTD, no entity expansion can follow), characters XML forbids are dropped, HTML's named
 * entities become character references and an unknown one or a bare {@code &} literal text, and
 * whatever follows the root element is cut. CDATA sections and comments are copied as they are.
 * Each fix applied is named, for the metric and the fetch-once command.
 */
final class XmlRecovery {

  /** The healed text and the fixes it needed (none: healing cannot help). */
  record Healed(String text, List<String> fixes) {}

  static final String JUNK_BEFORE_PROLOG = "junk_before_prolog";
  static final String DOCTYPE = "doctype";
  static final String CONTROL_CHARACTERS = "control_characters";
  static final String HTML_ENTITIES = "html_entities";
  static final String BARE_AMPERSANDS = "bare_ampersands";
  static final String CONTENT_AFTER_ROOT = "content_after_root";
  static final String UNCLOSED_HTML = "unclosed_html";
  static final String UNDECLARED_PREFIXES = "undeclared_prefixes";

  /** The namespaces feeds use by these prefixes without declaring them. */
  private static final Map<String, String> KNOWN_PREFIXES =
      Map.ofEntries(
          Map.entry("dc", "http://purl.org/dc/elements/1.1/"),
          Map.entry("dcterms", "http://purl.org/dc/terms/"),
          Map.entry("content", "http://purl.org/rss/1.0/modules/content/"),
          Map.entry("atom", "http://www.w3.org/2005/Atom"),
          Map.entry("media", "http://search.yahoo.com/mrss/"),
          Map.entry("itunes", "http://www.itunes.com/dtds/podcast-1.0.dtd"),
          Map.entry("wfw", "http://wellformedweb.org/CommentAPI/"),
          Map.entry("slash", "http://purl.org/rss/1.0/modules/slash/"),
          Map.entry("sy", "http://purl.org/rss/1.0/modules/syndication/"),
          Map.entry("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
          Map.entry("georss", "http://www.georss.org/georss"),
          Map.entry("thr", "http://purl.org/syndication/thread/1.0"),
          Map.entry("ev", "http://purl.org/rss/1.0/modules/event/"),
          Map.entry("feedburner", "http://rssnamespace.org/feedburner/ext/1.0"));

  // an HTML void element written as HTML does, unclosed, in a document that must be XML
  private static final Pattern VOID_HTML =
      Pattern.compile("<(br|hr|img|wbr)(\\s[^<>]*)?(?<!/)>", Pattern.CASE_INSENSITIVE);

  private static final Pattern PREFIXED =
      Pattern.compile(
          "<([A-Za-z_][A-Za-z0-9_.-]*):[A-Za-z_]|\\s([A-Za-z_][A-Za-z0-9_.-]*):[A-Za-z_][A-Za-z0-9_.-]*\\s*=");

  /** How far into the document a late XML declaration is looked for. */
  private static final int PROLOG_SEARCH = 4_096;

  private static final Set<String> XML_ENTITIES = Set.of("amp", "lt", "gt", "quot", "apos");

  private static final Pattern FORBIDDEN =
      Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]");

  private static final Pattern ENTITY =
      Pattern.compile("&(?:#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|([A-Za-z][A-Za-z0-9]{0,31});)");

  private static final Pattern ROOT = Pattern.compile("<([A-Za-z_][A-Za-z0-9_:.-]*)[\\s/>]");

  private XmlRecovery() {}

  static Healed heal(String text) {
    Set<String> fixes = new LinkedHashSet<>();
    String t = text;
    if (!t.isEmpty() && t.charAt(0) == '\uFEFF') {
      t = t.substring(1);
    }
    // whitespace or junk (a PHP notice, a comment) before the prolog: the prolog must come first
    int prolog = t.indexOf("<?xml");
    int lt = prolog >= 0 && prolog < PROLOG_SEARCH ? prolog : t.indexOf('<');
    if (lt > 0) {
      t = t.substring(lt);
      fixes.add(JUNK_BEFORE_PROLOG);
    }
    t = withoutDoctype(t, fixes);
    Matcher forbidden = FORBIDDEN.matcher(t);
    if (forbidden.find()) {
      t = forbidden.replaceAll("");
      fixes.add(CONTROL_CHARACTERS);
    }
    t = withEntitiesFixed(t, fixes);
    t = withoutContentAfterRoot(t, fixes);
    t = withVoidHtmlEscaped(t, fixes);
    t = withPrefixesDeclared(t, fixes);
    return new Healed(t, List.copyOf(fixes));
  }

  private static String withoutDoctype(String t, Set<String> fixes) {
    int start = t.indexOf("<!DOCTYPE");
    if (start < 0) {
      return t;
    }
    int close = t.indexOf('>', start);
    int subset = t.indexOf('[', start);
    int end;
    if (subset >= 0 && (close < 0 || subset < close)) {
      int subsetEnd = t.indexOf("]", subset);
      end = subsetEnd < 0 ? -1 : t.indexOf('>', subsetEnd);
    } else {
      end = close;
    }
    if (end < 0) {
      return t;
    }
    fixes.add(DOCTYPE);
    return t.substring(0, start) + t.substring(end + 1);
  }

  /** Entities outside CDATA sections and comments. */
  private static String withEntitiesFixed(String t, Set<String> fixes) {
    if (t.indexOf('&') < 0) {
      return t;
    }
    StringBuilder out = new StringBuilder(t.length() + 64);
    int i = 0;
    while (i < t.length()) {
      int cdata = t.indexOf("<![CDATA[", i);
      int comment = t.indexOf("<!--", i);
      int next = minPositive(cdata, comment);
      int stop = next < 0 ? t.length() : next;
      fixSegment(t.substring(i, stop), out, fixes);
      if (next < 0) {
        break;
      }
      String closing = next == cdata ? "]]>" : "-->";
      int end = t.indexOf(closing, next);
      int copyTo = end < 0 ? t.length() : end + closing.length();
      out.append(t, next, copyTo);
      i = copyTo;
    }
    return out.toString();
  }

  private static void fixSegment(String s, StringBuilder out, Set<String> fixes) {
    int i = 0;
    while (true) {
      int amp = s.indexOf('&', i);
      if (amp < 0) {
        out.append(s, i, s.length());
        return;
      }
      out.append(s, i, amp);
      Matcher m = ENTITY.matcher(s).region(amp, s.length());
      if (!m.lookingAt()) {
        out.append("&amp;");
        fixes.add(BARE_AMPERSANDS);
        i = amp + 1;
        continue;
      }
      String name = m.group(1);
      if (name == null || XML_ENTITIES.contains(name)) {
        out.append(m.group()); // a character reference or one of XML's five
      } else if (Entities.isNamedEntity(name)) {
        for (int cp : Entities.getByName(name).codePoints().toArray()) {
          out.append("&#").append(cp).append(';');
        }
        fixes.add(HTML_ENTITIES);
      } else {
        out.append("&amp;").append(name).append(';'); // an entity nobody defines: as text
        fixes.add(HTML_ENTITIES);
      }
      i = m.end();
    }
  }

  private static String withoutContentAfterRoot(String t, Set<String> fixes) {
    Matcher root = ROOT.matcher(t);
    int from = 0;
    String name = null;
    while (root.find(from)) {
      int at = root.start();
      if (!insideMarkup(t, at)) {
        name = root.group(1);
        break;
      }
      from = root.end();
    }
    if (name == null) {
      return t;
    }
    // a second document after the first (a cache writing it twice): the first one's end
    int again = t.indexOf("<?xml", root.end());
    int close = again < 0 ? t.lastIndexOf("</" + name) : t.lastIndexOf("</" + name, again);
    if (close < 0) {
      return t;
    }
    int end = t.indexOf('>', close);
    if (end < 0 || t.substring(end + 1).isBlank()) {
      return t;
    }
    fixes.add(CONTENT_AFTER_ROOT);
    return t.substring(0, end + 1);
  }

  /**
   * An unclosed {@code <br>}, {@code <hr>}, {@code <img>} or {@code <wbr>} (HTML pasted into a
   * title or description without escaping) becomes text, as the HTML it is: the element's text
   * reads it.
   */
  private static String withVoidHtmlEscaped(String t, Set<String> fixes) {
    if (t.indexOf('<') < 0) {
      return t;
    }
    StringBuilder out = new StringBuilder(t.length() + 16);
    int i = 0;
    boolean changed = false;
    while (i < t.length()) {
      int cdata = t.indexOf("<![CDATA[", i);
      int comment = t.indexOf("<!--", i);
      int next = minPositive(cdata, comment);
      int stop = next < 0 ? t.length() : next;
      Matcher m = VOID_HTML.matcher(t).region(i, stop);
      int from = i;
      while (m.find()) {
        out.append(t, from, m.start()).append("&lt;").append(t, m.start() + 1, m.end() - 1);
        out.append("&gt;");
        from = m.end();
        changed = true;
      }
      out.append(t, from, stop);
      if (next < 0) {
        break;
      }
      String closing = next == cdata ? "]]>" : "-->";
      int end = t.indexOf(closing, next);
      int copyTo = end < 0 ? t.length() : end + closing.length();
      out.append(t, next, copyTo);
      i = copyTo;
    }
    if (!changed) {
      return t;
    }
    fixes.add(UNCLOSED_HTML);
    return out.toString();
  }

  /**
   * A namespace prefix used and declared nowhere ({@code dc:creator} without {@code xmlns:dc}) is
   * declared on the root element: with its usual namespace when it has one, else a placeholder.
   */
  private static String withPrefixesDeclared(String t, Set<String> fixes) {
    Set<String> missing = new LinkedHashSet<>();
    Matcher m = PREFIXED.matcher(t);
    while (m.find()) {
      String prefix = m.group(1) != null ? m.group(1) : m.group(2);
      if (!prefix.equals("xml")
          && !prefix.equals("xmlns")
          && !missing.contains(prefix)
          && !t.contains("xmlns:" + prefix + "=")) {
        missing.add(prefix);
      }
    }
    if (missing.isEmpty()) {
      return t;
    }
    Matcher root = ROOT.matcher(t);
    int from = 0;
    while (root.find(from)) {
      if (!insideMarkup(t, root.start())) {
        StringBuilder declarations = new StringBuilder();
        for (String prefix : missing) {
          declarations
              .append(" xmlns:")
              .append(prefix)
              .append("=\"")
              .append(KNOWN_PREFIXES.getOrDefault(prefix, "urn:undeclared:" + prefix))
              .append('"');
        }
        int at = root.end(1);
        fixes.add(UNDECLARED_PREFIXES);
        return t.substring(0, at) + declarations + t.substring(at);
      }
      from = root.end();
    }
    return t;
  }

  /** Whether {@code at} lies in a comment or processing instruction before the root. */
  private static boolean insideMarkup(String t, int at) {
    List<int[]> spans = new ArrayList<>();
    for (String[] pair : new String[][] {{"<!--", "-->"}, {"<?", "?>"}}) {
      int i = 0;
      while (true) {
        int s = t.indexOf(pair[0], i);
        if (s < 0 || s > at) {
          break;
        }
        int e = t.indexOf(pair[1], s);
        spans.add(new int[] {s, e < 0 ? t.length() : e});
        i = e < 0 ? t.length() : e + 1;
      }
    }
    return spans.stream().anyMatch(s -> s[0] <= at && at <= s[1]);
  }

  private static int minPositive(int a, int b) {
    if (a < 0) {
      return b;
    }
    if (b < 0) {
      return a;
    }
    return Math.min(a, b);
  }
}
