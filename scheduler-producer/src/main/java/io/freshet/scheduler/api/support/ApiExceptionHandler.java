package io.freshet.scheduler.api.support;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import tools.jackson.core.JacksonException;

/**
 * Turns every failure into {@link ApiError}: the API's own refusals, Spring MVC's (bad path
 * variable, missing parameter, unsupported content type, unknown path, wrong method), a
 * controller's {@code ResponseStatusException} (its reason is the message) and, as 500, anything
 * unexpected — whose details go to the log, never to the client.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

  @ExceptionHandler(ApiException.class)
  ResponseEntity<ApiError> api(ApiException e) {
    return ApiError.response(e.status(), e.messages());
  }

  /**
   * PostgreSQL unreachable: 503 as soon as the pool gives up (its connection timeout), with a hint
   * to retry, and one log line per failed request instead of a stack trace.
   */
  @ExceptionHandler({
    org.springframework.dao.DataAccessResourceFailureException.class,
    org.springframework.transaction.CannotCreateTransactionException.class
  })
  ResponseEntity<ApiError> databaseUnavailable(Exception e) {
    log.warn("request failed: database unavailable ({})", SecretRedactor.redactText(rootCause(e)));
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, "5")
        .body(
            ApiError.of(
                HttpStatus.SERVICE_UNAVAILABLE,
                List.of("database unavailable; retry in a few seconds")));
  }

  /** Every cause's class and redacted message, then where the root cause was thrown. */
  static String describe(Throwable e) {
    StringBuilder text = new StringBuilder();
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      text.append(text.isEmpty() ? "" : " <- caused by ")
          .append(t.getClass().getName())
          .append(": ")
          .append(SecretRedactor.redactText(String.valueOf(t.getMessage())));
      root = t;
    }
    StackTraceElement[] frames = root.getStackTrace();
    for (int i = 0; i < Math.min(8, frames.length); i++) {
      text.append("\n\tat ").append(frames[i]);
    }
    return text.toString();
  }

  private static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  /**
   * Anything else: 500. The log line has each cause's message with URLs and secret-looking JSON
   * values redacted (a database error quotes the failing row: url, config) and where the root cause
   * was thrown, but no raw stack trace, whose messages could not be redacted.
   */
  @ExceptionHandler(Exception.class)
  ResponseEntity<ApiError> unexpected(Exception e) {
    log.error("request failed: {}", describe(e));
    return ApiError.response(
        HttpStatus.INTERNAL_SERVER_ERROR, List.of("internal error; see the service log"));
  }

  @Override
  protected ResponseEntity<Object> handleTypeMismatch(
      TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String name =
        ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
    String expected =
        ex.getRequiredType() == java.util.UUID.class
            ? "must be a UUID"
            : "must be a valid " + simpleName(ex.getRequiredType());
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
  protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(
      HttpMediaTypeNotSupportedException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    String supported =
        String.join(", ", ex.getSupportedMediaTypes().stream().map(Object::toString).toList());
    return body(
        headers,
        status,
        "Content-Type "
            + (ex.getContentType() == null ? "(none)" : ex.getContentType())
            + " is not supported here; use "
            + supported);
  }

  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    JacksonException json = null;
    for (Throwable t = ex; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof RequestBodyChecks.TooLarge tooLarge) {
        return body(headers, HttpStatus.CONTENT_TOO_LARGE, tooLarge.getMessage());
      }
      if (json == null && t instanceof JacksonException j) {
        json = j;
      }
    }
    String message =
        json != null ? BindingMessages.of(json) : "body: is empty; expected a JSON object";
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
    if (ex instanceof ResponseStatusException rse && rse.getReason() != null) {
      // a controller's own reason (e.g. the runs endpoint's "window_end: required ...")
      detail = rse.getReason();
    }
    return body(headers, status, detail == null ? ApiError.reason(status) : detail);
  }

  private static ResponseEntity<Object> body(
      HttpHeaders headers, HttpStatusCode status, String message) {
    return new ResponseEntity<>(ApiError.of(status, List.of(message)), headers, status);
  }

  private static String simpleName(Class<?> type) {
    return type == null ? "value" : type.getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }
}
