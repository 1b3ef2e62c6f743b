package io.freshet.scheduler.api.support;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.ConstraintViolation;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The API's one wording of binding and validation problems: {@code "<field>: <what is wrong>"}, the
 * field named as in JSON ({@code tenant_id}, {@code config.cadence.expression}).
 */
final class BindingMessages {

  static final String INSTANT_EXAMPLE = "an ISO-8601 instant such as 2026-11-22T12:00:00Z";

  private BindingMessages() {}

  /** A body Jackson could not read or bind, as one message. */
  static String of(JacksonException e) {
    if (e instanceof UnrecognizedPropertyException unknown) {
      return path(unknown)
          + ": unknown field; allowed fields: "
          + unknown.getKnownPropertyIds().stream().map(Object::toString).sorted().toList().stream()
              .collect(Collectors.joining(", "));
    }
    if (e instanceof MismatchedInputException mismatch) {
      String path = path(mismatch);
      return (path.isEmpty() ? "body" : path) + ": " + expected(mismatch, path.isEmpty());
    }
    return "body: " + Json.describe(e, true);
  }

  private static String expected(MismatchedInputException e, boolean whole) {
    Class<?> type = e.getTargetType();
    if (whole || type == null) {
      return "must be a JSON object";
    }
    if (type == String.class) {
      return "must be a string";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "must be a whole number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "must be true or false";
    }
    if (type == Instant.class) {
      return e instanceof InvalidFormatException f && f.getValue() != null
          ? "'" + f.getValue() + "' is not " + INSTANT_EXAMPLE
          : "must be " + INSTANT_EXAMPLE;
    }
    if (type.isEnum()) {
      @SuppressWarnings("unchecked")
      Class<? extends Enum<?>> enumType = (Class<? extends Enum<?>>) type;
      return "unknown " + WireNames.noun(type) + "; allowed values: " + WireNames.allowed(enumType);
    }
    if (type.isRecord()
        || Map.class.isAssignableFrom(type)
        || JsonNode.class.isAssignableFrom(type)) {
      return "must be a JSON object";
    }
    return "has the wrong type";
  }

  private static String path(MismatchedInputException e) {
    StringBuilder path = new StringBuilder();
    for (var ref : e.getPath()) {
      if (ref.getPropertyName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /**
   * Bean validation's violations of a request record, one message each, in the order of the
   * record's fields (then by path and message), so that a response lists them as the body does.
   */
  static List<String> of(Collection<? extends ConstraintViolation<?>> violations, Class<?> type) {
    List<String> order =
        type.isRecord()
            ? Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList()
            : List.of();
    return violations.stream()
        .map(v -> new Problem(v.getPropertyPath().toString(), v.getMessage()))
        .sorted(
            Comparator.comparingInt((Problem p) -> rank(order, p.firstSegment()))
                .thenComparing(Problem::path)
                .thenComparing(Problem::message))
        .map(p -> jsonPath(type, p) + ": " + p.message())
        .distinct()
        .toList();
  }

  private static int rank(List<String> order, String component) {
    int at = order.indexOf(component);
    return at < 0 ? Integer.MAX_VALUE : at;
  }

  private static String jsonPath(Class<?> type, Problem p) {
    if (p.path().isEmpty()) {
      return "body";
    }
    String first = p.firstSegment();
    String rest = p.path().substring(first.length());
    return jsonName(type, first) + rest;
  }

  /** The JSON name of a record field: its {@code @JsonProperty}, else its Java name. */
  static String jsonName(Class<?> type, String field) {
    try {
      JsonProperty property = type.getDeclaredField(field).getAnnotation(JsonProperty.class);
      return property == null || property.value().isEmpty() ? field : property.value();
    } catch (NoSuchFieldException e) {
      return field;
    }
  }

  private record Problem(String path, String message) {
    String firstSegment() {
      int dot = path.indexOf('.');
      int bracket = path.indexOf('[');
      int end = path.length();
      if (dot >= 0) {
        end = dot;
      }
      if (bracket >= 0 && bracket < end) {
        end = bracket;
      }
      return path.substring(0, end);
    }
  }
}
