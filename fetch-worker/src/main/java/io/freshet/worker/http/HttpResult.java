package io.freshet.worker.http;

import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * The final answer of one GET, after redirects and retries.
 *
 * @param status HTTP status of the last response
 * @param finalUri the URL that answered (after redirects): relative links resolve against it
 * @param contentType the Content-Type header, or null
 * @param body the decompressed body (empty for 304)
 * @param etag the ETag header, or null
 * @param lastModified the Last-Modified header, or null
 * @param attempts requests made, retries included (redirect hops not counted)
 * @param bytes body bytes after decompression
 * @param retryAfter when the server asked to be called again (from Retry-After), or null
 * @param movedTo the URL that answered, when the request was redirected and every redirect was
 *     permanent (301, 308); null otherwise
 * @param maxAge how long the response says it stays fresh ({@link FreshnessHeaders}), or null
 * @param hubLink the {@code Link} header's {@code rel="hub"} target, or null
 * @param selfLink the {@code Link} header's {@code rel="self"} target, or null
 */
public record HttpResult(
    int status,
    URI finalUri,
    String contentType,
    byte[] body,
    String etag,
    String lastModified,
    int attempts,
    long bytes,
    Instant retryAfter,
    URI movedTo,
    Duration maxAge,
    String hubLink,
    String selfLink) {

  /** This answer, reached through permanent redirects only: the source has moved here. */
  public HttpResult movedPermanently() {
    return new HttpResult(
        status,
        finalUri,
        contentType,
        body,
        etag,
        lastModified,
        attempts,
        bytes,
        retryAfter,
        finalUri,
        maxAge,
        hubLink,
        selfLink);
  }

  public boolean notModified() {
    return status == 304;
  }

  public boolean successful() {
    return status >= 200 && status < 300;
  }

  /** The charset the Content-Type declares, or null when it declares none or an unknown one. */
  public Charset declaredCharset() {
    if (contentType == null) {
      return null;
    }
    for (String part : contentType.split(";")) {
      String p = part.trim();
      if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
        String name = p.substring(8).replace("\"", "").trim();
        try {
          return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
          return null;
        }
      }
    }
    return null;
  }

  /** The media type without parameters, lower case, or "" when absent. */
  public String mediaType() {
    if (contentType == null) {
      return "";
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi))
        .trim()
        .toLowerCase(Locale.ROOT);
  }
}
