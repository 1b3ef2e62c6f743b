package io.freshet.sink.api;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Masks the secrets of a fetch cursor before the activity log shows it: a cursor carries the sync
 * tokens and page tokens a source handed out, which grant reads of that source's data, so their
 * values are secrets (the scheduler masks them the same way). Pure.
 *
 * <p>A key holds a secret when its name does, by the scheduler's rule: it contains one of {@link
 * #CONTAINS} in any case ({@code sync_token}, {@code next_page_token}, {@code client_secret}), or
 * one of its words — split at non-letters and camel-case humps — is one of {@link #WORDS} ({@code
 * api-key}, {@code sig}; not {@code monkey} or {@code signal}). A key that only <em>names</em> a
 * parameter or a place ({@code sync_token_param}, {@code sync_token_pointer}, {@code since_format})
 * holds no secret and stays readable, as do {@code etag}, {@code last_modified}, {@code since}, the
 * emitted-items digest {@code seen} and {@code last_fetch_at}. A string value that is a URL (a
 * next-page link) keeps its path but has its {@code user:password@} and the values of its
 * secret-looking query parameters masked.
 */
public final class CursorRedactor {

  /** What a masked value becomes (the scheduler's mask). */
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

  /** Suffixes of keys that name a parameter, a JSON pointer or a format: never a secret value. */
  static final List<String> DESCRIBES = List.of("_param", "_pointer", "_format", "_mode", "_name");

  private static final Pattern WORD_BREAK = Pattern.compile("[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])");
  private static final Pattern URL = Pattern.compile("(?i)https?://\\S+");

  private CursorRedactor() {}

  /** Whether a cursor key (or a URL's query parameter) named {@code name} holds a secret. */
  public static boolean isSecret(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (DESCRIBES.stream().anyMatch(lower::endsWith)) {
      return false;
    }
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

  /** A masked deep copy of {@code cursor}; null stays null. */
  public static JsonNode redact(JsonNode cursor) {
    return cursor == null ? null : redactNode(cursor.deepCopy());
  }

  private static JsonNode redactNode(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (String key : List.copyOf(object.propertyNames())) {
        JsonNode value = object.get(key);
        if (isSecret(key) && !value.isNull()) {
          object.set(key, StringNode.valueOf(MASK));
        } else if (value.isString()) {
          object.set(key, StringNode.valueOf(redactUrl(value.stringValue())));
        } else {
          redactNode(value);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        JsonNode value = array.get(i);
        if (value.isString()) {
          array.set(i, StringNode.valueOf(redactUrl(value.stringValue())));
        } else {
          redactNode(value);
        }
      }
    }
    return node;
  }

  /**
   * {@code text} unchanged unless it is a URL; a URL with its {@code user:password@} and the values
   * of its secret-looking query parameters masked.
   */
  static String redactUrl(String text) {
    if (text == null || !URL.matcher(text).matches()) {
      return text;
    }
    int hash = text.indexOf('#');
    String fragment = hash < 0 ? "" : text.substring(hash);
    String rest = hash < 0 ? text : text.substring(0, hash);
    int question = rest.indexOf('?');
    String before = question < 0 ? rest : rest.substring(0, question);
    int start = before.indexOf("://") + 3;
    int slash = before.indexOf('/', start);
    int end = slash < 0 ? before.length() : slash;
    int at = before.lastIndexOf('@', end - 1);
    if (at >= start) {
      before = before.substring(0, start) + MASK + before.substring(at);
    }
    if (question < 0) {
      return before + fragment;
    }
    StringBuilder out = new StringBuilder(before).append('?');
    String[] params = rest.substring(question + 1).split("&", -1);
    for (int i = 0; i < params.length; i++) {
      String param = params[i];
      int eq = param.indexOf('=');
      String name = eq < 0 ? param : param.substring(0, eq);
      out.append(i == 0 ? "" : "&")
          .append(eq >= 0 && isSecret(decode(name)) ? name + "=" + MASK : param);
    }
    return out.append(fragment).toString();
  }

  private static String decode(String text) {
    try {
      return java.net.URLDecoder.decode(text, java.nio.charset.StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }
}
