package io.freshet.worker.connector;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Adds query parameters to a URL, encoded. */
public final class QueryParameters {

  private QueryParameters() {}

  public static URI append(URI url, Map<String, String> parameters) {
    if (parameters.isEmpty()) {
      return url;
    }
    StringBuilder query = new StringBuilder(url.getRawQuery() == null ? "" : url.getRawQuery());
    parameters.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              if (!query.isEmpty()) {
                query.append('&');
              }
              query
                  .append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
                  .append('=')
                  .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            });
    String s = url.toString();
    int cut =
        s.indexOf('?') >= 0 ? s.indexOf('?') : (s.indexOf('#') >= 0 ? s.indexOf('#') : s.length());
    String fragment = url.getRawFragment() == null ? "" : "#" + url.getRawFragment();
    return URI.create(s.substring(0, cut) + "?" + query + fragment);
  }
}
