package io.freshet.scheduler.api.support;

import io.freshet.kit.web.ProblemExceptionHandler;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;

/**
 * The service kit's problems ({@link ProblemExceptionHandler}) with the scheduler's wording of an
 * unreadable body ({@link BindingMessages}) and its logs redacted ({@link SecretRedactor}): a
 * database error quotes the failing row (url, config), which may hold secrets.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ProblemExceptionHandler {

  @Override
  protected String unreadableBody(HttpMessageNotReadableException ex) {
    for (Throwable t = ex; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof JacksonException json) {
        return BindingMessages.of(json);
      }
    }
    return "body: is empty; expected a JSON object";
  }

  @Override
  protected String redact(String message) {
    return SecretRedactor.redactText(message);
  }
}
