package io.freshet.kit.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <key>} against the {@link KeyDirectory}. A request
 * without a valid key goes on anonymous (the chain's rules then answer 401 where a key is needed,
 * with the reason this filter left in {@link #REFUSAL}): so health probes answer whatever header
 * they carry.
 */
final class ApiKeyFilter extends OncePerRequestFilter {

  /** The request attribute holding why a presented key was refused. */
  static final String REFUSAL = ApiKeyFilter.class.getName() + ".refusal";

  private static final String SCHEME = "Bearer ";

  private final KeyDirectory directory;
  private final KeyUse use;
  private final SecurityContextHolderStrategy contexts =
      SecurityContextHolder.getContextHolderStrategy();

  ApiKeyFilter(KeyDirectory directory, KeyUse use) {
    this.directory = directory;
    this.use = use;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String header = request.getHeader(HttpHeaders.AUTHORIZATION);
    if (header != null) {
      if (!header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
        request.setAttribute(REFUSAL, "send the key as Authorization: Bearer <key>");
      } else {
        switch (directory.authenticate(header.substring(SCHEME.length()))) {
          case KeyDirectory.Verdict.Accepted accepted -> {
            var context = contexts.createEmptyContext();
            context.setAuthentication(new KeyAuthentication(accepted.principal()));
            contexts.setContext(context);
            if (!accepted.principal().keyId().startsWith("bootstrap-")) {
              use.used(accepted.principal().keyId());
            }
          }
          case KeyDirectory.Verdict.Refused refused ->
              request.setAttribute(REFUSAL, refused.reason());
        }
      }
    }
    // the chain's SecurityContextHolderFilter clears the context after the request; clearing it
    // here would hide the caller from the exception translation that runs around this filter
    chain.doFilter(request, response);
  }

  /** An authenticated key: its principal and its role's authorities. */
  static final class KeyAuthentication extends AbstractAuthenticationToken {
    private final KeyPrincipal principal;

    KeyAuthentication(KeyPrincipal principal) {
      super(
          principal.role().grants().stream()
              .map(r -> new SimpleGrantedAuthority("ROLE_" + r))
              .toList());
      this.principal = principal;
      setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
      return "";
    }

    @Override
    public KeyPrincipal getPrincipal() {
      return principal;
    }

    @Override
    public String getName() {
      return principal.keyId();
    }
  }
}
