package io.freshet.sink.api;

import java.util.List;
import org.springframework.http.HttpStatus;

/** A request the API refuses, with the status and one message per problem. */
final class ApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final HttpStatus status;
  private final transient List<String> messages;

  ApiException(HttpStatus status, List<String> messages) {
    super(status + ": " + String.join("; ", messages));
    this.status = status;
    this.messages = List.copyOf(messages);
  }

  static ApiException badRequest(String message) {
    return new ApiException(HttpStatus.BAD_REQUEST, List.of(message));
  }

  static ApiException notFound(String message) {
    return new ApiException(HttpStatus.NOT_FOUND, List.of(message));
  }

  static ApiException conflict(String message) {
    return new ApiException(HttpStatus.CONFLICT, List.of(message));
  }

  HttpStatus status() {
    return status;
  }

  List<String> messages() {
    return messages;
  }
}
