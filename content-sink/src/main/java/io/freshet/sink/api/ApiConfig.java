package io.freshet.sink.api;

import io.freshet.kit.web.ApiDocs;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document ({@code /v3/api-docs}). The API keys' chain is the service kit's ({@code
 * io.freshet.kit.security}).
 */
@Configuration(proxyBeanMethods = false)
class ApiConfig {

  @Bean
  OpenAPI freshetOpenApi() {
    return ApiDocs.withApiKeys(
        new OpenAPI()
            .info(
                new Info()
                    .title("Freshet content API")
                    .version("v1")
                    .description(
                        "The content layer: every item version the fetch-worker found, stored once"
                            + " per (source, item, content hash), its retention marks and the"
                            + " per-fetch activity log. Lists are keyset-paged: pass next_cursor back"
                            + " as cursor. Every call needs Authorization: Bearer <key>, an API key made"
                            + " on the scheduler (POST /keys): reads a read, write or admin key, writes"
                            + " a write or admin key, cleanup an admin key. A read or write key sees"
                            + " only its own tenant: another tenant's content, source, activity or"
                            + " tenant is a 404 exactly like one that does not exist; an admin key"
                            + " sees every tenant and names the tenant_id it marks for. Errors are"
                            + " RFC 9457"
                            + " problems (application/problem+json: type, title, status, detail) whose"
                            + " errors member lists one message per problem, each naming its field or"
                            + " parameter. A source or tenant the sink has never stored content or"
                            + " activity of is a 404.")),
        "An API key, fk_<id>_<secret>, made on the scheduler (POST /keys), or"
            + " the bootstrap admin key");
  }
}
