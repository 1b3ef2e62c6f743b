package io.freshet.kit.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The container's error page — errors outside Spring MVC's handlers: a request line or header over
 * the connector's limit, an exception out of a filter — as a problem ({@link Problems}) instead of
 * Tomcat's HTML page or Spring Boot's own JSON. A 5xx never shows the container's message.
 */
@RestController
public class ProblemErrorController implements ErrorController {

  @RequestMapping("${server.error.path:${error.path:/error}}")
  public ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    HttpStatusCode status =
        code instanceof Integer c && c >= 400 && c < 600
            ? HttpStatusCode.valueOf(c)
            : HttpStatus.NOT_FOUND;
    Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
    String text;
    if (status.is5xxServerError() || !(message instanceof String s) || s.isBlank()) {
      text = status == HttpStatus.NOT_FOUND ? "path: no such endpoint" : Problems.title(status);
    } else {
      text = s;
    }
    return Problems.response(status, text);
  }
}
