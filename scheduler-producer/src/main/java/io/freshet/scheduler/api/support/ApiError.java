package io.freshet.scheduler.api.support;

import java.util.List;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;

/**
 * The body of every error response: the status, its reason phrase and one message per problem (for
 * a rejected payload, one per bad field, each starting with the field's path).
 */
public record ApiError(int status, String error, List<String> messages) {

  static ApiError of(HttpStatusCode status, List<String> messages) {
    return new ApiError(status.value(), reason(status), List.copyOf(messages));
  }

  static ResponseEntity<ApiError> response(HttpStatusCode status, List<String> messages) {
    return ResponseEntity.status(status).body(of(status, messages));
  }

  static String reason(HttpStatusCode status) {
    var known = org.springframework.http.HttpStatus.resolve(status.value());
    return known == null ? "Error" : known.getReasonPhrase();
  }
}
