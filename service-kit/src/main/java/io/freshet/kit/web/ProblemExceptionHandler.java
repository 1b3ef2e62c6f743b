package io.freshet.kit.web;

import io.freshet.kit.kafka.Failures;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Turns every failure of a request into a problem ({@link Problems}): the API's own refusals
 * ({@link ApiException}), Spring MVC's (unreadable JSON naming the field, bad path variable or
 * parameter, missing parameter, validation, wrong method, unsupported content type, unknown path),
 * a body over the limit (413), the database unreachable (503 with Retry-After, one WARN line) and,
 * as 500, anything unexpected, whose details go to the log ({@link #describe}), never to the
 * client.
 *
 * <p>The kit registers one of these unless the service declares its own: a service with errors of
 * its own extends this class, annotates it {@code @RestControllerAdvice} and adds its handlers (or
 * overrides {@link #unreadableBody} and {@link #redact}).
 */
public class ProblemExceptionHandler extends ResponseEntityExceptionHandler {

  private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

  @ExceptionHandler(ApiException.class)
  public ResponseEntity<ProblemDetail> api(ApiException e) {
    return Problems.response(e.status(), e.errors());
  }

  /**
   * PostgreSQL unreachable: 503 as soon as the pool gives up, with a hint to retry, and one log
   * line per failed request instead of a stack trace.
   */
  @ExceptionHandler({
    DataAccessResourceFailureException.class,
    CannotCreateTransactionException.class
  })
  public ResponseEntity<ProblemDetail> databaseUnavailable(Exception e) {
    log.warn("request failed: database unavailable ({})", summary(e));
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, "5")
        .body(
            Problems.of(
                HttpStatus.SERVICE_UNAVAILABLE, "database unavailable; retry in a few seconds"));
  }

  /**
   * Anything else: a dependency that is down by the kit's one rule ({@link Failures#isOutage}) is a
   * 503 like the database's; the rest a 500, the details in the log ({@link #describe}), none to
   * the client.
   */
  @ExceptionHandler(Exception.class)
  public ResponseEntity<ProblemDetail> unexpected(Exception e) {
    if (Failures.isOutage(e)) {
      log.warn("request failed: a dependency is unavailable ({})", summary(e));
      return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
          .header(HttpHeaders.RETRY_AFTER, "5")
          .body(
              Problems.of(
                  HttpStatus.SERVICE_UNAVAILABLE,
                  "a dependency is unavailable; retry in a few seconds"));
    }
    log.error("request failed: {}", describe(e));
    return Problems.response(
        HttpStatus.INTERNAL_SERVER_ERROR, "internal error; see the service log");
  }

  /**
   * How an unexpected failure is logged: every cause's class and message ({@link #redact}ed), then
   * where the root cause was thrown (8 frames), but no raw stack trace, whose messages could not be
   * redacted.
   */
  public String describe(Throwable e) {
    StringBuilder text = new StringBuilder();
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      text.append(text.isEmpty() ? "" : " <- caused by ")
          .append(t.getClass().getName())
          .append(": ")
          .append(redact(String.valueOf(t.getMessage())));
      root = t;
    }
    StackTraceElement[] frames = root.getStackTrace();
    for (int i = 0; i < Math.min(8, frames.length); i++) {
      text.append("\n\tat ").append(frames[i]);
    }
    return text.toString();
  }

  /** The root cause's class and message ({@link #redact}ed), for one-line logs. */
  protected String summary(Throwable e) {
    return redact(rootCause(e));
  }

  /**
   * An exception's message as the log may show it: as it is here; a service whose messages may hold
   * secrets (a database error quotes the failing row) overrides it to redact them.
   */
  protected String redact(String message) {
    return message;
  }

  /** The root cause's class and message. */
  protected static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  @Override
  protected ResponseEntity<Object> handleTypeMismatch(
      TypeMismatchException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String name =
        ex instanceof MethodArgumentTypeMismatchException m ? m.getName() : ex.getPropertyName();
    return problem(headers, status, name + ": " + expected(ex.getRequiredType()));
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "has the wrong type";
    }
    if (type == long.class
        || type == Long.class
        || type == int.class
        || type == Integer.class
        || type == short.class
        || type == Short.class) {
      return "must be a whole number"
          + (type == int.class || type == Integer.class
              ? " up to " + Integer.MAX_VALUE
              : type == long.class || type == Long.class ? " up to " + Long.MAX_VALUE : "");
    }
    if (type == boolean.class || type == Boolean.class) {
      return "must be true or false";
    }
    if (type == UUID.class) {
      return "must be a UUID";
    }
    return "must be a valid " + type.getSimpleName().toLowerCase(Locale.ROOT);
  }

  @Override
  protected ResponseEntity<Object> handleMissingServletRequestParameter(
      MissingServletRequestParameterException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    return problem(headers, status, ex.getParameterName() + ": query parameter is required");
  }

  @Override
  protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(
      HttpMediaTypeNotSupportedException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    String supported =
        String.join(", ", ex.getSupportedMediaTypes().stream().map(Object::toString).toList());
    return problem(
        headers,
        status,
        "Content-Type: "
            + (ex.getContentType() == null ? "(none)" : ex.getContentType().toString())
            + " is not supported here; use "
            + supported);
  }

  @Override
  protected ResponseEntity<Object> handleHttpRequestMethodNotSupported(
      HttpRequestMethodNotSupportedException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    var supported = ex.getSupportedHttpMethods();
    return problem(
        headers,
        status,
        "method: "
            + ex.getMethod()
            + " is not supported here"
            + (supported == null || supported.isEmpty()
                ? ""
                : "; use " + String.join(", ", supported.stream().map(Object::toString).toList())));
  }

  @Override
  protected ResponseEntity<Object> handleNoResourceFoundException(
      NoResourceFoundException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    return problem(headers, status, "path: no such endpoint: /" + ex.getResourcePath());
  }

  @Override
  protected ResponseEntity<Object> handleNoHandlerFoundException(
      NoHandlerFoundException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    return problem(
        headers,
        status,
        "path: no such endpoint: " + ex.getHttpMethod() + " " + ex.getRequestURL());
  }

  @Override
  protected ResponseEntity<Object> handleMethodArgumentNotValid(
      MethodArgumentNotValidException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    List<String> errors = new ArrayList<>();
    for (ObjectError e : ex.getBindingResult().getAllErrors()) {
      String where = e instanceof FieldError f ? f.getField() : "body";
      errors.add(where + ": " + e.getDefaultMessage());
    }
    return new ResponseEntity<>(Problems.of(status, errors), headers, status);
  }

  @Override
  protected ResponseEntity<Object> handleHandlerMethodValidationException(
      HandlerMethodValidationException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    List<String> errors = new ArrayList<>();
    ex.getParameterValidationResults()
        .forEach(
            r ->
                r.getResolvableErrors()
                    .forEach(
                        e ->
                            errors.add(
                                r.getMethodParameter().getParameterName()
                                    + ": "
                                    + e.getDefaultMessage())));
    if (errors.isEmpty()) {
      errors.add("request: is not valid");
    }
    return new ResponseEntity<>(Problems.of(status, errors), headers, status);
  }

  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(
      HttpMessageNotReadableException ex,
      HttpHeaders headers,
      HttpStatusCode status,
      WebRequest request) {
    for (Throwable t = ex; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof BodyLimit.TooLarge tooLarge) {
        return problem(headers, HttpStatus.CONTENT_TOO_LARGE, tooLarge.getMessage());
      }
    }
    return problem(headers, status, unreadableBody(ex));
  }

  /**
   * The one message for a body that cannot be read or bound: the JSON path of the bad value ({@code
   * content_ids[2]: ...}), an unknown field, or where the JSON breaks.
   */
  protected String unreadableBody(HttpMessageNotReadableException ex) {
    Throwable cause = ex.getMostSpecificCause();
    if (cause instanceof UnrecognizedPropertyException unknown) {
      return path(unknown, unknown.getPropertyName()) + ": unknown field";
    }
    if (cause instanceof DatabindException bad && !bad.getPath().isEmpty()) {
      return path(bad, null) + ": " + firstLine(bad.getOriginalMessage());
    }
    if (cause instanceof JacksonException json) {
      var at = json.getLocation();
      return "body: not valid JSON"
          + (at == null || at.getLineNr() < 1
              ? ""
              : " at line " + at.getLineNr() + ", column " + at.getColumnNr())
          + ": "
          + firstLine(json.getOriginalMessage());
    }
    return "body: is missing or cannot be read";
  }

  /** Spring MVC's other errors: its own detail (or a controller's reason) as the one message. */
  @Override
  protected ResponseEntity<Object> handleExceptionInternal(
      Exception ex, Object body, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    if (body instanceof ProblemDetail p
        && p.getProperties() != null
        && p.getProperties().containsKey(Problems.ERRORS)) {
      return new ResponseEntity<>(body, headers, status);
    }
    String detail = body instanceof ProblemDetail p ? p.getDetail() : null;
    if (ex instanceof ResponseStatusException rse && rse.getReason() != null) {
      detail = rse.getReason();
    }
    return problem(headers, status, detail == null ? Problems.title(status) : detail);
  }

  private static ResponseEntity<Object> problem(
      HttpHeaders headers, HttpStatusCode status, String error) {
    return new ResponseEntity<>(Problems.of(status, error), headers, status);
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
}
