package io.freshet.worker.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one way Freshet calls a source: a GET on the JDK {@link HttpClient} that
 *
 * <ul>
 *   <li>sends the cursor's ETag / Last-Modified as a conditional request;
 *   <li>checks every hop's resolved address with the {@link SsrfGuard} and follows at most {@code
 *       maxRedirects} redirects itself;
 *   <li>takes a turn from {@link Politeness} for every request, and starts a host-wide cool-down on
 *       429/503;
 *   <li>retries 429/5xx after 1 s, 2 s, 4 s (at most {@code maxRetries}), waiting longer when the
 *       server's Retry-After says so, and giving up at once (reporting it) when that is longer than
 *       {@code maxRetryWait};
 *   <li>reads the body under a size cap within the total timeout, and undoes gzip/deflate under a
 *       second cap.
 * </ul>
 *
 * Timeouts and connection failures are not retried: a slow source costs one timeout per fetch.
 * Thread-safe; meant to be shared and called from many virtual threads.
 */
public final class HttpFetcher implements AutoCloseable {

  private final HttpClient client;
  private final HttpSettings settings;
  private final SsrfGuard guard;
  private final Politeness politeness;
  private final Clock clock;
  private final Sleeper sleeper;
  private final ScheduledExecutorService deadlines;
  private final AtomicLong retries = new AtomicLong();

  public HttpFetcher(
      HttpSettings settings, SsrfGuard guard, Politeness politeness, Clock clock, Sleeper sleeper) {
    this.settings = settings;
    this.guard = guard;
    this.politeness = politeness;
    this.clock = clock;
    this.sleeper = sleeper;
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(settings.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    var deadlines =
        new ScheduledThreadPoolExecutor(
            1, r -> Thread.ofPlatform().daemon().name("http-deadlines").unstarted(r));
    // A body read in time cancels its deadline: it must leave the queue then, not at the end of
    // the total timeout. Else every fetch of the last 30 s stays queued with its response stream
    // (tens of thousands at a few hundred fetches/s), which survives young collections and is
    // copied and promoted by each.
    deadlines.setRemoveOnCancelPolicy(true);
    this.deadlines = deadlines;
  }

  /** Body deadlines still queued (a test's view: only reads in progress have one). */
  int pendingDeadlines() {
    return ((ScheduledThreadPoolExecutor) deadlines).getQueue().size();
  }

  /** A conditional GET: the validators from the last successful fetch, either may be null. */
  public record Conditional(String etag, String lastModified) {
    public static final Conditional NONE = new Conditional(null, null);
  }

  /**
   * GETs {@code url}. Any final status is returned (callers decide what a 404 or a 410 means); what
   * prevents an answer is thrown.
   *
   * @param headers extra request headers (e.g. credentials); never logged
   * @throws FetchFailure bad URL, refused address, DNS, connect, timeout, redirects, size caps
   * @throws InterruptedException when the worker stops meanwhile
   */
  public HttpResult get(URI url, Map<String, String> headers, Conditional conditional)
      throws FetchFailure, InterruptedException {
    return get(url, headers, conditional, null);
  }

  /**
   * As {@link #get(URI, Map, Conditional)}, but the first request is not sent when its turn at the
   * host ({@link Politeness}) comes after {@code notAfter}: the request's lease has ended and the
   * scheduler has re-emitted it. Once sent, retries and redirects go on as usual.
   *
   * @param notAfter null for no limit
   * @throws FetchFailure {@link ErrorKind#EXPIRED} (0 attempts) when the turn comes too late
   */
  public HttpResult get(
      URI url, Map<String, String> headers, Conditional conditional, Instant notAfter)
      throws FetchFailure, InterruptedException {
    return get(url, headers, conditional, notAfter, -1);
  }

  /**
   * As {@link #get(URI, Map, Conditional, Instant)} without headers or validators, keeping only the
   * first {@code keep} bytes of the (decoded) body and ignoring the rest instead of failing with
   * {@code too_large}: for robots.txt, of which only a prefix counts. The wire cap still holds for
   * a compressed body.
   */
  public HttpResult getPrefix(URI url, Instant notAfter, long keep)
      throws FetchFailure, InterruptedException {
    if (keep < 0) {
      throw new IllegalArgumentException("keep must be >= 0");
    }
    return get(url, Map.of(), Conditional.NONE, notAfter, keep);
  }

  // keep < 0: the whole body under the caps, else only its first keep bytes
  private HttpResult get(
      URI url, Map<String, String> headers, Conditional conditional, Instant notAfter, long keep)
      throws FetchFailure, InterruptedException {
    int attempts = 0;
    while (true) {
      attempts++;
      HttpResult result;
      try {
        result =
            followRedirects(
                url, headers, conditional, attempts, attempts == 1 ? notAfter : null, keep);
      } catch (FetchFailure f) {
        throw f.kind() == ErrorKind.EXPIRED ? f : f.withAttempts(attempts);
      }
      String host = result.finalUri().getHost();
      boolean throttled = result.status() == 429 || result.status() == 503;
      if (throttled) {
        politeness.coolDown(host, result.retryAfter());
      }
      if (result.status() != 429 && result.status() < 500) {
        politeness.answered(host);
        return result;
      }
      if (attempts > settings.maxRetries()) {
        return result;
      }
      Duration delay = settings.backoff(attempts);
      Instant now = clock.instant();
      if (result.retryAfter() != null) {
        Duration asked = Duration.between(now, result.retryAfter());
        if (asked.compareTo(settings.maxRetryWait()) > 0) {
          return result; // the scheduler gets retry_after; this fetch does not wait that long
        }
        if (asked.compareTo(delay) > 0) {
          delay = asked;
        }
      }
      retries.incrementAndGet();
      sleeper.sleep(delay);
    }
  }

  /** Retries made since this instance began (a metric). */
  public long retryCount() {
    return retries.get();
  }

  private HttpResult followRedirects(
      URI start,
      Map<String, String> headers,
      Conditional conditional,
      int attempt,
      Instant notAfter,
      long keep)
      throws FetchFailure, InterruptedException {
    URI uri = start;
    Set<URI> visited = new HashSet<>();
    boolean permanent = true;
    for (int hop = 0; ; hop++) {
      guard.check(uri);
      if (!visited.add(uri)) {
        throw new FetchFailure(
            ErrorKind.TOO_MANY_REDIRECTS, "redirect loop at " + SafeUrls.describe(uri));
      }
      // A source's credentials go only to its own origin: a redirect elsewhere gets none (a
      // hostile or compromised host must not harvest another service's API key by redirecting).
      Map<String, String> sent = sameOrigin(start, uri) ? headers : Map.of();
      Hop reply = once(uri, sent, conditional, attempt, hop == 0 ? notAfter : null, keep);
      HttpResult answer = reply.result();
      String location = reply.location();
      if (location == null) {
        // not a redirect, or a 3xx without Location: an answer like any other
        return hop > 0 && permanent ? answer.movedPermanently() : answer;
      }
      permanent &= answer.status() == 301 || answer.status() == 308;
      if (hop >= settings.maxRedirects()) {
        throw new FetchFailure(
            ErrorKind.TOO_MANY_REDIRECTS,
            "more than " + settings.maxRedirects() + " redirects from " + SafeUrls.describe(start),
            answer.status(),
            attempt,
            null);
      }
      try {
        uri = uri.resolve(new URI(location.trim()));
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new FetchFailure(ErrorKind.BAD_URL, "unreadable redirect Location header");
      }
    }
  }

  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null
        && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null
        && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  /** One request's answer; {@code location} is set only for a redirect. */
  private record Hop(HttpResult result, String location) {}

  private Hop once(
      URI uri,
      Map<String, String> headers,
      Conditional conditional,
      int attempt,
      Instant notAfter,
      long keep)
      throws FetchFailure, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri)
            .GET()
            .timeout(settings.totalTimeout())
            .header("User-Agent", settings.userAgent())
            .header("Accept-Encoding", "gzip, deflate");
    if (conditional.etag() != null) {
      request.header("If-None-Match", conditional.etag());
    }
    if (conditional.lastModified() != null) {
      request.header("If-Modified-Since", conditional.lastModified());
    }
    headers.forEach(request::header);
    try (Politeness.Permit permit =
        politeness.acquire(uri.getHost(), settings.maxRetryWait(), notAfter)) {
      // The total timeout runs from the request, not from the wait for the host's turn (a host
      // with many sources makes the last ones wait far longer than the timeout).
      long deadline = System.nanoTime() + settings.totalTimeout().toNanos();
      HttpResponse<InputStream> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = response.body()) {
        var headersIn = response.headers();
        int status = response.statusCode();
        Instant retryAfter =
            RetryAfter.parse(headersIn.firstValue("Retry-After").orElse(null), clock.instant());
        if (status >= 300 && status < 400 && status != 304) {
          return new Hop(
              new HttpResult(
                  status,
                  uri,
                  null,
                  new byte[0],
                  null,
                  null,
                  attempt,
                  0,
                  retryAfter,
                  null,
                  null,
                  null,
                  null),
              headersIn.firstValue("Location").orElse(null));
        }
        long declared = headersIn.firstValueAsLong("Content-Length").orElse(-1);
        String encoding = headersIn.firstValue("Content-Encoding").orElse(null);
        byte[] body;
        if (keep >= 0) {
          // only a prefix counts: read no further than it when the body is not compressed
          boolean plain =
              encoding == null
                  || encoding.isBlank()
                  || encoding.trim().equalsIgnoreCase("identity");
          body =
              BodyDecoder.decodePrefix(
                  readBefore(in, deadline, uri, plain ? keep : -1, -1), encoding, keep);
        } else {
          if (declared > settings.maxBodyBytes()) {
            throw new FetchFailure(
                ErrorKind.TOO_LARGE,
                "body of " + declared + " bytes exceeds " + settings.maxBodyBytes() + " bytes",
                status,
                attempt,
                null);
          }
          byte[] raw =
              status == 304 || status == 204 || declared == 0
                  // no body by the protocol: nothing to wait for, so no deadline to arm
                  ? BodyDecoder.readCapped(in, settings.maxBodyBytes(), "body", 0)
                  : readBefore(in, deadline, uri, -1, declared);
          body = BodyDecoder.decode(raw, encoding, settings.maxDecompressedBytes());
        }
        return new Hop(
            new HttpResult(
                status,
                uri,
                headersIn.firstValue("Content-Type").orElse(null),
                body,
                headersIn.firstValue("ETag").orElse(null),
                headersIn.firstValue("Last-Modified").orElse(null),
                attempt,
                body.length,
                retryAfter,
                null,
                FreshnessHeaders.maxAge(
                    headersIn.firstValue("Cache-Control").orElse(null),
                    headersIn.firstValue("Expires").orElse(null),
                    headersIn.firstValue("Date").orElse(null),
                    clock.instant()),
                LinkHeader.first(headersIn.allValues("Link"), "hub"),
                LinkHeader.first(headersIn.allValues("Link"), "self")),
            null);
      }
    } catch (HttpConnectTimeoutException e) {
      throw new FetchFailure(
          ErrorKind.TIMEOUT,
          "no connection to " + uri.getHost() + " within " + settings.connectTimeout());
    } catch (HttpTimeoutException e) {
      throw new FetchFailure(
          ErrorKind.TIMEOUT,
          "no complete answer from "
              + SafeUrls.describe(uri)
              + " within "
              + settings.totalTimeout());
    } catch (ConnectException e) {
      throw new FetchFailure(ErrorKind.CONNECT, "cannot connect to " + SafeUrls.describe(uri));
    } catch (IOException e) {
      throw new FetchFailure(
          ErrorKind.CONNECT,
          "connection to " + SafeUrls.describe(uri) + " failed: " + e.getClass().getSimpleName());
    } catch (IllegalArgumentException e) {
      throw new FetchFailure(ErrorKind.BAD_URL, "cannot request " + SafeUrls.describe(uri));
    }
  }

  // The JDK's request timeout ends at the response headers; the body must arrive before the same
  // deadline, so the stream is closed under a slow reader when it passes.
  // keep >= 0: only the first keep bytes are read, the rest ignored
  // declared: the Content-Length, -1 when unknown
  private byte[] readBefore(InputStream in, long deadlineNanos, URI uri, long keep, long declared)
      throws IOException, FetchFailure {
    long remaining = deadlineNanos - System.nanoTime();
    var timedOut = new java.util.concurrent.atomic.AtomicBoolean();
    var closer =
        deadlines.schedule(
            () -> {
              timedOut.set(true);
              try {
                in.close();
              } catch (IOException ignored) {
                // closing is all we want
              }
            },
            Math.max(0, remaining),
            TimeUnit.NANOSECONDS);
    try {
      return keep >= 0
          ? BodyDecoder.readPrefix(in, keep)
          : BodyDecoder.readCapped(in, settings.maxBodyBytes(), "body", declared);
    } catch (IOException e) {
      if (timedOut.get()) {
        throw new FetchFailure(
            ErrorKind.TIMEOUT,
            "body of "
                + SafeUrls.describe(uri)
                + " not complete within "
                + settings.totalTimeout());
      }
      throw e;
    } finally {
      closer.cancel(false);
    }
  }

  @Override
  public void close() {
    deadlines.shutdownNow();
    client.close();
  }
}
