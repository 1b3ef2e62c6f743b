package io.freshet.worker.items;

import java.util.regex.Pattern;
import org.jsoup.Jsoup;

/** Text normalisation shared by parsers and the content hash. */
public final class Text {

  private static final Pattern SPACE = Pattern.compile("[\\s\\u00a0\\u200b]+");
  private static final Pattern SCRIPTS =
      Pattern.compile("(?is)<(script|style)\\b[^>]*>.*?</\\1\\s*>");
  private static final Pattern TAGS = Pattern.compile("(?s)<!--.*?-->|<[^>]*>");

  private Text() {}

  /** Runs of whitespace (non-breaking and zero-width spaces included) as one space, trimmed. */
  public static String collapse(String s) {
    return s == null ? null : SPACE.matcher(s).replaceAll(" ").trim();
  }

  /**
   * Plain text of a string that may hold HTML (titles often do): tags dropped, entities decoded,
   * whitespace collapsed. Null or blank gives null.
   */
  public static String plain(String maybeHtml) {
    if (maybeHtml == null || maybeHtml.isBlank()) {
      return null;
    }
    String text =
        maybeHtml.indexOf('<') >= 0 || maybeHtml.indexOf('&') >= 0
            ? Jsoup.parse(maybeHtml).text()
            : maybeHtml;
    String collapsed = collapse(text);
    return collapsed.isEmpty() ? null : collapsed;
  }

  /**
   * Plain text of an HTML fragment the cheap way — tags and comments dropped, entities decoded,
   * whitespace collapsed — for hashing and keyword rules, where a full parse per item costs more
   * than it gives. Null gives "".
   */
  public static String stripTags(String html) {
    if (html == null || html.isEmpty()) {
      return "";
    }
    String text = html;
    if (text.indexOf('<') >= 0) {
      text = TAGS.matcher(SCRIPTS.matcher(text).replaceAll(" ")).replaceAll(" ");
    }
    if (text.indexOf('&') >= 0) {
      text = org.jsoup.parser.Parser.unescapeEntities(text, false);
    }
    return collapse(text);
  }
}
