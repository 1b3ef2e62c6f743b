package io.freshet.kit.web;

import org.apache.catalina.Valve;
import org.apache.catalina.valves.ErrorReportValve;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerInitializedEvent;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorMvcAutoConfiguration;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web edge every Freshet API shares: one error body, an RFC 9457 problem ({@link Problems}),
 * for Spring MVC's errors ({@link ProblemExceptionHandler}), the container's error page ({@link
 * ProblemErrorController}), requests Tomcat refuses before Spring sees them ({@link
 * ProblemErrorReportValve}) and the services' own filters ({@link ProblemWriter}); query parameters
 * that are not UTF-8 or hold a NUL refused ({@link QueryParameterFilter}); and a request-body limit
 * ({@link BodyLimit}, {@code freshet.web.max-body-bytes}). A service replaces the exception handler
 * by declaring a {@code @RestControllerAdvice} subclass of {@link ProblemExceptionHandler}.
 */
@AutoConfiguration(before = ErrorMvcAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@EnableConfigurationProperties(WebSettings.class)
public class WebKitAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ProblemWriter problemWriter(ObjectProvider<JsonMapper> mapper) {
    return new ProblemWriter(mapper.getIfAvailable(() -> JsonMapper.builder().build()));
  }

  /** Problems serialize their extension members ({@code errors}) at the top level. */
  @Bean
  JsonMapperBuilderCustomizer problemDetailMembers() {
    return builder -> builder.addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class);
  }

  @Bean
  @ConditionalOnMissingBean(ProblemExceptionHandler.class)
  DefaultProblemExceptionHandler problemExceptionHandler() {
    return new DefaultProblemExceptionHandler();
  }

  @Bean
  @ConditionalOnMissingBean(ErrorController.class)
  ProblemErrorController problemErrorController() {
    return new ProblemErrorController();
  }

  @Bean
  FilterRegistrationBean<QueryParameterFilter> queryParameterFilter(ProblemWriter problems) {
    var registration = new FilterRegistrationBean<>(new QueryParameterFilter(problems));
    registration.addUrlPatterns("/*");
    // before anything reads parameters (and before the API-key chain: a malformed query is a 400
    // whoever sends it)
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
    return registration;
  }

  @Bean
  @ConditionalOnMissingBean
  BodyLimit bodyLimit(WebSettings settings) {
    return new BodyLimit(settings.maxBodyBytes().toBytes());
  }

  /** The kit's handler when the service has none of its own. */
  @RestControllerAdvice
  static class DefaultProblemExceptionHandler extends ProblemExceptionHandler {}

  /** Tomcat's own error page (requests refused before Spring sees them) as a problem. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({TomcatWebServer.class, ErrorReportValve.class})
  static class TomcatErrorReport {

    @Bean
    ApplicationListener<ServletWebServerInitializedEvent> problemErrorReportValve(
        ObjectProvider<JsonMapper> mapper) {
      return event -> {
        if (event.getWebServer() instanceof TomcatWebServer tomcat) {
          var pipeline = tomcat.getTomcat().getHost().getPipeline();
          for (Valve valve : pipeline.getValves()) {
            if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
              pipeline.removeValve(valve);
            }
          }
          pipeline.addValve(
              new ProblemErrorReportValve(
                  mapper.getIfAvailable(() -> JsonMapper.builder().build())));
        }
      };
    }
  }

  /**
   * Liveness and readiness on the public port while the rest of actuator is on a management port of
   * its own ({@link PublicProbeFilter}); off when actuator shares the public port.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthEndpoint.class)
  static class PublicProbes {

    @Bean
    FilterRegistrationBean<PublicProbeFilter> publicProbeFilter(
        ObjectProvider<HealthEndpoint> health,
        ObjectProvider<HealthEndpointGroups> groups,
        Environment env) {
      var registration = new FilterRegistrationBean<>(new PublicProbeFilter(health, groups));
      registration.addUrlPatterns(PublicProbeFilter.PROBES.keySet().toArray(String[]::new));
      // before the API-key chain and its rate limit: probes are open and never counted
      registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 30);
      registration.setEnabled(separateManagementPort(env));
      return registration;
    }

    /** Whether {@code management.server.port} puts actuator on a port of its own (0: random). */
    static boolean separateManagementPort(Environment env) {
      Integer management = env.getProperty("management.server.port", Integer.class);
      Integer server = env.getProperty("server.port", Integer.class, 8080);
      return management != null
          && management >= 0
          && (management == 0 || !management.equals(server));
    }
  }

  /** The error controller is no operation of any service's OpenAPI document. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springdoc.core.utils.SpringDocUtils")
  static class HiddenFromOpenApi {
    static {
      SpringDocUtils.getConfig().addHiddenRestControllers(ProblemErrorController.class);
    }
  }
}
