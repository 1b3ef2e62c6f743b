package io.freshet.worker.connector;

import io.freshet.schemas.avro.FetchStatus;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.items.RawItem;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a connector's read of a source came to.
 *
 * @param status ok, partial, not_modified, failed, or expired (the host's turn came too late)
 * @param httpStatus status of the last response, or null when there was none
 * @param attempts HTTP requests made, retries included
 * @param bytes body bytes read (decompressed)
 * @param items the items read, in source order (empty unless ok or partial)
 * @param cursor the connector's cursor entries for the next fetch (etag, sync token...)
 * @param errorKind why it failed or is partial, or null
 * @param errorMessage what exactly, or null; never contains credentials
 * @param retryAfter when the source asked to be called again, or null
 * @param hints what the response and the document said of freshness, moves and their own URLs
 */
public record ReadResult(
    FetchStatus status,
    Integer httpStatus,
    int attempts,
    long bytes,
    List<RawItem> items,
    Map<String, String> cursor,
    ErrorKind errorKind,
    String errorMessage,
    Instant retryAfter,
    ServerHints hints) {

  public ReadResult {
    items = List.copyOf(items);
    cursor = Map.copyOf(cursor);
    hints = hints == null ? ServerHints.NONE : hints;
  }

  /** A result with no hints. */
  public ReadResult(
      FetchStatus status,
      Integer httpStatus,
      int attempts,
      long bytes,
      List<RawItem> items,
      Map<String, String> cursor,
      ErrorKind errorKind,
      String errorMessage,
      Instant retryAfter) {
    this(
        status,
        httpStatus,
        attempts,
        bytes,
        items,
        cursor,
        errorKind,
        errorMessage,
        retryAfter,
        ServerHints.NONE);
  }

  /** This result with the document's own hints added to the response's. */
  public ReadResult withDocumentHints(ServerHints document) {
    return new ReadResult(
        status,
        httpStatus,
        attempts,
        bytes,
        items,
        cursor,
        errorKind,
        errorMessage,
        retryAfter,
        hints.withDocument(document));
  }

  public static ReadResult ok(HttpResult http, List<RawItem> items, Map<String, String> cursor) {
    return new ReadResult(
        FetchStatus.ok,
        http.status(),
        http.attempts(),
        http.bytes(),
        items,
        cursor,
        null,
        null,
        null,
        ServerHints.of(http));
  }

  public static ReadResult notModified(HttpResult http) {
    return new ReadResult(
        FetchStatus.not_modified,
        304,
        http.attempts(),
        0,
        List.of(),
        Map.of(),
        null,
        null,
        null,
        ServerHints.of(http));
  }

  /**
   * A failure. {@link ErrorKind#EXPIRED} is the status {@code expired}, not an error; so is {@link
   * ErrorKind#HOST_COOLING_DOWN} — no request was sent, so it says nothing about the source — with
   * the cool-down's end as {@code retryAfter}, so that the scheduler defers it without a miss.
   */
  public static ReadResult failed(FetchFailure failure) {
    if (failure.kind() == ErrorKind.EXPIRED) {
      return new ReadResult(
          FetchStatus.expired, null, 0, 0, List.of(), Map.of(), null, failure.getMessage(), null);
    }
    if (failure.kind() == ErrorKind.HOST_COOLING_DOWN) {
      return new ReadResult(
          FetchStatus.expired,
          null,
          0,
          0,
          List.of(),
          Map.of(),
          failure.kind(),
          failure.getMessage(),
          failure.retryAfter());
    }
    return new ReadResult(
        FetchStatus.failed,
        failure.httpStatus(),
        failure.attempts(),
        0,
        List.of(),
        Map.of(),
        failure.kind(),
        failure.getMessage(),
        failure.retryAfter());
  }

  /** The read failed on an HTTP status (404, 410, 429 after retries, 5xx after retries). */
  public static ReadResult failedStatus(HttpResult http, String what) {
    ErrorKind kind = http.status() >= 500 ? ErrorKind.HTTP_5XX : ErrorKind.HTTP_4XX;
    return new ReadResult(
        FetchStatus.failed,
        http.status(),
        http.attempts(),
        http.bytes(),
        List.of(),
        Map.of(),
        kind,
        "HTTP " + http.status() + " from " + what,
        http.retryAfter(),
        ServerHints.of(http));
  }
}
