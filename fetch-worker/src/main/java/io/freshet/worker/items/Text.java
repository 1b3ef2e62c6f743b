package io.freshet.worker.items;

import java.util.regex.Pattern;
import org.jsoup.Jsoup;

/** Text normalisation shared by parsers and the content hash. */
public final class Text {

  private static final Pattern SPACE = Pattern.compile("[\\s\\u00a0\\u200b]+");

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
}
