package io.freshet.worker.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the targets of HTTP {@code Link} headers (RFC 8288) with a given relation, e.g. a feed's
 * WebSub {@code hub} and {@code self}. Bounded: at most {@value #MAX_LINKS} links are looked at and
 * a target longer than {@value #MAX_TARGET} characters is ignored.
 */
public final class LinkHeader {

  static final int MAX_LINKS = 32;

  static final int MAX_TARGET = 2_048;

  private LinkHeader() {}

  /** The first target whose {@code rel} lists {@code relation}, or null. */
  public static String first(List<String> headerValues, String relation) {
    int seen = 0;
    for (String header : headerValues) {
      for (String link : split(header)) {
        if (++seen > MAX_LINKS) {
          return null;
        }
        int open = link.indexOf('<');
        int close = link.indexOf('>', open + 1);
        if (open < 0 || close < 0 || close - open - 1 > MAX_TARGET) {
          continue;
        }
        String target = link.substring(open + 1, close).trim();
        if (!target.isEmpty() && hasRelation(link.substring(close + 1), relation)) {
          return target;
        }
      }
    }
    return null;
  }

  private static boolean hasRelation(String params, String relation) {
    for (String param : params.split(";")) {
      String p = param.trim();
      int eq = p.indexOf('=');
      if (eq < 0 || !p.substring(0, eq).trim().equalsIgnoreCase("rel")) {
        continue;
      }
      String value = p.substring(eq + 1).trim().replace("\"", "").toLowerCase(Locale.ROOT);
      for (String rel : value.split("\\s+")) {
        if (rel.equals(relation)) {
          return true;
        }
      }
    }
    return false;
  }

  // Links are separated by commas outside <...> and quotes.
  private static List<String> split(String header) {
    List<String> links = new ArrayList<>();
    boolean inTarget = false;
    boolean inQuotes = false;
    int start = 0;
    for (int i = 0; i < header.length(); i++) {
      char c = header.charAt(i);
      if (c == '<' && !inQuotes) {
        inTarget = true;
      } else if (c == '>' && !inQuotes) {
        inTarget = false;
      } else if (c == '"' && !inTarget) {
        inQuotes = !inQuotes;
      } else if (c == ',' && !inTarget && !inQuotes) {
        links.add(header.substring(start, i));
        start = i + 1;
      }
    }
    links.add(header.substring(start));
    return links;
  }
}
