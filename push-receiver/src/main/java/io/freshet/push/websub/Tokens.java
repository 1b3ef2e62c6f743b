package io.freshet.push.websub;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The unguessable callback path token and the {@code hub.secret} of a subscription: 32 random bytes
 * each (256 bits), base64url without padding (43 characters, safe in a URL path and in a form). The
 * WebSub Recommendation requires a secret shorter than 200 bytes.
 */
public final class Tokens {

  /** What a token in a callback path looks like; anything else is not looked up. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{43}");

  private final SecureRandom random;

  public Tokens(SecureRandom random) {
    this.random = random;
  }

  public Tokens() {
    this(new SecureRandom());
  }

  public String callbackToken() {
    return random256();
  }

  public String secret() {
    return random256();
  }

  private String random256() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Whether {@code s} has the shape of a token (checked before any database look-up). */
  public static boolean wellFormed(String s) {
    return s != null && TOKEN.matcher(s).matches();
  }

  /** The first six characters and an ellipsis: enough to tell tokens apart in a log. */
  public static String redact(String token) {
    if (token == null) {
      return "null";
    }
    return token.length() <= 6 ? "…" : token.substring(0, 6) + "…";
  }
}
