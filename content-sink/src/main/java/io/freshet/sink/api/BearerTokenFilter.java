package io.freshet.sink.api;

import io.freshet.kit.web.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The scheduler's bearer-token rule: every request other than GET, HEAD and OPTIONS (and, with
 * {@code freshet.api.token-for-reads}, those too) must carry {@code Authorization: Bearer
 * <freshet.api.token>}, except under {@code /actuator} and {@code /v3/api-docs}. Deny by default;
 * the token is compared in constant time as SHA-256 digests.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

  private static final Set<String> READS = Set.of("GET", "HEAD", "OPTIONS");
  private static final List<String> OPEN_PREFIXES = List.of("/actuator", "/v3/api-docs");
  private static final String SCHEME = "Bearer ";

  private final byte[] expected;
  private final boolean guardReads;
  private final ProblemWriter problems;

  BearerTokenFilter(String token, boolean guardReads, ProblemWriter problems) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("freshet.api.token must be set");
    }
    this.expected = digest(token);
    this.guardReads = guardReads;
    this.problems = problems;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    if (!guardReads && READS.contains(request.getMethod())) {
      return true;
    }
    String path =
        request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    return OPEN_PREFIXES.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"));
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      reject(response, "missing bearer token: send Authorization: Bearer <token>");
      return;
    }
    String presented = header.substring(SCHEME.length()).strip();
    if (!MessageDigest.isEqual(expected, digest(presented))) {
      reject(response, "invalid bearer token");
      return;
    }
    chain.doFilter(request, response);
  }

  private void reject(HttpServletResponse response, String message) throws IOException {
    response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
    problems.write(response, HttpStatus.UNAUTHORIZED, message);
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
