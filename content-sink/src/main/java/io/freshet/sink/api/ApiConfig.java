package io.freshet.sink.api;

import io.freshet.kit.web.ProblemWriter;
import io.freshet.sink.config.SinkProperties;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** The API's wiring: the bearer-token filter and the OpenAPI document ({@code /v3/api-docs}). */
@Configuration(proxyBeanMethods = false)
class ApiConfig {

  static final String BEARER = "bearer";

  @Bean
  FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(
      SinkProperties props, ProblemWriter problems) {
    var api = props.api();
    var registration =
        new FilterRegistrationBean<>(
            new BearerTokenFilter(api.token(), api.tokenForReads(), problems));
    registration.addUrlPatterns("/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return registration;
  }

  @Bean
  OpenAPI freshetOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("Freshet content API")
                .version("v1")
                .description(
                    "The content layer: every item version the fetch-worker found, stored once"
                        + " per (source, item, content hash), its retention marks and the"
                        + " per-fetch activity log. Lists are keyset-paged: pass next_cursor back"
                        + " as cursor. Writes need Authorization: Bearer <token>. Errors are RFC 9457"
                        + " problems (application/problem+json: type, title, status, detail) whose"
                        + " errors member lists one message per problem, each naming its field or"
                        + " parameter. A source or tenant the sink has never stored content or"
                        + " activity of is a 404."))
        .components(
            new Components()
                .addSecuritySchemes(
                    BEARER,
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("freshet.api.token")));
  }

  /** Marks every operation but GET (every one, with token-for-reads) as needing the token. */
  @Bean
  OpenApiCustomizer bearerOnWrites(SinkProperties props) {
    boolean reads = props.api().tokenForReads();
    return openApi -> {
      if (openApi.getPaths() == null) {
        return;
      }
      openApi
          .getPaths()
          .values()
          .forEach(
              item ->
                  item.readOperationsMap()
                      .forEach(
                          (method, operation) -> {
                            if (reads || method != PathItem.HttpMethod.GET) {
                              operation.addSecurityItem(new SecurityRequirement().addList(BEARER));
                            }
                          }));
    };
  }
}
