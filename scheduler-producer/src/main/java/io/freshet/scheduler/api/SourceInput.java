package io.freshet.scheduler.api;

import io.freshet.cadence.source.Category;
import io.freshet.scheduler.source.Connector;
import tools.jackson.databind.JsonNode;

/**
 * A validated source request body (create, full update or one import entry).
 *
 * @param tenantId the tenant; null only in an update that did not name it
 * @param host lower-cased (punycode) host of {@code url}
 * @param category null when the request has none
 * @param config the {@code config} object (empty when absent)
 * @param credentials null when the request did not mention credentials, a JSON null node for {@code
 *     "credentials": null}, otherwise the credentials to seal
 */
record SourceInput(
    String tenantId,
    String name,
    Connector connector,
    String url,
    String host,
    Category category,
    int priority,
    boolean enabled,
    JsonNode config,
    JsonNode credentials) {

  /** Whether the request carries credentials to store. */
  boolean hasCredentials() {
    return credentials != null && !credentials.isNull();
  }

  String categoryName() {
    return category == null ? null : category.wireName();
  }
}
