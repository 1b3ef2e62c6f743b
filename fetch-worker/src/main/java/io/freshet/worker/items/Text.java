package io.freshet.worker.items;

import org.jsoup.Jsoup;

/**
 * Text normalisation shared by parsers and the content hash.
 *
 * <p>{@link #collapse} and {@link #stripTags} run for every item read (twice for the body: hash and
 * signal rules), so they are single passes over the characters rather than regular expressions.
 * They give exactly what these expressions gave before (the content hash depends on it; {@code
 * TextTest} compares both on a corpus and on random markup): whitespace {@code [\s\u00a0\u200b]+} →
 * one space, then {@link String#trim}; script and style blocks {@code
 * (?is)<(script|style)\b[^>]*>.*?</\1\s*>} → one space, then comments and tags {@code
 * (?s)<!--.*?-->|<[^>]*>} → one space, then entities decoded, then collapsed.
 */
public final class Text {

  private Text() {}

  /** Runs of whitespace (non-breaking and zero-width spaces included) as one space, trimmed. */
  public static String collapse(String s) {
    if (s == null) {
      return null;
    }
    int n = s.length();
    int first = firstRunToReplace(s);
    if (first < 0) {
      return s.trim();
    }
    StringBuilder out = new StringBuilder(n);
    out.append(s, 0, first);
    int i = first;
    while (i < n) {
      char c = s.charAt(i);
      if (isSpace(c)) {
        out.append(' ');
        do {
          i++;
        } while (i < n && isSpace(s.charAt(i)));
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString().trim();
  }

  /** Index of the first whitespace run that is not already a single plain space, or -1. */
  private static int firstRunToReplace(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (isSpace(c) && (c != ' ' || (i + 1 < n && isSpace(s.charAt(i + 1))))) {
        return i;
      }
    }
    return -1;
  }

  /** {@code [\s\u00a0\u200b]}, where {@code \s} is {@code [ \t\n\x0B\f\r]}. */
  private static boolean isSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || c == '\u00a0' || c == '\u200b';
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
   * Plain text of an HTML fragment the cheap way — script and style blocks, comments and tags
   * dropped, entities decoded, whitespace collapsed — for hashing and keyword rules, where a full
   * parse per item costs more than it gives. Null gives "".
   */
  public static String stripTags(String html) {
    if (html == null || html.isEmpty()) {
      return "";
    }
    String text = html;
    if (text.indexOf('<') >= 0) {
      text = removeTags(removeScripts(text));
    }
    if (text.indexOf('&') >= 0) {
      text = org.jsoup.parser.Parser.unescapeEntities(text, false);
    }
    return collapse(text);
  }

  private static final String[] BLOCKS = {"script", "style"};

  /** Each {@code <script ...>...</script >} and {@code <style ...>...</style>} as one space. */
  private static String removeScripts(String s) {
    StringBuilder out = null;
    int copied = 0;
    int n = s.length();
    int p = s.indexOf('<');
    while (p >= 0) {
      int end = blockEnd(s, p);
      if (end < 0) {
        p = s.indexOf('<', p + 1);
        continue;
      }
      if (out == null) {
        out = new StringBuilder(n);
      }
      out.append(s, copied, p).append(' ');
      copied = end;
      p = end < n ? s.indexOf('<', end) : -1;
    }
    return out == null ? s : out.append(s, copied, n).toString();
  }

  /** End (exclusive) of a script/style block starting at {@code p}, or -1. */
  private static int blockEnd(String s, int p) {
    for (String name : BLOCKS) {
      int q = p + 1;
      if (!asciiRegionMatches(s, q, name)) {
        continue;
      }
      q += name.length();
      if (q < s.length() && isAsciiWordChar(s.charAt(q))) {
        return -1; // no \b after the name (and the other name cannot match here either)
      }
      int open = s.indexOf('>', q);
      if (open < 0) {
        return -1;
      }
      for (int r = s.indexOf("</", open + 1); r >= 0; r = s.indexOf("</", r + 1)) {
        int t = r + 2;
        if (!asciiRegionMatches(s, t, name)) {
          continue;
        }
        t += name.length();
        while (t < s.length() && isRegexSpace(s.charAt(t))) {
          t++;
        }
        if (t < s.length() && s.charAt(t) == '>') {
          return t + 1;
        }
      }
      return -1;
    }
    return -1;
  }

  /** Each comment {@code <!-- ... -->} and tag {@code <...>} as one space. */
  private static String removeTags(String s) {
    StringBuilder out = null;
    int copied = 0;
    int n = s.length();
    int p = s.indexOf('<');
    while (p >= 0) {
      int end = -1;
      if (s.startsWith("<!--", p)) {
        int close = s.indexOf("-->", p + 4);
        if (close >= 0) {
          end = close + 3;
        }
      }
      if (end < 0) {
        int close = s.indexOf('>', p + 1);
        if (close < 0) {
          break; // no '>' after this '<', so none after any later one either
        }
        end = close + 1;
      }
      if (out == null) {
        out = new StringBuilder(n);
      }
      out.append(s, copied, p).append(' ');
      copied = end;
      p = end < n ? s.indexOf('<', end) : -1;
    }
    return out == null ? s : out.append(s, copied, n).toString();
  }

  /**
   * Whether {@code s} holds the lower-case ASCII {@code word} at {@code at}, ASCII case ignored.
   */
  private static boolean asciiRegionMatches(String s, int at, String word) {
    if (at + word.length() > s.length()) {
      return false;
    }
    for (int k = 0; k < word.length(); k++) {
      char c = s.charAt(at + k);
      if (c >= 'A' && c <= 'Z') {
        c = (char) (c + ('a' - 'A'));
      }
      if (c != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /** {@code \w} (ASCII), what {@code \b} looks at. */
  private static boolean isAsciiWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  /** {@code \s}: {@code [ \t\n\x0B\f\r]}. */
  private static boolean isRegexSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
  }
}
