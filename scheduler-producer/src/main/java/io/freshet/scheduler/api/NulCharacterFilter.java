package io.freshet.scheduler.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses query parameters that contain a NUL character ({@code %00}) with a 400, before anything
 * hands them to PostgreSQL, which cannot store U+0000 and would fail with a 500 and a stack trace —
 * on unauthenticated reads too. Bodies are checked where they are parsed ({@link Json#parse}).
 */
final class NulCharacterFilter extends OncePerRequestFilter {

  static final String MESSAGE = "contains a NUL character (U+0000), which is not allowed";

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    for (Map.Entry<String, String[]> p : request.getParameterMap().entrySet()) {
      boolean bad = p.getKey().indexOf('\0') >= 0;
      for (String v : p.getValue()) {
        bad |= v != null && v.indexOf('\0') >= 0;
      }
      if (bad) {
        reject(response, "query parameter " + p.getKey().replace('\0', '?') + ": " + MESSAGE);
        return;
      }
    }
    chain.doFilter(request, response);
  }

  private static void reject(HttpServletResponse response, String message) throws IOException {
    response.setStatus(HttpStatus.BAD_REQUEST.value());
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    byte[] body =
        Json.MAPPER.writeValueAsBytes(ApiError.of(HttpStatus.BAD_REQUEST, List.of(message)));
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }
}
