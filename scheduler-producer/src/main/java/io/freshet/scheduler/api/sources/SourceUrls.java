package io.freshet.scheduler.api.sources;

import java.net.IDN;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Checks a source URL and derives its host, the partition key of its fetch requests. */
final class SourceUrls {

  static final int MAX_LENGTH = 2048;

  private SourceUrls() {}

  /**
   * The lower-cased ASCII (punycode) host of {@code url}.
   *
   * @throws IllegalArgumentException with the message for the {@code url} field
   */
  static String host(String url) {
    if (url.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("must be at most " + MAX_LENGTH + " characters");
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw notHttp();
    }
    String scheme = uri.getScheme();
    if (scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || uri.isOpaque()) {
      throw notHttp();
    }
    if (uri.getRawUserInfo() != null) {
      // A URL is shown by the API and travels in clear on Kafka: secrets go in credentials.
      throw new IllegalArgumentException(
          "must not contain user:password@; put them in credentials, which are stored encrypted");
    }
    if (uri.getPort() == 0 || uri.getPort() > 65535) {
      throw new IllegalArgumentException(
          "has port " + uri.getPort() + "; a port is a number from 1 to 65535");
    }
    String host = uri.getHost();
    if (host == null) {
      // java.net.URI gives no host for names with '_' or non-ASCII letters: take the authority.
      host = hostOfAuthority(uri.getRawAuthority());
    }
    if (host == null || host.isBlank()) {
      throw notHttp();
    }
    try {
      return IDN.toASCII(host, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("has an invalid host name");
    }
  }

  private static String hostOfAuthority(String authority) {
    if (authority == null || authority.contains("@")) {
      return null;
    }
    if (authority.startsWith("[")) {
      return authority.contains("]") ? authority.substring(0, authority.indexOf(']') + 1) : null;
    }
    int colon = authority.lastIndexOf(':');
    return colon >= 0 ? authority.substring(0, colon) : authority;
  }

  private static IllegalArgumentException notHttp() {
    return new IllegalArgumentException("must be an absolute http or https URL");
  }
}
