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
 * <p>A value is masked because it is a secret, not because its name mentions one. A name holds a
 * secret when it contains, in any case, one of {@link #CONTAINS} ({@code sync_TOKEN}, {@code
 * ClientSecret}, {@code X-Amz-Signature}), or one of its words — split at non-letters and at
 * camel-case humps — is one of {@link #WORDS} ({@code X-Api-Key}, {@code sig}, {@code X-Auth}; but
 * not {@code monkey}, {@code author} or {@code signal}) — unless its last word says that it
 * <em>names</em> something ({@link #NAMING}: {@code sync_token_param} is the name of the query
 * parameter that carries the token, {@code sync_token_pointer} where to find it; neither is a
 * secret). Whatever its name, a string value that is itself a credential ({@link #looksSecret}:
 * {@code Bearer …}, {@code Basic …}, a Freshet key, a JWT) is masked too.
 *
 * <p>What a client reads it can write back: {@link #restore} puts the stored secret back where an
 * update sends the mask in place of a value the API masked. A mask anywhere else is refused ({@link
 * #maskedFields}), so that {@code ***} is never stored in place of a secret.
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

  private SecretRedactor() {}

  /** Whether a key or query parameter named {@code name} holds a secret. */
  public static boolean isSecret(String name) {
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

  /** Whether the API masks the value {@code value} found under the key {@code name}. */
  static boolean masks(String name, JsonNode value) {
    return isSecret(name)
        || (value != null && value.isString() && looksSecret(value.stringValue()));
  }

  /** A redacted deep copy of a JSON document ({@code config}, {@code cursor}); null stays null. */
  public static JsonNode redact(JsonNode node) {
    return node == null ? null : redactNode(node.deepCopy());
  }

  private static JsonNode redactNode(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (String key : List.copyOf(object.propertyNames())) {
        if (masks(key, object.get(key))) {
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
        params.add(
            eq >= 0 && masksParam(name, param.substring(eq + 1)) ? name + "=" + MASK : param);
      }
      out.append(String.join("&", params));
    }
    return out.append(parts.fragment()).toString();
  }

  /** Whether the query parameter {@code rawName=rawValue} (still URL-encoded) is masked. */
  private static boolean masksParam(String rawName, String rawValue) {
    return isSecret(decode(rawName)) || looksSecret(decode(rawValue));
  }

  /**
   * What an update means when it sends back what the API showed: every {@value #MASK} in {@code
   * sent} where the API masks the {@code stored} value at the same place is that stored value
   * again. A mask anywhere else stays (and {@link #maskedFields} refuses it under a secret name).
   * Returns a copy; null stays null.
   */
  public static JsonNode restore(JsonNode sent, JsonNode stored) {
    return sent == null ? null : restoreNode(sent.deepCopy(), stored);
  }

  private static JsonNode restoreNode(JsonNode sent, JsonNode stored) {
    if (stored == null) {
      return sent;
    }
    if (sent instanceof ObjectNode object && stored.isObject()) {
      for (String key : List.copyOf(object.propertyNames())) {
        JsonNode value = object.get(key);
        JsonNode before = stored.get(key);
        if (before != null && isMask(value) && masks(key, before)) {
          object.set(key, before.deepCopy());
        } else {
          restoreNode(value, before);
        }
      }
    } else if (sent instanceof ArrayNode array && stored.isArray()) {
      for (int i = 0; i < array.size() && i < stored.size(); i++) {
        restoreNode(array.get(i), stored.get(i));
      }
    }
    return sent;
  }

  private static boolean isMask(JsonNode value) {
    return value != null && value.isString() && MASK.equals(value.stringValue());
  }

  /**
   * {@code sent} with each masked query value ({@code api_key=***}) that the API masks in {@code
   * stored} replaced by the stored value of the parameter of that name (its n-th occurrence for the
   * n-th), provided the URL keeps its origin (scheme, host and port): a stored secret never follows
   * a URL to another server unless the user sends it again. Everything else as sent; null stays
   * null.
   */
  public static String restoreUrl(String sent, String stored) {
    if (sent == null || !sameOrigin(sent, stored)) {
      return sent;
    }
    UrlParts now = UrlParts.of(sent);
    String storedQuery = UrlParts.of(stored).query();
    if (now.query() == null || storedQuery == null) {
      return sent;
    }
    java.util.Map<String, List<String>> storedValues = new java.util.HashMap<>();
    for (String param : storedQuery.split("&", -1)) {
      int eq = param.indexOf('=');
      if (eq >= 0 && masksParam(param.substring(0, eq), param.substring(eq + 1))) {
        storedValues
            .computeIfAbsent(decode(param.substring(0, eq)), k -> new ArrayList<>())
            .add(param.substring(eq + 1));
      }
    }
    java.util.Map<String, Integer> seen = new java.util.HashMap<>();
    List<String> params = new ArrayList<>();
    for (String param : now.query().split("&", -1)) {
      int eq = param.indexOf('=');
      if (eq >= 0 && MASK.equals(decode(param.substring(eq + 1)))) {
        String name = decode(param.substring(0, eq));
        int n = seen.merge(name, 1, Integer::sum) - 1;
        List<String> values = storedValues.getOrDefault(name, List.of());
        if (n < values.size()) {
          params.add(param.substring(0, eq) + "=" + values.get(n));
          continue;
        }
      }
      params.add(param);
    }
    int question = sent.indexOf('?');
    return sent.substring(0, question + 1) + String.join("&", params) + now.fragment();
  }

  /** Whether two URLs have the same scheme, host and port. */
  public static boolean sameOrigin(String a, String b) {
    return a != null && b != null && origin(a).equals(origin(b));
  }

  /** {@code scheme://host:port} of a URL, lower-cased; the text before the path if unparsable. */
  private static String origin(String url) {
    try {
      java.net.URI uri = new java.net.URI(UrlParts.of(url).beforeQuery());
      return (uri.getScheme() + "://" + uri.getRawAuthority()).toLowerCase(Locale.ROOT);
    } catch (java.net.URISyntaxException e) {
      String before = UrlParts.of(url).beforeQuery();
      int slash = before.indexOf('/', before.indexOf("://") + 3);
      return (slash < 0 ? before : before.substring(0, slash)).toLowerCase(Locale.ROOT);
    }
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
                    isSecret(m.group(1)) || looksSecret(m.group(3))
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
