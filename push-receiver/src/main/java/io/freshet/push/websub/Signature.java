package io.freshet.push.websub;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The check of a notification's {@code X-Hub-Signature: method=signature}: an HMAC over the raw
 * body keyed with the subscription's {@code hub.secret}, in hex, with {@code method} one of sha1,
 * sha256, sha384, sha512. The comparison takes the same time wherever the first difference is.
 */
public final class Signature {

  private Signature() {}

  /** How a notification's signature turned out; anything but {@code VALID} is dropped. */
  public enum Result {
    VALID,
    /** no {@code X-Hub-Signature} header */
    MISSING,
    /** not {@code method=hex}, or hex of the wrong length */
    MALFORMED,
    /** a method other than sha1, sha256, sha384, sha512 */
    UNKNOWN_METHOD,
    /** well formed, but not the body's HMAC with this subscription's secret */
    MISMATCH;

    /** The metric tag value. */
    public String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Checks {@code header} (may be null) against {@code body} and {@code secret}. */
  public static Result check(String header, byte[] body, String secret) {
    if (header == null || header.isBlank()) {
      return Result.MISSING;
    }
    int eq = header.indexOf('=');
    if (eq <= 0) {
      return Result.MALFORMED;
    }
    String method = header.substring(0, eq).strip().toLowerCase(java.util.Locale.ROOT);
    String algorithm = algorithm(method);
    if (algorithm == null) {
      return Result.UNKNOWN_METHOD;
    }
    byte[] expected = hmac(algorithm, secret, body);
    byte[] given;
    try {
      given = HexFormat.of().parseHex(header.substring(eq + 1).strip());
    } catch (IllegalArgumentException e) {
      return Result.MALFORMED;
    }
    if (given.length != expected.length) {
      return Result.MALFORMED;
    }
    return MessageDigest.isEqual(expected, given) ? Result.VALID : Result.MISMATCH;
  }

  /** The header a hub would send: {@code method=hex(HMAC(secret, body))}. */
  public static String sign(String method, String secret, byte[] body) {
    String algorithm = algorithm(method);
    if (algorithm == null) {
      throw new IllegalArgumentException("unknown method " + method);
    }
    return method + "=" + HexFormat.of().formatHex(hmac(algorithm, secret, body));
  }

  private static String algorithm(String method) {
    return switch (method) {
      case "sha1" -> "HmacSHA1";
      case "sha256" -> "HmacSHA256";
      case "sha384" -> "HmacSHA384";
      case "sha512" -> "HmacSHA512";
      default -> null;
    };
  }

  private static byte[] hmac(String algorithm, String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance(algorithm);
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), algorithm));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm + " is not available", e);
    }
  }
}
