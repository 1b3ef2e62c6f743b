package io.freshet.cadence.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A cadence configuration that cannot be used. Carries every bad field, not just the first, so that
 * a user fixes them all in one round trip.
 */
public class InvalidCadenceException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient List<FieldError> errors;

  public InvalidCadenceException(List<FieldError> errors) {
    super(errors.stream().map(FieldError::toString).collect(Collectors.joining("; ")));
    if (errors.isEmpty()) {
      throw new IllegalArgumentException("an invalid cadence needs at least one field error");
    }
    this.errors = List.copyOf(errors);
  }

  public InvalidCadenceException(String field, String message) {
    this(List.of(new FieldError(field, message)));
  }

  /** Every bad field with its message, in the order they were found. */
  public List<FieldError> errors() {
    return errors;
  }
}
