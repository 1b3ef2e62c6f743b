package io.freshet.kit.web;

import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The one error body of every Freshet API: an RFC 9457 problem ({@code application/problem+json})
 * with {@code type} (about:blank), {@code title} (the status's reason phrase), {@code status},
 * {@code detail} (the messages joined) and the extension {@code errors}: one message per problem,
 * each starting with the field or parameter it concerns ({@code "limit: must be between 1 and 1000,
 * got 0"}).
 */
public final class Problems {

  /** The name of the extension member listing one message per problem. */
  public static final String ERRORS = "errors";

  /** RFC 9457's type of a problem that is no more than its status. */
  public static final URI ABOUT_BLANK = URI.create("about:blank");

  private Problems() {}

  public static ProblemDetail of(HttpStatusCode status, List<String> errors) {
    List<String> list = List.copyOf(errors);
    ProblemDetail problem =
        ProblemDetail.forStatusAndDetail(status, list.isEmpty() ? null : String.join("; ", list));
    problem.setType(ABOUT_BLANK);
    problem.setTitle(title(status));
    problem.setProperty(ERRORS, list);
    return problem;
  }

  public static ProblemDetail of(HttpStatusCode status, String error) {
    return of(status, List.of(error));
  }

  /** The problem as a response, typed {@code application/problem+json}. */
  public static ResponseEntity<ProblemDetail> response(HttpStatusCode status, List<String> errors) {
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(of(status, errors));
  }

  public static ResponseEntity<ProblemDetail> response(HttpStatusCode status, String error) {
    return response(status, List.of(error));
  }

  /** The status's reason phrase ("Bad Request"), or "Error" for a code without one. */
  public static String title(HttpStatusCode status) {
    HttpStatus known = HttpStatus.resolve(status.value());
    return known == null ? "Error" : known.getReasonPhrase();
  }
}
