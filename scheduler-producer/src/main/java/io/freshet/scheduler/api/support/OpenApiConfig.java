package io.freshet.scheduler.api.support;

import io.freshet.kit.web.ApiDocs;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.PropertyCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document ({@code /v3/api-docs}): what the API is, its bearer scheme, every error
 * response as an RFC 9457 problem ({@code application/problem+json}, the service kit's {@code
 * Problems}), and enums by their wire names.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfig {

  static final String ERROR_SCHEMA = "Problem";

  static {
    // free-form JSON (config, credentials, cursor) is an object, not Jackson's node class
    SpringDocUtils.getConfig().replaceWithSchema(JsonNode.class, new ObjectSchema());
  }

  @Bean
  OpenAPI freshetOpenApi() {
    return ApiDocs.withApiKeys(
        new OpenAPI()
            .info(
                new Info()
                    .title("Freshet scheduler API")
                    .version("v1")
                    .description(
                        "Sources and tenants of the Freshet scheduler. Every source is fetched by"
                            + " the fetch-worker when due; its cadence lives in config.cadence. Every"
                            + " call needs Authorization: Bearer <key>, an API key (fk_<id>_<secret>):"
                            + " reads (GET, HEAD) accept a read, write or admin key, writes a write or"
                            + " admin key, tenant changes and /keys an admin key, GET /audit a write"
                            + " or admin key. Every call acts for the tenant of its key: a read or"
                            + " write key sees only its tenant's sources and tenant (another tenant's,"
                            + " or a path, query or body tenant_id naming another, is 404 as if it did"
                            + " not exist); an admin key acts for every tenant, lists cover them all"
                            + " unless tenant_id names one, and a creation must name it. Put secrets"
                            + " (API keys, passwords, header values) in credentials, which are sealed"
                            + " and never shown: url query parameters and config values that are"
                            + " secrets (by a secret name such as token, secret, password, key, auth,"
                            + " sig, session, cookie — not a name that names something, such as"
                            + " sync_token_param — or by a credential's form, such as Bearer …) are"
                            + " shown as ***; a PUT of what a GET returned keeps them (*** in their"
                            + " place keeps the stored secret while the url stays on its server), ***"
                            + " anywhere else under a secret name is refused. Every change is in the"
                            + " audit log (GET /audit). Errors are RFC 9457 problems (application/problem+json:"
                            + " type, title, status, detail) whose errors member lists one message"
                            + " per bad field or parameter, each starting with its name.")),
        "An API key, fk_<id>_<secret>, made with POST /keys (or the" + " bootstrap admin key)");
  }

  /** A string constrained by {@link WireName} lists the enum's wire names. */
  @Bean
  PropertyCustomizer wireNameEnums() {
    return (schema, type) -> {
      Annotation[] annotations = type.getCtxAnnotations();
      if (annotations != null) {
        for (Annotation a : annotations) {
          if (a instanceof WireName wireName) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            Schema<Object> raw = (Schema) schema;
            raw.setEnum(new ArrayList<>(WireNames.all(wireName.value())));
          }
        }
      }
      return schema;
    };
  }

  /**
   * The errors every operation can answer, each with the problem body: 400 for a bad request, 401
   * without a valid key, 403 for a key whose role is not enough, 404 for an unknown id, 413 for a
   * body over the limit, 503 while the database is down; and the problem body on the 4xx the
   * controllers document themselves (409), in place of the return type springdoc puts there.
   */
  @Bean
  OpenApiCustomizer errorResponses() {
    return openApi -> {
      if (openApi.getComponents() == null) {
        openApi.setComponents(new Components());
      }
      openApi.getComponents().addSchemas(ERROR_SCHEMA, problemSchema());
      if (openApi.getPaths() == null) {
        return;
      }
      openApi
          .getPaths()
          .forEach(
              (path, item) ->
                  item.readOperationsMap()
                      .forEach(
                          (method, operation) -> {
                            if (operation.getResponses() == null) {
                              operation.setResponses(new ApiResponses());
                            }
                            addErrors(
                                path,
                                method,
                                operation.getRequestBody() != null,
                                operation.getResponses());
                          }));
    };
  }

  private static void addErrors(
      String path, PathItem.HttpMethod method, boolean hasBody, ApiResponses responses) {
    boolean read = method == PathItem.HttpMethod.GET || method == PathItem.HttpMethod.HEAD;
    add(responses, "400", "The request is invalid: one message per bad field or parameter");
    add(responses, "401", "No API key, or an unknown, revoked or expired one");
    add(
        responses,
        "403",
        read
            ? "The key's role may not read this"
            : "The key's role may not do this (a read key never writes)");
    if (path.contains("{")) {
      add(
          responses,
          "404",
          "Nothing with this id, or another tenant's (a tenant key sees only its own)");
    } else if (path.startsWith("/sources") || path.equals("/runs") || path.equals("/audit")) {
      add(
          responses,
          "404",
          "tenant_id names a tenant the key does not act for (answered as if it did not exist)");
    }
    if (hasBody) {
      add(responses, "413", "The body is larger than the limit");
      add(responses, "415", "The Content-Type is not one this operation reads");
    }
    add(responses, "503", "The database is unavailable; retry after Retry-After seconds");
    responses.forEach(
        (code, response) -> {
          if (code.startsWith("4") || code.startsWith("5")) {
            response.setContent(errorContent());
          }
        });
  }

  private static void add(ApiResponses responses, String code, String description) {
    if (!responses.containsKey(code)) {
      responses.addApiResponse(
          code, new ApiResponse().description(description).content(errorContent()));
    }
  }

  /** RFC 9457's members and the kit's {@code errors} extension. */
  private static Schema<?> problemSchema() {
    return new ObjectSchema()
        .description("An RFC 9457 problem")
        .addProperty(
            "type",
            new StringSchema().format("uri").description("about:blank").example("about:blank"))
        .addProperty("title", new StringSchema().description("the status's reason phrase"))
        .addProperty("status", new IntegerSchema().description("the HTTP status"))
        .addProperty("detail", new StringSchema().description("the errors, joined by '; '"))
        .addProperty(
            "errors",
            new ArraySchema()
                .items(new StringSchema())
                .description(
                    "one message per problem, each starting with the field or parameter it"
                        + " concerns"))
        .required(java.util.List.of("type", "title", "status", "errors"));
  }

  private static Content errorContent() {
    return new Content()
        .addMediaType(
            org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
            new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + ERROR_SCHEMA)));
  }
}
