package io.freshet.scheduler.api.support;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Hides secrets that users put where the API shows them: values of secret-looking keys in a
 * source's {@code config} and {@code cursor}, secret-looking query parameters of its {@code url}
 * ({@code ?api_key=…}) and a URL's {@code user:password@}. Each hidden value becomes {@value
 * #MASK}. The place for secrets is {@code credentials}, which are sealed and never shown.
 *
 * <p>A name is secret-looking when it contains, in any case, one of {@link #CONTAINS} ({@code
 * sync_TOKEN}, {@code ClientSecret}, {@code X-Amz-Signature}), or one of its words — split at
 * non-letters and at camel-case humps — is one of {@link #WORDS} ({@code X-Api-Key}, {@code sig},
 * {@code X-Auth}; but not {@code monkey}, {@code author} or {@code signal}).
 *
 * <p>A write must not store the mask itself (a client that read a source and sends it back): {@link
 * #maskedFields} finds where it would.
 */
public final class SecretRedactor {

  public static final String MASK = "***";

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

  static final Set<String> WORDS = Set.of("key", "auth", "sig", "pwd", "pass", "sid", "jwt");

  private static final Pattern WORD_BREAK = Pattern.compile("[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])");

  private SecretRedactor() {}

  /** Whether a key or query parameter named {@code name} holds a secret. */
  public static boolean isSecret(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (CONTAINS.stream().anyMatch(lower::contains)) {
      return true;
    }
    for (String word : WORD_BREAK.split(name)) {
      if (WORDS.contains(word.toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  /** A redacted deep copy of a JSON document ({@code config}, {@code cursor}); null stays null. */
  public static JsonNode redact(JsonNode node) {
    return node == null ? null : redactNode(node.deepCopy());
  }

  private static JsonNode redactNode(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (String key : List.copyOf(object.propertyNames())) {
        if (isSecret(key)) {
          object.set(key, StringNode.valueOf(MASK));
        } else {
          redactNode(object.get(key));
        }
      }
    } else if (node instanceof ArrayNode array) {
      array.forEach(SecretRedactor::redactNode);
    }
    return node;
  }

  /**
   * {@code url} with its {@code user:password@} and the values of its secret-looking query
   * parameters replaced by {@value #MASK}; everything else as it was. Null stays null.
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
        params.add(eq >= 0 && isSecret(decode(name)) ? name + "=" + MASK : param);
      }
      out.append(String.join("&", params));
    }
    return out.append(parts.fragment()).toString();
  }

  private static final Pattern URL_IN_TEXT = Pattern.compile("https?://[^\\s\"'<>(),]+");
  private static final Pattern JSON_PAIR =
      Pattern.compile("\"([^\"\\\\]{1,200})\"(\\s*:\\s*)\"((?:[^\"\\\\]|\\\\.)*)\"");

  /**
   * Free text (an exception's message that quotes a row or a request) with the URLs in it redacted
   * as {@link #redactUrl} does and the string values of secret-looking keys of any JSON in it
   * replaced by {@value #MASK}. For log lines.
   */
  public static String redactText(String text) {
    if (text == null) {
      return null;
    }
    String urls =
        URL_IN_TEXT.matcher(text).replaceAll(m -> Matcher.quoteReplacement(redactUrl(m.group())));
    return JSON_PAIR
        .matcher(urls)
        .replaceAll(
            m ->
                Matcher.quoteReplacement(
                    isSecret(m.group(1))
                        ? "\"" + m.group(1) + "\"" + m.group(2) + "\"" + MASK + "\""
                        : m.group()));
  }

  /** Where a request would store the mask: the JSON path and what is wrong there. */
  public record Masked(String path, String message) {
    @Override
    public String toString() {
      return path + ": " + message;
    }
  }

  /**
   * Where a request would store the mask: the {@code url}'s query parameters and the {@code config}
   * keys (paths such as {@code config.headers.X-Api-Key}) whose value is {@value #MASK} under a
   * secret-looking name.
   */
  public static List<Masked> maskedFields(String url, JsonNode config) {
    List<Masked> found = new ArrayList<>();
    String query = url == null ? null : UrlParts.of(url).query();
    for (String param : query == null ? new String[0] : query.split("&")) {
      int eq = param.indexOf('=');
      if (eq > 0
          && isSecret(decode(param.substring(0, eq)))
          && MASK.equals(decode(param.substring(eq + 1)))) {
        found.add(
            new Masked("url", "query parameter " + decode(param.substring(0, eq)) + " " + MASKED));
      }
    }
    findMask(config, "config", found);
    return found;
  }

  private static final String MASKED =
      "is the redaction mask "
          + MASK
          + "; send the real value, or better put the secret in credentials";

  private static void findMask(JsonNode node, String path, List<Masked> found) {
    if (node instanceof ObjectNode object) {
      for (var e : object.properties()) {
        String child = path + "." + e.getKey();
        if (isSecret(e.getKey())
            && e.getValue().isString()
            && MASK.equals(e.getValue().stringValue())) {
          found.add(new Masked(child, MASKED));
        } else {
          findMask(e.getValue(), child, found);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        findMask(array.get(i), path + "[" + i + "]", found);
      }
    }
  }

  private static String decode(String text) {
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
  private record UrlParts(String beforeQuery, String query, String fragment) {

    static UrlParts of(String url) {
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
