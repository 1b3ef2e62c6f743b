package io.freshet.cadence.config;

import java.util.Objects;

/**
 * One invalid field of a cadence configuration: the REST API returns one of these per bad field.
 *
 * @param field the JSON path of the field, e.g. {@code cadence.every_minutes}
 * @param message what is wrong and what is allowed
 */
public record FieldError(String field, String message) {
  public FieldError {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return field + ": " + message;
  }
}
