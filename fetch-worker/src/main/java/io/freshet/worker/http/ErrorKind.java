package io.freshet.worker.http;

import java.util.Locale;

/**
 * Machine-readable class of a failed fetch, reported as {@code FetchCompleted.error_kind} in lower
 * case. Operators group failures by it; the message beside it says what exactly went wrong.
 */
public enum ErrorKind {
  /** The URL is not an absolute http(s) URL. */
  BAD_URL,
  /** The host name does not resolve. */
  DNS,
  /** The host resolves to an address the SSRF guard refuses (loopback, private, link-local...). */
  REFUSED_ADDRESS,
  /** The connection could not be made or broke. */
  CONNECT,
  /** No complete answer within the connect or total timeout. */
  TIMEOUT,
  /** More redirects than allowed, or a redirect loop. */
  TOO_MANY_REDIRECTS,
  /** The body, or its decompressed form, is larger than the cap. */
  TOO_LARGE,
  /**
   * The host is in a cool-down after a 429/503 that lasts longer than a fetch waits; the request
   * was not sent (retry_after says when the host may be asked again).
   */
  HOST_COOLING_DOWN,
  /**
   * The request's turn at its host comes after its {@code not_after}, when the scheduler has
   * re-emitted it: not sent, so the host is not asked twice. Reported as status {@code expired},
   * like a request picked up too late, without an error kind.
   */
  EXPIRED,
  /** A 4xx answer (after retries for 429). */
  HTTP_4XX,
  /** A 5xx answer after the retries. */
  HTTP_5XX,
  /** The body is not what the connector reads (malformed XML, JSON, iCalendar...). */
  PARSE,
  /**
   * A next-page cursor repeated one already followed in this fetch (a loop): pagination stopped,
   * the pages read so far kept (status {@code partial}).
   */
  PAGINATION,
  /** The request names a connector this worker does not implement. */
  UNSUPPORTED_CONNECTOR,
  /** The source's connector options are invalid (e.g. a negative item_limit). */
  CONFIG,
  /** The source's credentials could not be opened (no key, another key, malformed). */
  CREDENTIALS,
  /**
   * The host's robots.txt disallows the source's URL for the worker's user-agent, or could not be
   * read (5xx, unreachable) and so is taken as disallowing everything for a while (RFC 9309). No
   * request was made to the source's URL; the message names the robots.txt and the rule.
   */
  ROBOTS,
  /** The worker was stopped during the fetch. */
  INTERRUPTED,
  /**
   * Parsing the source's documents spent the fetch's work budget (CPU time, allocated bytes or wall
   * time; {@code freshet.budget.*}): a document built to exhaust a worker, or one far beyond what
   * the budget is sized for.
   */
  BUDGET_EXCEEDED,
  /**
   * The request was in flight, alone, when a worker process died, as often as {@code
   * freshet.worker.crash-guard.max-crashes} allows: it is answered failed and dead-lettered instead
   * of being fetched again (see {@code CrashGuard}).
   */
  CRASHED_WORKER;

  /** The form written to events: {@code refused_address}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
