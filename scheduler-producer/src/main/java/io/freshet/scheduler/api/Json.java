package io.freshet.scheduler.api;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strict JSON reading for request bodies: duplicate keys and trailing content are errors, and a
 * syntax error says where it is.
 */
final class Json {

  static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private Json() {}

  /**
   * Parses {@code text}.
   *
   * @param what the prefix of the error message, e.g. {@code body} or {@code line 3}
   * @throws ApiException 400 naming the position of the syntax error
   */
  static JsonNode parse(String text, String what) {
    if (text == null || text.isBlank()) {
      throw ApiException.badRequest(what + ": is empty; expected a JSON object");
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JacksonException e) {
      throw ApiException.badRequest(what + ": " + describe(e, true));
    }
    String nul = findNul(node, "");
    if (nul != null) {
      throw ApiException.badRequest(
          what + ": " + (nul.isEmpty() ? "" : nul + ": ") + NulCharacterFilter.MESSAGE);
    }
    return node;
  }

  /**
   * The JSON pointer of the first name or string value holding U+0000 (PostgreSQL cannot store it),
   * or null when there is none.
   */
  private static String findNul(JsonNode node, String path) {
    if (node.isString()) {
      return node.asString().indexOf('\0') >= 0 ? path : null;
    }
    if (node.isObject()) {
      for (var e : node.properties()) {
        String child = path + "/" + e.getKey().replace('\0', '?');
        if (e.getKey().indexOf('\0') >= 0) {
          return child;
        }
        String found = findNul(e.getValue(), child);
        if (found != null) {
          return found;
        }
      }
    }
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String found = findNul(node.get(i), path + "/" + i);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /**
   * A syntax error as "not valid JSON at line L, column C: reason" (without the line for a one-line
   * document such as an NDJSON line).
   */
  static String describe(JacksonException e, boolean withLine) {
    TokenStreamLocation at = e.getLocation();
    String where;
    if (at == null || at.getLineNr() < 1) {
      where = "";
    } else if (withLine) {
      where = " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    } else {
      where = " at column " + at.getColumnNr();
    }
    String reason = e.getOriginalMessage();
    // Jackson quotes a slice of the input after the reason; keep just the first line.
    int newline = reason == null ? -1 : reason.indexOf('\n');
    if (newline >= 0) {
      reason = reason.substring(0, newline);
    }
    return "not valid JSON" + where + ": " + reason;
  }

  /** Compact JSON text of {@code node}. */
  static String write(JsonNode node) {
    return MAPPER.writeValueAsString(node);
  }

  /** Parses JSON text read from the database (always valid). */
  static JsonNode read(String text) {
    return text == null ? null : MAPPER.readTree(text);
  }
}
