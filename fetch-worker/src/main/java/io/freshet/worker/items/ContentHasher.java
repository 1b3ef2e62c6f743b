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
    return hash(item, normalisedBody(item));
  }

  /**
   * The body as the hash reads it: {@link Text#stripTags} of an HTML body, {@link Text#collapse} of
   * any other, {@code ""} for none.
   */
  public static String normalisedBody(RawItem item) {
    String body = item.body();
    return body == null
        ? ""
        : isHtml(item.contentType()) ? Text.stripTags(body) : Text.collapse(body);
  }

  /**
   * The hash of an item whose {@link #normalisedBody} is known.
   *
   * @param normalisedBody {@code normalisedBody(item)}
   */
  public static String hash(RawItem item, String normalisedBody) {
    // The parts joined by U+001F, fed to the digest one by one: the same bytes as the joined
    // string's (no surrogate pair can span a separator) without copying the body once more.
    MessageDigest sha = sha256();
    update(sha, nullToEmpty(Text.plain(item.title())));
    sha.update(SEPARATOR);
    update(sha, nullToEmpty(Urls.canonical(item.url())));
    sha.update(SEPARATOR);
    update(sha, normalisedBody);
    sha.update(SEPARATOR);
    update(sha, item.eventAt() == null ? "" : item.eventAt().toString());
    return HexFormat.of().formatHex(sha.digest());
  }

  private static final byte SEPARATOR = 0x1f;

  private static void update(MessageDigest sha, String s) {
    sha.update(s.getBytes(StandardCharsets.UTF_8));
  }

  /** Lower-case hex SHA-256 of the UTF-8 bytes of {@code s}. */
  public static String sha256(String s) {
    return HexFormat.of().formatHex(digest(s));
  }

  static byte[] digest(String s) {
    return sha256().digest(s.getBytes(StandardCharsets.UTF_8));
  }

  private static final MessageDigest PROTOTYPE = newSha256();

  /** A fresh SHA-256 digest: a copy of one made once, without a provider look-up per item. */
  private static MessageDigest sha256() {
    try {
      return (MessageDigest) PROTOTYPE.clone();
    } catch (CloneNotSupportedException e) {
      return newSha256();
    }
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always has SHA-256", e);
    }
  }

  /** Whether a body of this media type is read as HTML (its tags stripped). */
  public static boolean isHtml(String contentType) {
    return contentType != null && contentType.toLowerCase(Locale.ROOT).contains("html");
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
