package io.freshet.kit.web;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;

/**
 * What every service's OpenAPI document says the same way: that each call needs {@code
 * Authorization: Bearer <key>} (the kit's API keys, {@code io.freshet.kit.security}).
 */
public final class ApiDocs {

  /** The name of the bearer security scheme in the document. */
  public static final String BEARER = "bearer";

  private ApiDocs() {}

  /**
   * {@code api} with the bearer scheme as its components' security scheme and as the requirement of
   * every operation.
   *
   * @param keyDescription where a caller gets a key, for the scheme's description
   */
  public static OpenAPI withApiKeys(OpenAPI api, String keyDescription) {
    Components components = api.getComponents() == null ? new Components() : api.getComponents();
    return api.components(
            components.addSecuritySchemes(
                BEARER,
                new SecurityScheme()
                    .type(SecurityScheme.Type.HTTP)
                    .scheme("bearer")
                    .description(keyDescription)))
        .addSecurityItem(new SecurityRequirement().addList(BEARER));
  }
}
