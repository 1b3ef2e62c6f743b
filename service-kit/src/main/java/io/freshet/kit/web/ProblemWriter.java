package io.freshet.kit.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a problem ({@link Problems}) from a servlet filter, which runs before Spring MVC and its
 * message converters: the API-key chain's 401 and 403, the query-parameter filter's 400.
 */
public final class ProblemWriter {

  private final JsonMapper mapper;

  public ProblemWriter(JsonMapper mapper) {
    this.mapper = mapper;
  }

  public void write(HttpServletResponse response, HttpStatusCode status, String error)
      throws IOException {
    write(response, status, List.of(error));
  }

  public void write(HttpServletResponse response, HttpStatusCode status, List<String> errors)
      throws IOException {
    byte[] body = mapper.writeValueAsBytes(body(status, errors));
    response.setStatus(status.value());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /** The members of {@link Problems#of}, in the order RFC 9457 lists them. */
  static Map<String, Object> body(HttpStatusCode status, List<String> errors) {
    var problem = Problems.of(status, errors);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", problem.getType().toString());
    body.put("title", problem.getTitle());
    body.put("status", problem.getStatus());
    if (problem.getDetail() != null) {
      body.put("detail", problem.getDetail());
    }
    body.put(Problems.ERRORS, List.copyOf(errors));
    return body;
  }
}
