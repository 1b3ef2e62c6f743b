package io.freshet.scheduler.api.support;

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
 * Guards the API: a read (GET, HEAD) needs {@code Authorization: Bearer <token>} with the read-only
 * token ({@code freshet.api.read-token}) or the write token ({@code freshet.api.token}); any other
 * method needs the write token (401 without a valid token, 403 for the read-only token). Open: CORS
 * preflights (OPTIONS), {@code /actuator} (health probes and metrics) and {@code /v3/api-docs}.
 * Deny by default, so an endpoint added later is protected without a change here. Tokens are
 * compared in constant time (as SHA-256 digests, so even their length does not leak).
 */
final class BearerTokenFilter extends OncePerRequestFilter {

  private static final Set<String> READS = Set.of("GET", "HEAD");
  private static final List<String> OPEN_PREFIXES = List.of("/actuator", "/v3/api-docs");
  private static final String SCHEME = "Bearer ";

  private final byte[] write;
  private final byte[] read;
  private final ProblemWriter errors;

  /**
   * @param writeToken required
   * @param readToken optional (null or blank: reads need the write token)
   */
  BearerTokenFilter(String writeToken, String readToken, ProblemWriter errors) {
    if (writeToken == null || writeToken.isBlank()) {
      throw new IllegalArgumentException("freshet.api.token must be set");
    }
    this.write = digest(writeToken);
    this.read = readToken == null || readToken.isBlank() ? null : digest(readToken);
    this.errors = errors;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    if (request.getMethod().equals("OPTIONS")) {
      return true;
    }
    // The container's decoded and normalised path (not the raw URI): "/actuator/../sources" is
    // "/sources" here, as it is for the dispatcher.
    String path =
        request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    return OPEN_PREFIXES.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"));
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    boolean isRead = READS.contains(request.getMethod());
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      reject(
          response,
          HttpStatus.UNAUTHORIZED,
          isRead
              ? "missing bearer token: send Authorization: Bearer <read or write token>"
              : "missing bearer token: send Authorization: Bearer <token> for writes");
      return;
    }
    byte[] presented = digest(header.substring(SCHEME.length()).strip());
    if (MessageDigest.isEqual(write, presented)) {
      chain.doFilter(request, response);
    } else if (read != null && MessageDigest.isEqual(read, presented)) {
      if (isRead) {
        chain.doFilter(request, response);
      } else {
        reject(
            response,
            HttpStatus.FORBIDDEN,
            "the read-only token cannot write; writes need freshet.api.token");
      }
    } else {
      reject(response, HttpStatus.UNAUTHORIZED, "invalid bearer token");
    }
  }

  private void reject(HttpServletResponse response, HttpStatus status, String message)
      throws IOException {
    if (status == HttpStatus.UNAUTHORIZED) {
      response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
    }
    errors.write(response, status, message);
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
