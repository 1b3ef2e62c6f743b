package io.freshet.scheduler.api.support;

import java.util.List;
import org.springframework.http.HttpStatus;

/** A request the API refuses, with the status and one message per problem. */
public final class ApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final HttpStatus status;
  private final transient List<String> messages;

  public ApiException(HttpStatus status, List<String> messages) {
    super(status + ": " + String.join("; ", messages));
    this.status = status;
    this.messages = List.copyOf(messages);
  }

  public static ApiException badRequest(List<String> messages) {
    return new ApiException(HttpStatus.BAD_REQUEST, messages);
  }

  public static ApiException badRequest(String message) {
    return badRequest(List.of(message));
  }

  public static ApiException notFound(String message) {
    return new ApiException(HttpStatus.NOT_FOUND, List.of(message));
  }

  public static ApiException conflict(String message) {
    return new ApiException(HttpStatus.CONFLICT, List.of(message));
  }

  public static ApiException tooLarge(String message) {
    return new ApiException(HttpStatus.CONTENT_TOO_LARGE, List.of(message));
  }

  public HttpStatus status() {
    return status;
  }

  public List<String> messages() {
    return messages;
  }
}
