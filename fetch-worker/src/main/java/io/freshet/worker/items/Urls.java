package io.freshet.worker.items;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The canonical form of an item's link for identity and hashing: scheme and host in lower case, no
 * fragment, no default port, and without tracking parameters, so the same article shared with
 * different campaign tags is one item.
 */
public final class Urls {

  private static final Set<String> TRACKING =
      Set.of(
          "fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "igshid", "ref_src", "_hsenc",
          "_hsmi", "yclid");

  private Urls() {}

  public static String canonical(String url) {
    if (url == null || url.isBlank()) {
      return null;
    }
    try {
      URI uri = new URI(url.trim());
      if (uri.getScheme() == null || uri.getRawAuthority() == null) {
        return url.trim();
      }
      String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
      String host = uri.getHost() == null ? uri.getRawAuthority() : uri.getHost();
      int port = uri.getPort();
      boolean defaultPort =
          port < 0
              || (scheme.equals("http") && port == 80)
              || (scheme.equals("https") && port == 443);
      StringBuilder out =
          new StringBuilder(scheme).append("://").append(host.toLowerCase(Locale.ROOT));
      if (!defaultPort) {
        out.append(':').append(port);
      }
      out.append(uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath());
      String query = cleanQuery(uri.getRawQuery());
      if (!query.isEmpty()) {
        out.append('?').append(query);
      }
      return out.toString();
    } catch (URISyntaxException e) {
      return url.trim();
    }
  }

  private static String cleanQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    StringJoiner kept = new StringJoiner("&");
    for (String pair : rawQuery.split("&")) {
      String name = pair.split("=", 2)[0].toLowerCase(Locale.ROOT);
      if (!name.startsWith("utm_") && !TRACKING.contains(name) && !pair.isEmpty()) {
        kept.add(pair);
      }
    }
    return kept.toString();
  }
}
