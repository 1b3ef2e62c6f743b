package io.freshet.sink.api;

import io.freshet.sink.retention.UnknownContentException;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Turns every failure into {@link ApiError}: the API's own refusals, unknown content ids (404),
 * Spring MVC's (bad path variable or parameter, unreadable body — naming the JSON field), the
 * database being unreachable (503 with Retry-After) and, as 500, anything unexpected, whose details
 * go to the log, never to the client.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

  @ExceptionHandler(ApiException.class)
  ResponseEntity<ApiError> api(ApiException e) {
    return ApiError.response(e.status(), e.messages());
  }

  @ExceptionHandler(UnknownContentException.class)
  ResponseEntity<ApiError> unknownContent(UnknownContentException e) {
    return ApiError.response(
        HttpStatus.NOT_FOUND,
        List.of("content_ids: unknown content id(s) " + e.ids() + "; nothing was changed"));
  }

  @ExceptionHandler({
    org.springframework.dao.DataAccessResourceFailureException.class,
    org.springframework.transaction.CannotCreateTransactionException.class
  })
  ResponseEntity<ApiError> databaseUnavailable(Exception e) {
    log.warn("request failed: database unavailable ({})", rootCause(e));
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, "5")
        .body(
            ApiError.of(
                HttpStatus.SERVICE_UNAVAILABLE,
                List.of("database unavailable; retry in a few seconds")));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<ApiError> unexpected(Exception e) {
    log.error("request failed", e);
    return ApiError.response(
        HttpStatus.INTERNAL_SERVER_ERROR, List.of("internal error; see the service log"));
  }

  @Override
  protected ResponseEntity<Object> handleTypeMismatch(
      TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String name =
        ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
    Class<?> type = ex.getRequiredType();
    String expected =
        type == long.class || type == Long.class
            ? "must be a whole number"
            : "must be a valid "
                + (type == null ? "value" : type.getSimpleName().toLowerCase(Locale.ROOT));
    return body(headers, status, name + ": " + expected);
  }

  @Override
  protected ResponseEntity<Object> handleMissingServletRequestParameter(
      MissingServletRequestParameterException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    return body(headers, status, ex.getParameterName() + ": query parameter is required");
  }

  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    Throwable cause = ex.getMostSpecificCause();
    String message;
    if (cause instanceof UnrecognizedPropertyException unknown) {
      message = path(unknown, unknown.getPropertyName()) + ": unknown field";
    } else if (cause instanceof DatabindException bad && !bad.getPath().isEmpty()) {
      message = path(bad, null) + ": " + firstLine(bad.getOriginalMessage());
    } else if (cause instanceof JacksonException json) {
      var at = json.getLocation();
      message =
          "body: not valid JSON"
              + (at == null || at.getLineNr() < 1
                  ? ""
                  : " at line " + at.getLineNr() + ", column " + at.getColumnNr())
              + ": "
              + firstLine(json.getOriginalMessage());
    } else {
      message = "body: is missing or cannot be read";
    }
    return body(headers, status, message);
  }

  /** Spring MVC's other errors: its own detail text as the one message. */
  @Override
  protected ResponseEntity<Object> handleExceptionInternal(
      Exception ex, Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    if (body instanceof ApiError) {
      return new ResponseEntity<>(body, headers, status);
    }
    String detail = body instanceof ProblemDetail p ? p.getDetail() : null;
    return body(headers, status, detail == null ? ApiError.reason(status) : detail);
  }

  // The JSON path of the bad value: content_ids[2], or the unknown field's own path.
  private static String path(DatabindException e, String leafOverride) {
    var out = new StringBuilder();
    var refs = e.getPath();
    for (int i = 0; i < refs.size(); i++) {
      var ref = refs.get(i);
      String name = ref.getPropertyName();
      if (name != null) {
        if (!out.isEmpty()) {
          out.append('.');
        }
        out.append(i == refs.size() - 1 && leafOverride != null ? leafOverride : name);
      } else if (ref.getIndex() >= 0) {
        out.append('[').append(ref.getIndex()).append(']');
      }
    }
    return out.isEmpty() ? "body" : out.toString();
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "cannot be read";
    }
    int newline = s.indexOf('\n');
    return newline < 0 ? s : s.substring(0, newline);
  }

  private static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  private static ResponseEntity<Object> body(
      HttpHeaders headers, HttpStatusCode status, String message) {
    return new ResponseEntity<>(ApiError.of(status, List.of(message)), headers, status);
  }
}
