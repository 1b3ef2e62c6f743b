package io.freshet.kit.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The API keys' text form and hash, pure. A key is {@code fk_<id>_<secret>}: {@code id} 16
 * characters of {@code a-z0-9} (public: it names the key in lists, logs and the audit), {@code
 * secret} 256 random bits in base64url without padding (43 characters). Only the SHA-256 of the
 * secret's text is ever stored or sent; a secret of 256 random bits needs no slow hash, as nobody
 * can guess it from its digest.
 */
public final class ApiKeys {

  /** The prefix every key starts with (so a leaked key is easy to recognise and scan for). */
  public static final String PREFIX = "fk_";

  private static final Pattern ID = Pattern.compile("[a-z0-9]{16}");
  private static final Pattern SECRET = Pattern.compile("[A-Za-z0-9_-]{43}");
  private static final char[] ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private ApiKeys() {}

  /**
   * A key as presented: its id and its secret.
   *
   * @param id the key's id
   * @param secret the key's secret, as text
   */
  public record Presented(String id, String secret) {
    /** The digest to compare with the stored one. */
    public byte[] digest() {
      return sha256(secret);
    }

    @Override
    public String toString() {
      return "Presented[id=" + id + ", secret=***]";
    }
  }

  /**
   * A new key: the text to hand to its holder once, and what is kept of it.
   *
   * @param id the key's id
   * @param text the whole key, {@code fk_<id>_<secret>}: shown once, never stored
   * @param secretSha256 the digest that is stored
   */
  public record Generated(String id, String text, byte[] secretSha256) {
    @Override
    public String toString() {
      return "Generated[id=" + id + ", text=***]";
    }
  }

  /** A new random key. */
  public static Generated generate() {
    char[] id = new char[16];
    for (int i = 0; i < id.length; i++) {
      id[i] = ID_ALPHABET[RANDOM.nextInt(ID_ALPHABET.length)];
    }
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    String secretText = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    String idText = new String(id);
    return new Generated(idText, PREFIX + idText + "_" + secretText, sha256(secretText));
  }

  /**
   * The id and secret of {@code text} if it has a key's form ({@code fk_<16 of a-z0-9>_<43 of
   * base64url>}); empty for anything else (a legacy token, garbage).
   */
  public static Optional<Presented> parse(String text) {
    if (text == null
        || !text.startsWith(PREFIX)
        || text.length() != PREFIX.length() + 16 + 1 + 43) {
      return Optional.empty();
    }
    String id = text.substring(PREFIX.length(), PREFIX.length() + 16);
    if (text.charAt(PREFIX.length() + 16) != '_') {
      return Optional.empty();
    }
    String secret = text.substring(PREFIX.length() + 17);
    if (!ID.matcher(id).matches() || !SECRET.matcher(secret).matches()) {
      return Optional.empty();
    }
    return Optional.of(new Presented(id, secret));
  }

  /** Whether {@code id} has a key id's form. */
  public static boolean isId(String id) {
    return id != null && ID.matcher(id).matches();
  }

  /** SHA-256 of the UTF-8 bytes of {@code text}. */
  public static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Equality of two digests in time independent of where they differ. */
  public static boolean sameDigest(byte[] a, byte[] b) {
    return a != null && b != null && MessageDigest.isEqual(a, b);
  }
}
