package io.freshet.scheduler.api.support;

import io.freshet.kit.web.ApiException;
import io.freshet.kit.web.QueryParameterFilter;
import java.util.Optional;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The API's JSON: Spring's one {@link JsonMapper}, made strict for request bodies by {@link
 * #strict} (duplicate keys, trailing content, unknown fields and lossy coercions such as {@code
 * 1.5} to a whole number or {@code 42} to a string are errors), and the helpers around it.
 */
@Component
public final class Json {

  private final JsonMapper mapper;

  public Json(JsonMapper mapper) {
    this.mapper = mapper;
  }

  /** The strict reading rules; applied to Spring's mapper by the API's configuration. */
  public static JsonMapper.Builder strict(JsonMapper.Builder builder) {
    return builder
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .enable(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
        .withCoercionConfig(
            LogicalType.Textual,
            c ->
                c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
        .withCoercionConfig(
            LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
        .withCoercionConfig(
            LogicalType.Boolean,
            c ->
                c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail));
  }

  public JsonMapper mapper() {
    return mapper;
  }

  /**
   * Parses a JSON document that is not a request body bound by Spring (an NDJSON line).
   *
   * @param what the prefix of the error message, e.g. {@code line 3}
   * @throws ApiException 400 naming the position of the syntax error or of a NUL character
   */
  public JsonNode parse(String text, String what) {
    if (text == null || text.isBlank()) {
      throw ApiException.badRequest(what + ": is empty; expected a JSON object");
    }
    JsonNode node;
    try {
      node = mapper.readTree(text);
    } catch (JacksonException e) {
      throw ApiException.badRequest(what + ": " + describe(e, text.indexOf('\n') >= 0));
    }
    Optional<String> nul = nulPath(node);
    if (nul.isPresent()) {
      throw ApiException.badRequest(
          what
              + ": "
              + (nul.get().isEmpty() ? "" : nul.get() + ": ")
              + QueryParameterFilter.NUL_MESSAGE);
    }
    return node;
  }

  /** Parses JSON text read from the database (always valid); null stays null. */
  public JsonNode read(String text) {
    return text == null ? null : mapper.readTree(text);
  }

  /** Compact JSON text of {@code node}. */
  public String write(JsonNode node) {
    return mapper.writeValueAsString(node);
  }

  /**
   * The JSON pointer of the first name or string value holding U+0000 (PostgreSQL cannot store it),
   * if there is one.
   */
  public static Optional<String> nulPath(JsonNode node) {
    return Optional.ofNullable(findNul(node, ""));
  }

  private static String findNul(JsonNode node, String path) {
    if (node == null) {
      return null;
    }
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
  public static String describe(JacksonException e, boolean withLine) {
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
}
