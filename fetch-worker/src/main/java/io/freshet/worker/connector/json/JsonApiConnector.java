package io.freshet.worker.connector.json;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.worker.budget.BudgetExceededException;
import io.freshet.worker.connector.DocumentConnector;
import io.freshet.worker.connector.QueryParameters;
import io.freshet.worker.connector.ReadResult;
import io.freshet.worker.connector.ServerHints;
import io.freshet.worker.connector.SourceConnector;
import io.freshet.worker.connector.SourceRequest;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.http.SafeUrls;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.WebDates;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code json}: a JSON API mapped by configuration ({@link JsonMapping}), with cursor modes ({@code
 * cursor_mode}):
 *
 * <ul>
 *   <li>{@code since}: sends {@code since_param} = the newest publication time already read (cursor
 *       {@code since}; first fetch: the window's start), as ISO-8601, epoch seconds or millis
 *       ({@code since_format}) — Slack's {@code oldest}, Notion's {@code last_edited_time};
 *   <li>{@code sync_token}: sends {@code sync_token_param} = the token the API returned last time
 *       at {@code sync_token_pointer} (cursor {@code sync_token}); a 410 "token expired" drops it
 *       and reads the full window instead (ADR 0008
 *       (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)) — Google Calendar's
 *       {@code syncToken};
 *   <li>{@code none} (default): every fetch reads the whole listing.
 * </ul>
 *
 * In every mode, {@code next_page_pointer} + {@code page_param} follow next-page cursors within one
 * fetch, up to {@code max_pages} (default 10) or the item limit. A later page that fails makes the
 * fetch partial: the items so far are kept, the sync position is not advanced.
 */
public final class JsonApiConnector implements SourceConnector {

  static final String SINCE = "since";
  static final String SYNC_TOKEN = "sync_token";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Override
  public Connector type() {
    return Connector.json;
  }

  @Override
  public ReadResult read(SourceRequest request, HttpFetcher http) throws InterruptedException {
    JsonMapping mapping;
    try {
      mapping = JsonMapping.from(request.config());
    } catch (IllegalArgumentException e) {
      return ReadResult.failed(new FetchFailure(ErrorKind.CONFIG, e.getMessage()));
    }
    Map<String, String> position = new LinkedHashMap<>(request.query());
    String token = request.cursor().get(SYNC_TOKEN);
    switch (mapping.mode()) {
      case SINCE -> position.put(mapping.sinceParam(), mapping.formatSince(since(request)));
      case SYNC_TOKEN -> {
        if (token != null) {
          position.put(mapping.syncTokenParam(), token);
        }
      }
      case NONE -> {}
    }
    ReadResult first = readPages(request, http, mapping, position, true);
    if (first.httpStatus() != null
        && first.httpStatus() == 410
        && mapping.mode() == JsonMapping.Mode.SYNC_TOKEN
        && token != null) {
      position.remove(mapping.syncTokenParam()); // token expired: a full read of the window
      ReadResult full = readPages(request, http, mapping, position, false);
      return new ReadResult(
          full.status(),
          full.httpStatus(),
          first.attempts() + full.attempts(),
          full.bytes(),
          full.items(),
          full.cursor(),
          full.errorKind(),
          full.errorMessage(),
          full.retryAfter());
    }
    return first;
  }

  private ReadResult readPages(
      SourceRequest request,
      HttpFetcher http,
      JsonMapping mapping,
      Map<String, String> position,
      boolean conditional)
      throws InterruptedException {
    List<RawItem> items = new ArrayList<>();
    Map<String, String> cursor = new HashMap<>();
    int attempts = 0;
    long bytes = 0;
    String page = null;
    String syncToken = null;
    HttpResult last = null;
    HttpResult first = null;
    Set<String> followed = new HashSet<>();
    int limit = request.options().itemLimit();
    for (int n = 0; n < mapping.maxPages(); n++) {
      Map<String, String> query = new LinkedHashMap<>(position);
      if (page != null) {
        query.put(mapping.pageParam(), page);
      }
      URI url = QueryParameters.append(request.url(), query);
      HttpResult response;
      try {
        response =
            http.get(
                url,
                request.headers(),
                n == 0 && conditional
                    ? new HttpFetcher.Conditional(
                        request.cursor().get(DocumentConnector.ETAG),
                        request.cursor().get(DocumentConnector.LAST_MODIFIED))
                    : HttpFetcher.Conditional.NONE,
                n == 0 ? request.notAfter() : null);
      } catch (FetchFailure f) {
        if (n == 0) {
          return ReadResult.failed(f);
        }
        return partial(
            last, attempts + f.attempts(), bytes, items, cursor, f.kind(), f.getMessage());
      }
      attempts += response.attempts();
      bytes += response.bytes();
      if (n == 0 && response.notModified()) {
        return ReadResult.notModified(response);
      }
      if (!response.successful()) {
        if (n == 0) {
          ReadResult failed = ReadResult.failedStatus(response, SafeUrls.describe(request.url()));
          return new ReadResult(
              failed.status(),
              failed.httpStatus(),
              attempts,
              bytes,
              List.of(),
              Map.of(),
              failed.errorKind(),
              failed.errorMessage(),
              failed.retryAfter());
        }
        return partial(
            response,
            attempts,
            bytes,
            items,
            cursor,
            response.status() >= 500 ? ErrorKind.HTTP_5XX : ErrorKind.HTTP_4XX,
            "page " + (n + 1) + ": HTTP " + response.status());
      }
      JsonNode root;
      try {
        Page parsed =
            request
                .budget()
                .run(
                    () -> {
                      JsonNode tree = JSON.readTree(response.body());
                      return new Page(tree, mapping.items(tree, response.finalUri()));
                    });
        root = parsed.root();
        items.addAll(WebDates.plausibleDates(parsed.items(), request.now()));
      } catch (JacksonException | IllegalArgumentException | BudgetExceededException e) {
        FetchFailure f =
            new FetchFailure(
                e instanceof BudgetExceededException ? ErrorKind.BUDGET_EXCEEDED : ErrorKind.PARSE,
                switch (e) {
                  case JacksonException j ->
                      "page " + (n + 1) + " is not valid JSON: " + j.getOriginalMessage();
                  case BudgetExceededException b -> "page " + (n + 1) + ": " + b.getMessage();
                  default -> e.getMessage();
                },
                response.status(),
                attempts,
                null);
        return n == 0
            ? ReadResult.failed(f)
            : partial(response, attempts, bytes, items, cursor, f.kind(), f.getMessage());
      }
      if (n == 0) {
        first = response;
        if (response.etag() != null) {
          cursor.put(DocumentConnector.ETAG, response.etag());
        }
        if (response.lastModified() != null) {
          cursor.put(DocumentConnector.LAST_MODIFIED, response.lastModified());
        }
      }
      last = response;
      String token = mapping.text(root, mapping.syncTokenPointer());
      if (token != null) {
        syncToken = token;
      }
      page = mapping.text(root, mapping.nextPagePointer());
      if (page == null || (limit > 0 && items.size() >= limit)) {
        break;
      }
      if (!followed.add(page)) {
        return partial(
            response,
            attempts,
            bytes,
            items,
            cursor,
            ErrorKind.PAGINATION,
            "page "
                + (n + 1)
                + " gives a next-page cursor already followed in this fetch (a loop); stopped");
      }
    }
    if (syncToken != null) {
      cursor.put(SYNC_TOKEN, syncToken);
    }
    Instant newest =
        items.stream()
            .map(RawItem::publishedAt)
            .filter(t -> t != null)
            .max(Instant::compareTo)
            .orElse(null);
    if (mapping.mode() == JsonMapping.Mode.SINCE && newest != null) {
      cursor.put(SINCE, newest.toString());
    }
    return new ReadResult(
        FetchStatus.ok,
        last.status(),
        attempts,
        bytes,
        items,
        cursor,
        null,
        null,
        null,
        ServerHints.of(first));
  }

  private record Page(JsonNode root, List<RawItem> items) {}

  private static ReadResult partial(
      HttpResult last,
      int attempts,
      long bytes,
      List<RawItem> items,
      Map<String, String> cursor,
      ErrorKind kind,
      String message) {
    return new ReadResult(
        FetchStatus.partial,
        last == null ? null : last.status(),
        attempts,
        bytes,
        items,
        cursor,
        kind,
        message,
        last == null ? null : last.retryAfter());
  }

  private static Instant since(SourceRequest request) {
    String saved = request.cursor().get(SINCE);
    if (saved != null) {
      try {
        return Instant.parse(saved);
      } catch (java.time.format.DateTimeParseException ignored) {
        // fall back to the window
      }
    }
    return request.options().windowBack() == null
        ? Instant.EPOCH
        : request.now().minus(request.options().windowBack());
  }
}
