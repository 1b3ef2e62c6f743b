package io.freshet.scheduler.api.support;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/** Writes an {@link ApiError} from a servlet filter, which runs before Spring MVC's handlers. */
final class ApiErrorWriter {

  private final JsonMapper mapper;

  ApiErrorWriter(JsonMapper mapper) {
    this.mapper = mapper;
  }

  void write(HttpServletResponse response, HttpStatus status, String message) throws IOException {
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    byte[] body = mapper.writeValueAsBytes(ApiError.of(status, List.of(message)));
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
