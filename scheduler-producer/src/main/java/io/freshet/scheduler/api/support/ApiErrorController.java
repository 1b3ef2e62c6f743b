package io.freshet.scheduler.api.support;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The container's error page (errors outside Spring MVC's handlers, e.g. a request the connector
 * rejects), in the API's error format instead of Spring Boot's default one.
 */
@Hidden
@RestController
class ApiErrorController implements ErrorController {

  @RequestMapping("${server.error.path:${error.path:/error}}")
  ResponseEntity<ApiError> error(HttpServletRequest request) {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    HttpStatusCode status =
        code instanceof Integer c ? HttpStatusCode.valueOf(c) : HttpStatus.NOT_FOUND;
    Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
    String text =
        status.is5xxServerError() || !(message instanceof String s) || s.isBlank()
            ? ApiError.reason(status)
            : s;
    return ApiError.response(status, List.of(text));
  }
}
