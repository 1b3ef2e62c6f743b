package io.freshet.kit.security;

import io.freshet.kit.web.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Fair use, in the API-key chain right after the {@link ApiKeyFilter}: one request from the
 * caller's token bucket ({@link RateLimiter}) — an authenticated key's by key id, at the limit of
 * its role and tenant ({@link RateLimitSettings#limitOf}); a request without a valid key by its
 * remote address (IPv6 by its /64). Past the limit: 429, a problem, with {@code Retry-After} in
 * seconds. Requests {@code exempt} matches (the health probes, the management port) are never
 * counted.
 */
final class RateLimitFilter extends OncePerRequestFilter {

  private final RateLimiter limiter;
  private final RateLimitSettings settings;
  private final ProblemWriter problems;
  private final RequestMatcher exempt;

  RateLimitFilter(
      RateLimiter limiter,
      RateLimitSettings settings,
      ProblemWriter problems,
      RequestMatcher exempt) {
    this.limiter = limiter;
    this.settings = settings;
    this.problems = problems;
    this.exempt = exempt;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (exempt.matches(request)) {
      chain.doFilter(request, response);
      return;
    }
    var auth = SecurityContextHolder.getContext().getAuthentication();
    String caller;
    RateLimit limit;
    String who;
    if (auth != null && auth.getPrincipal() instanceof KeyPrincipal key) {
      caller = "key:" + key.keyId();
      limit = settings.limitOf(key.role(), key.tenantId());
      who = "API key " + key.keyId();
    } else {
      caller = "address:" + addressBucket(request.getRemoteAddr());
      limit = settings.anonymous();
      who = "requests without a valid API key from this address";
    }
    RateLimiter.Decision decision = limiter.tryConsume(caller, limit);
    if (!decision.allowed()) {
      response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
      problems.write(
          response,
          HttpStatus.TOO_MANY_REQUESTS,
          who
              + " exceeded the rate limit of "
              + limit.requests()
              + " requests per "
              + limit.period()
              + ": retry after "
              + decision.retryAfterSeconds()
              + " s");
      return;
    }
    chain.doFilter(request, response);
  }

  /** An IPv4 address as it is; an IPv6 address by its /64 (one host usually holds a whole /64). */
  static String addressBucket(String remote) {
    if (remote == null || remote.indexOf(':') < 0) {
      return remote;
    }
    try {
      // a literal address: no name lookup happens
      InetAddress address = InetAddress.getByName(remote);
      if (address instanceof Inet6Address) {
        byte[] b = address.getAddress();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i += 2) {
          out.append(Integer.toHexString(((b[i] & 0xff) << 8) | (b[i + 1] & 0xff))).append(':');
        }
        return out.append(":/64").toString();
      }
      return address.getHostAddress();
    } catch (UnknownHostException e) {
      return remote;
    }
  }
}
