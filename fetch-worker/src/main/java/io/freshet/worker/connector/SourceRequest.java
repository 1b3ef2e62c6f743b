package io.freshet.worker.connector;

import io.freshet.worker.budget.WorkBudget;
import java.net.URI;
import java.time.Instant;
import java.util.Map;

/**
 * What a connector needs to read one source once.
 *
 * @param url the source's URL
 * @param config connector options (JSON-encoded strings for structured values)
 * @param cursor where the last successful fetch left off (etag, last_modified, sync_token...)
 * @param headers extra request headers, credentials included; never logged or echoed
 * @param query extra query parameters (credentials given as parameters); never logged or echoed
 * @param options item limit, window and emit mode
 * @param now the fetch's time, for windows
 * @param notAfter the request's {@code not_after}: its first HTTP request is not sent when its turn
 *     at the host comes later (status {@code expired}); null for no limit
 * @param budget the fetch's work budget: connectors parse every document through it
 */
public record SourceRequest(
    URI url,
    Map<String, String> config,
    Map<String, String> cursor,
    Map<String, String> headers,
    Map<String, String> query,
    ConnectorOptions options,
    Instant now,
    Instant notAfter,
    WorkBudget budget) {

  public SourceRequest {
    config = Map.copyOf(config);
    cursor = Map.copyOf(cursor);
    headers = Map.copyOf(headers);
    query = Map.copyOf(query);
  }
}
