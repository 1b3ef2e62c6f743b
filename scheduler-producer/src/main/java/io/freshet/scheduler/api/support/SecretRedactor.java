package io.freshet.scheduler.api.support;

import io.freshet.kit.security.Secrets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * <p>A value is masked because it is a secret, not because its name mentions one. The rule — by
 * name ({@code sync_TOKEN}, {@code X-Api-Key}, but not {@code monkey}, {@code signal} or {@code
 * sync_token_param}, which names the parameter that carries the token) and by form ({@code Bearer
 * …}, {@code Basic …}, a Freshet key, a JWT) — is the service kit's {@link Secrets}, shared with
 * the sink's cursor views.
 *
 * <p>What a client reads it can write back: {@link #restore} puts the stored secret back where an
 * update sends the mask in place of a value the API masked. A mask anywhere else is refused ({@link
 * #maskedFields}), so that {@code ***} is never stored in place of a secret.
 */
public final class SecretRedactor {

  public static final String MASK = Secrets.MASK;

  private SecretRedactor() {}

  /** Whether a key or query parameter named {@code name} holds a secret ({@link Secrets}). */
  public static boolean isSecret(String name) {
    return Secrets.isSecretName(name);
  }

  /** Whether a value is a credential by its form, whatever its name ({@link Secrets}). */
  public static boolean looksSecret(String value) {
    return Secrets.looksSecret(value);
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

  /** {@code url} with its user info and secret query values masked ({@link Secrets#redactUrl}). */
  public static String redactUrl(String url) {
    return Secrets.redactUrl(url);
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
    Secrets.UrlParts now = Secrets.UrlParts.of(sent);
    String storedQuery = Secrets.UrlParts.of(stored).query();
    if (now.query() == null || storedQuery == null) {
      return sent;
    }
    java.util.Map<String, List<String>> storedValues = new java.util.HashMap<>();
    for (String param : storedQuery.split("&", -1)) {
      int eq = param.indexOf('=');
      if (eq >= 0 && Secrets.masksParam(param.substring(0, eq), param.substring(eq + 1))) {
        storedValues
            .computeIfAbsent(Secrets.decode(param.substring(0, eq)), k -> new ArrayList<>())
            .add(param.substring(eq + 1));
      }
    }
    java.util.Map<String, Integer> seen = new java.util.HashMap<>();
    List<String> params = new ArrayList<>();
    for (String param : now.query().split("&", -1)) {
      int eq = param.indexOf('=');
      if (eq >= 0 && MASK.equals(Secrets.decode(param.substring(eq + 1)))) {
        String name = Secrets.decode(param.substring(0, eq));
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
      java.net.URI uri = new java.net.URI(Secrets.UrlParts.of(url).beforeQuery());
      return (uri.getScheme() + "://" + uri.getRawAuthority()).toLowerCase(Locale.ROOT);
    } catch (java.net.URISyntaxException e) {
      String before = Secrets.UrlParts.of(url).beforeQuery();
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
    String query = url == null ? null : Secrets.UrlParts.of(url).query();
    for (String param : query == null ? new String[0] : query.split("&")) {
      int eq = param.indexOf('=');
      if (eq > 0
          && isSecret(Secrets.decode(param.substring(0, eq)))
          && MASK.equals(Secrets.decode(param.substring(eq + 1)))) {
        found.add(
            new Masked(
                "url", "query parameter " + Secrets.decode(param.substring(0, eq)) + " " + MASKED));
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
}
