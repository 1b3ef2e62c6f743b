package io.freshet.scheduler.api.sources;

import io.freshet.cadence.source.Category;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.source.Connector;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A valid source request with its defaults filled in, ready to store.
 *
 * @param host lower-cased (punycode) host of {@code url}, the partition key of its fetch requests
 * @param category null when the request has none
 * @param config the {@code config} object (empty when absent)
 * @param credentials the credentials to seal, or null
 */
public record SourceInput(
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

  /** The input of a request that passed validation (create group included). */
  public static SourceInput of(SourceRequest r) {
    String url = r.url().strip();
    return new SourceInput(
        r.tenantId(),
        r.name().strip(),
        WireNames.parse(Connector.class, r.connector()).orElseThrow(),
        url,
        SourceUrls.host(url),
        WireNames.parse(Category.class, r.category()).orElse(null),
        r.priority() == null ? 0 : r.priority(),
        r.enabled() == null || r.enabled(),
        r.config() == null || r.config().isNull()
            ? JsonNodeFactory.instance.objectNode()
            : r.config(),
        r.credentials() == null || r.credentials().isNull() ? null : r.credentials());
  }

  /** Whether the request carries credentials to store. */
  public boolean hasCredentials() {
    return credentials != null;
  }

  public String categoryName() {
    return category == null ? null : WireNames.of(category);
  }
}
