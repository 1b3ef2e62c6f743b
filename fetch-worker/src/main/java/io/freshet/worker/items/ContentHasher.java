package io.freshet.worker.items;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * {@code content_hash}: lower-case hex SHA-256 over the item's normalised content — its plain-text
 * title, canonical link (tracking parameters dropped), plain-text body (tags and whitespace runs
 * ignored) and event time. Publication dates are left out, so a feed that only bumps an "updated"
 * stamp, reorders its items or re-indents its HTML does not make a new version.
 */
public final class ContentHasher {

  private ContentHasher() {}

  public static String hash(RawItem item) {
    String body = item.body();
    String normalisedBody =
        body == null ? "" : isHtml(item.contentType()) ? Text.stripTags(body) : Text.collapse(body);
    return sha256(
        String.join(
            "\u001f",
            nullToEmpty(Text.plain(item.title())),
            nullToEmpty(Urls.canonical(item.url())),
            normalisedBody,
            item.eventAt() == null ? "" : item.eventAt().toString()));
  }

  /** Lower-case hex SHA-256 of the UTF-8 bytes of {@code s}. */
  public static String sha256(String s) {
    return HexFormat.of().formatHex(digest(s));
  }

  static byte[] digest(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always has SHA-256", e);
    }
  }

  private static boolean isHtml(String contentType) {
    return contentType != null && contentType.toLowerCase(Locale.ROOT).contains("html");
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
