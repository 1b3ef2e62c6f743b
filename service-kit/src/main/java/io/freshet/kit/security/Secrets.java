package io.freshet.kit.security;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one rule for what is a secret, for every service that shows stored configuration, cursors or
 * URLs: by name ({@link #isSecretName}) and by the value's form ({@link #looksSecret}), and the URL
 * form of both ({@link #redactUrl}). The scheduler's API and the sink's cursor views apply it; a
 * second copy of the rule in a service drifts (one did, and masked less).
 */
public final class Secrets {

  /** What a masked value becomes. */
  public static final String MASK = "***";

  /** Name fragments that make a key or a query parameter a secret wherever they appear. */
  static final List<String> CONTAINS =
      List.of(
          "token",
          "secret",
          "password",
          "passwd",
          "apikey",
          "api_key",
          "signature",
          "session",
          "sessid",
          "cookie",
          "credential",
          "authorization",
          "private");

  /** Whole words of a name ({@code x-api-key}, {@code authKey}) that make it a secret. */
  static final Set<String> WORDS = Set.of("key", "auth", "sig", "pwd", "pass", "sid", "jwt");

  /**
   * Last words of a name that make it the name, place or kind of something rather than its value:
   * {@code sync_token_param}, {@code token_pointer}, {@code auth_mode}, {@code api_key_name}.
   */
  static final Set<String> NAMING =
      Set.of(
          "param",
          "parameter",
          "pointer",
          "path",
          "field",
          "name",
          "mode",
          "format",
          "selector",
          "location",
          "style",
          "type",
          "kind");

  private static final Pattern WORD_BREAK = Pattern.compile("[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])");

  /** Credentials by their form: an Authorization scheme with its value, a Freshet key, a JWT. */
  private static final Pattern SECRET_VALUE =
      Pattern.compile(
          "(?i)^\\s*(?:(?:bearer|basic|digest|token|apikey)\\s+\\S{4,}"
              + "|fk_[a-z0-9]{16}_[A-Za-z0-9_-]{20,}"
              + "|eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*)\\s*$");

  private Secrets() {}

  /** Whether a key or query parameter named {@code name} holds a secret. */
  public static boolean isSecretName(String name) {
    String[] words = WORD_BREAK.split(name);
    if (words.length > 1 && NAMING.contains(words[words.length - 1].toLowerCase(Locale.ROOT))) {
      return false;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (CONTAINS.stream().anyMatch(lower::contains)) {
      return true;
    }
    for (String word : words) {
      if (WORDS.contains(word.toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a value is a credential by its form, whatever its name: {@code Bearer …}, {@code Basic
   * …} (an Authorization header's value), a Freshet API key ({@code fk_<id>_<secret>}) or a JWT.
   */
  public static boolean looksSecret(String value) {
    return value != null && value.length() <= 10_000 && SECRET_VALUE.matcher(value).matches();
  }

  /**
   * {@code url} with its {@code user:password@} and the values of its secret query parameters (by
   * name or by form) replaced by {@value #MASK}; everything else as it was. Null stays null.
   */
  public static String redactUrl(String url) {
    if (url == null) {
      return null;
    }
    UrlParts parts = UrlParts.of(url);
    StringBuilder out = new StringBuilder(parts.beforeQuery());
    if (parts.query() != null) {
      out.append('?');
      List<String> params = new ArrayList<>();
      for (String param : parts.query().split("&", -1)) {
        int eq = param.indexOf('=');
        String name = eq < 0 ? param : param.substring(0, eq);
        params.add(
            eq >= 0 && masksParam(name, param.substring(eq + 1)) ? name + "=" + MASK : param);
      }
      out.append(String.join("&", params));
    }
    return out.append(parts.fragment()).toString();
  }

  /** Whether the query parameter {@code rawName=rawValue} (still URL-encoded) is masked. */
  public static boolean masksParam(String rawName, String rawValue) {
    return isSecretName(decode(rawName)) || looksSecret(decode(rawValue));
  }

  /** {@code text} URL-decoded; as it is when it is not valid URL encoding. */
  public static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  /**
   * A URL cut where the redactor needs it, with {@code user:password@} already masked.
   *
   * @param query the raw query without {@code ?}, or null
   * @param fragment {@code #…} or empty
   */
  public record UrlParts(String beforeQuery, String query, String fragment) {

    /** {@code url} cut at its query and fragment. */
    public static UrlParts of(String url) {
      int hash = url.indexOf('#');
      String fragment = hash < 0 ? "" : url.substring(hash);
      String rest = hash < 0 ? url : url.substring(0, hash);
      int question = rest.indexOf('?');
      String query = question < 0 ? null : rest.substring(question + 1);
      String before = question < 0 ? rest : rest.substring(0, question);
      int scheme = before.indexOf("://");
      if (scheme >= 0) {
        int start = scheme + 3;
        int slash = before.indexOf('/', start);
        int end = slash < 0 ? before.length() : slash;
        int at = before.lastIndexOf('@', end - 1);
        if (at >= start) {
          before = before.substring(0, start) + MASK + before.substring(at);
        }
      }
      return new UrlParts(before, query, fragment);
    }
  }
}
