package io.freshet.kit.web;

import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * A request the API refuses: the status and one message per problem, each starting with the field
 * or parameter it concerns. {@link ProblemExceptionHandler} answers it as a problem (RFC 9457).
 */
public class ApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final HttpStatusCode status;
  private final transient List<String> errors;

  public ApiException(HttpStatusCode status, List<String> errors) {
    super(status + ": " + String.join("; ", errors));
    this.status = status;
    this.errors = List.copyOf(errors);
  }

  public static ApiException badRequest(List<String> errors) {
    return new ApiException(HttpStatus.BAD_REQUEST, errors);
  }

  public static ApiException badRequest(String error) {
    return badRequest(List.of(error));
  }

  public static ApiException notFound(String error) {
    return new ApiException(HttpStatus.NOT_FOUND, List.of(error));
  }

  public static ApiException conflict(String error) {
    return new ApiException(HttpStatus.CONFLICT, List.of(error));
  }

  public static ApiException tooLarge(String error) {
    return new ApiException(HttpStatus.CONTENT_TOO_LARGE, List.of(error));
  }

  public HttpStatusCode status() {
    return status;
  }

  /** One message per problem, each starting with the field or parameter it concerns. */
  public List<String> errors() {
    return errors;
  }
}
