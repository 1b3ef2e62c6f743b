package io.freshet.scheduler.api.support;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses query parameters that contain a NUL character ({@code %00}) with a 400, before anything
 * hands them to PostgreSQL, which cannot store U+0000 and would fail with a 500 and a stack trace —
 * on unauthenticated reads too. Bodies are checked where they are parsed ({@link Json#parse}).
 */
final class NulCharacterFilter extends OncePerRequestFilter {

  static final String MESSAGE = "contains a NUL character (U+0000), which is not allowed";

  private final ApiErrorWriter errors;

  NulCharacterFilter(ApiErrorWriter errors) {
    this.errors = errors;
  }

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
        errors.write(
            response,
            HttpStatus.BAD_REQUEST,
            "query parameter " + p.getKey().replace('\0', '?') + ": " + MESSAGE);
        return;
      }
    }
    chain.doFilter(request, response);
  }
}
