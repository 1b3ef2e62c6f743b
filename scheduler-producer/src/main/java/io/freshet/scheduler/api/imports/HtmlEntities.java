package io.freshet.scheduler.api.imports;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.jsoup.nodes.Entities;

/**
 * Rewrites HTML's named entities ({@code &nbsp;}, {@code &eacute;}, …), which many OPML exporters
 * write but XML does not know without a DTD, as numeric character references ({@code &#160;}), so
 * that the XML parser (which refuses DTDs) reads them. XML's own five entities, unknown names,
 * comments and CDATA sections are left as they are. Works on the raw bytes of any ASCII-compatible
 * encoding (UTF-8, ISO-8859-1, windows-1252, …), since entity references are ASCII.
 */
final class HtmlEntities {

  private static final Set<String> XML = Set.of("amp", "lt", "gt", "quot", "apos");
  private static final int MAX_NAME = 32;

  private HtmlEntities() {}

  static byte[] toNumericReferences(byte[] xml) {
    var out = new ByteArrayOutputStream(xml.length + 64);
    int i = 0;
    while (i < xml.length) {
      int skipTo = skipEnd(xml, i);
      if (skipTo > i) {
        out.write(xml, i, skipTo - i);
        i = skipTo;
        continue;
      }
      if (xml[i] == '&') {
        int end = i + 1;
        while (end < xml.length && end - i <= MAX_NAME && isAsciiLetterOrDigit(xml[end])) {
          end++;
        }
        if (end > i + 1 && end < xml.length && xml[end] == ';') {
          String name = new String(xml, i + 1, end - i - 1, StandardCharsets.US_ASCII);
          if (!XML.contains(name) && Entities.isNamedEntity(name)) {
            StringBuilder numeric = new StringBuilder();
            Entities.getByName(name)
                .codePoints()
                .forEach(c -> numeric.append("&#").append(c).append(';'));
            out.writeBytes(numeric.toString().getBytes(StandardCharsets.US_ASCII));
            i = end + 1;
            continue;
          }
        }
      }
      out.write(xml[i]);
      i++;
    }
    return out.toByteArray();
  }

  /** The index after a comment or CDATA section starting at {@code i}, else {@code i}. */
  private static int skipEnd(byte[] xml, int i) {
    if (startsWith(xml, i, "<!--")) {
      return indexAfter(xml, i + 4, "-->");
    }
    if (startsWith(xml, i, "<![CDATA[")) {
      return indexAfter(xml, i + 9, "]]>");
    }
    return i;
  }

  private static int indexAfter(byte[] xml, int from, String end) {
    for (int j = from; j < xml.length; j++) {
      if (startsWith(xml, j, end)) {
        return j + end.length();
      }
    }
    return xml.length;
  }

  private static boolean startsWith(byte[] xml, int at, String prefix) {
    if (at + prefix.length() > xml.length) {
      return false;
    }
    for (int k = 0; k < prefix.length(); k++) {
      if (xml[at + k] != prefix.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAsciiLetterOrDigit(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
  }
}
