package io.freshet.scheduler.api;

import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Hides the values of secret-looking keys in a source's cursor before the API shows it: a sync or
 * session token in a cursor opens the source just like its credentials do. A key is secret-looking
 * when it contains, in any case, one of {@link #MARKERS}; its whole value becomes {@value #MASK}.
 * Nested objects and arrays are searched too.
 */
final class CursorRedactor {

  static final String MASK = "***";
  static final List<String> MARKERS =
      List.of("token", "secret", "password", "key", "auth", "cookie", "session");

  private CursorRedactor() {}

  /** A redacted deep copy of {@code cursor}; the argument is left unchanged. */
  static JsonNode redact(JsonNode cursor) {
    if (cursor == null) {
      return null;
    }
    return redactNode(cursor.deepCopy());
  }

  static boolean isSecret(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    return MARKERS.stream().anyMatch(lower::contains);
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
      array.forEach(CursorRedactor::redactNode);
    }
    return node;
  }
}
