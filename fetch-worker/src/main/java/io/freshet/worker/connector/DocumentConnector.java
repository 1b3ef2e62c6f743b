package io.freshet.worker.connector;

import io.freshet.worker.budget.BudgetExceededException;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.http.SafeUrls;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.WebDates;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A connector that reads one document per fetch (a feed, a page, a calendar): one conditional GET,
 * 304 → not_modified, any other non-2xx → failed, else the document parsed into items, and the
 * response's ETag / Last-Modified kept in the cursor.
 */
public abstract class DocumentConnector implements SourceConnector {

  /** Cursor keys of the conditional GET. */
  public static final String ETAG = "etag";

  public static final String LAST_MODIFIED = "last_modified";

  @Override
  public final ReadResult read(SourceRequest request, HttpFetcher http)
      throws InterruptedException {
    HttpResult response;
    try {
      response =
          http.get(
              QueryParameters.append(request.url(), request.query()),
              request.headers(),
              new HttpFetcher.Conditional(
                  request.cursor().get(ETAG), request.cursor().get(LAST_MODIFIED)),
              request.notAfter());
    } catch (FetchFailure f) {
      return ReadResult.failed(f);
    }
    if (response.notModified()) {
      return ReadResult.notModified(response);
    }
    if (!response.successful()) {
      return ReadResult.failedStatus(response, SafeUrls.describe(request.url()));
    }
    try {
      Parsed parsed = request.budget().run(() -> parseDocument(response, request));
      List<RawItem> items = WebDates.plausibleDates(parsed.items(), request.now());
      return ReadResult.ok(response, items, validators(response)).withDocumentHints(parsed.hints());
    } catch (BudgetExceededException e) {
      return ReadResult.failed(
          new FetchFailure(
              ErrorKind.BUDGET_EXCEEDED,
              SafeUrls.describe(request.url()) + ": " + e.getMessage(),
              response.status(),
              response.attempts(),
              null));
    } catch (FetchFailure f) {
      return ReadResult.failed(
          new FetchFailure(f.kind(), f.getMessage(), response.status(), response.attempts(), null));
    } catch (RuntimeException e) {
      // A parser's unexpected exception is the document's fault, not the worker's.
      return ReadResult.failed(
          new FetchFailure(
              ErrorKind.PARSE,
              "cannot read "
                  + SafeUrls.describe(request.url())
                  + ": "
                  + e.getClass().getSimpleName()
                  + (e.getMessage() == null ? "" : ": " + e.getMessage()),
              response.status(),
              response.attempts(),
              null));
    }
  }

  /**
   * The document's items in source order. Runs on a parse thread under the fetch's work budget:
   * loops over items or recurrences call {@link io.freshet.worker.budget.WorkBudget#checkpoint()}.
   *
   * @throws FetchFailure {@code parse} when the document is not what this connector reads
   */
  protected abstract List<RawItem> parse(HttpResult response, SourceRequest request)
      throws FetchFailure;

  /** A document's items and what it says of its own freshness, moves and URLs. */
  public record Parsed(List<RawItem> items, ServerHints hints) {}

  /**
   * {@link #parse} and the document's own hints; a connector whose documents carry hints (feeds)
   * overrides this, the others have none beyond the response's headers.
   */
  protected Parsed parseDocument(HttpResult response, SourceRequest request) throws FetchFailure {
    return new Parsed(parse(response, request), ServerHints.NONE);
  }

  /** Resolves a possibly relative link against the document's final URL; null stays null. */
  protected static String resolve(URI base, String link) {
    if (link == null || link.isBlank()) {
      return null;
    }
    try {
      return base.resolve(link.trim()).toString();
    } catch (IllegalArgumentException e) {
      return link.trim();
    }
  }

  private static Map<String, String> validators(HttpResult response) {
    Map<String, String> cursor = new HashMap<>();
    if (response.etag() != null) {
      cursor.put(ETAG, response.etag());
    }
    if (response.lastModified() != null) {
      cursor.put(LAST_MODIFIED, response.lastModified());
    }
    return cursor;
  }
}
