package io.freshet.worker.connector;

import io.freshet.schemas.avro.Connector;
import io.freshet.worker.http.HttpFetcher;

/**
 * Reads one kind of source: chosen by {@code FetchRequested.connector}. A connector never throws
 * for a source's fault; every failure is a {@link ReadResult} with status failed and a clear error,
 * so one bad source never affects another.
 */
public interface SourceConnector {

  /** The connector symbol this one answers. */
  Connector type();

  /**
   * Reads the source through {@code http} (the only HTTP path: politeness, SSRF guard, retries).
   *
   * @throws InterruptedException when the worker stops meanwhile
   */
  ReadResult read(SourceRequest request, HttpFetcher http) throws InterruptedException;
}
