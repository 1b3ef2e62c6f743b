package io.freshet.sink.api;

import io.freshet.kit.security.Secrets;
import java.util.List;
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
 * <p>What is a secret is the service kit's one rule ({@link Secrets}, the scheduler's too): a key
 * whose name holds one ({@code sync_token}, {@code next_page_token}, {@code api-key}; not {@code
 * monkey}, {@code signal} or {@code sync_token_param}, which only names a parameter), or a value
 * that is a credential by its form ({@code Bearer …}, a JWT). {@code etag}, {@code last_modified},
 * {@code since}, the emitted-items digest {@code seen} and {@code last_fetch_at} stay readable. A
 * string value that is a URL (a next-page link) keeps its path but has its {@code user:password@}
 * and the values of its secret query parameters masked.
 */
public final class CursorRedactor {

  /** What a masked value becomes (the scheduler's mask). */
  public static final String MASK = Secrets.MASK;

  private static final Pattern URL = Pattern.compile("(?i)https?://\\S+");

  private CursorRedactor() {}

  /** Whether a cursor key (or a URL's query parameter) named {@code name} holds a secret. */
  public static boolean isSecret(String name) {
    return Secrets.isSecretName(name);
  }

  /** A masked deep copy of {@code cursor}; null stays null. */
  public static JsonNode redact(JsonNode cursor) {
    return cursor == null ? null : redactNode(cursor.deepCopy());
  }

  private static JsonNode redactNode(JsonNode node) {
    if (node instanceof ObjectNode object) {
      for (String key : List.copyOf(object.propertyNames())) {
        JsonNode value = object.get(key);
        if (!value.isNull()
            && (isSecret(key) || (value.isString() && Secrets.looksSecret(value.stringValue())))) {
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
    return text == null || !URL.matcher(text).matches() ? text : Secrets.redactUrl(text);
  }
}
