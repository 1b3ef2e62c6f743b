package io.freshet.kit.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The public port's two probes when actuator lives on a management port of its own ({@code
 * management.server.port}): {@code GET /actuator/health/liveness} and {@code
 * /actuator/health/readiness} answer there as they do on the management port (200 or 503), with the
 * status only — never the components' details. Everything else of actuator (health with details,
 * metrics, Prometheus) is on the management port alone. Probes, load balancers and the launchers
 * keep one URL whichever port actuator is on.
 */
final class PublicProbeFilter extends OncePerRequestFilter {

  /** Public path → health group. */
  static final Map<String, String> PROBES =
      Map.of(
          "/actuator/health/liveness", "liveness",
          "/actuator/health/readiness", "readiness");

  private final ObjectProvider<HealthEndpoint> health;
  private final ObjectProvider<HealthEndpointGroups> groups;

  PublicProbeFilter(
      ObjectProvider<HealthEndpoint> health, ObjectProvider<HealthEndpointGroups> groups) {
    this.health = health;
    this.groups = groups;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !PROBES.containsKey(request.getRequestURI())
        || !("GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod()));
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String group = PROBES.get(request.getRequestURI());
    HealthEndpoint endpoint = health.getIfAvailable();
    HealthDescriptor descriptor = endpoint == null ? null : endpoint.healthForPath(group);
    if (descriptor == null) {
      chain.doFilter(request, response); // no such group here: whatever the chain answers
      return;
    }
    HealthEndpointGroups all = groups.getIfAvailable();
    HealthEndpointGroup g = all == null ? null : all.get(group);
    HttpCodeStatusMapper codes =
        g == null ? HttpCodeStatusMapper.DEFAULT : g.getHttpCodeStatusMapper();
    byte[] body =
        ("{\"status\":\"" + descriptor.getStatus().getCode() + "\"}")
            .getBytes(StandardCharsets.UTF_8);
    response.setStatus(codes.getStatusCode(descriptor.getStatus()));
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    response.setHeader("Cache-Control", "no-store");
    response.setContentLength(body.length);
    if (!"HEAD".equals(request.getMethod())) {
      response.getOutputStream().write(body);
    }
  }
}
