package io.freshet.worker.http;

import java.net.URI;

/** URLs as they may appear in logs and error messages: scheme, host, port and path, no query. */
public final class SafeUrls {

  private SafeUrls() {}

  /** {@code https://example.org/feed.xml} for {@code https://u:p@example.org/feed.xml?key=s}. */
  public static String describe(URI uri) {
    if (uri == null) {
      return "(no url)";
    }
    StringBuilder out = new StringBuilder();
    if (uri.getScheme() != null) {
      out.append(uri.getScheme()).append("://");
    }
    if (uri.getHost() != null) {
      out.append(uri.getHost());
    }
    if (uri.getPort() >= 0) {
      out.append(':').append(uri.getPort());
    }
    if (uri.getRawPath() != null) {
      out.append(uri.getRawPath());
    }
    return out.toString();
  }
}
