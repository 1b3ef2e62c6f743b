package io.freshet.stack.bench;

import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWeb;
import io.freshet.stack.demoweb.Kind;
import io.freshet.worker.connector.feed.FeedConnector;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * The bare loop of the steady benchmark: {@code concurrency} virtual threads, each taking the next
 * source in turn, GET its document from the twin demo web — conditional on the validators of the
 * source's last 200, as the worker asks, unless told otherwise — and, for a 200 of a feed (RSS,
 * Atom, JSON Feed), parse it with the worker's own {@link FeedConnector}; calendars, APIs and pages
 * are read but not parsed. Nothing is stored or sent anywhere. Runs for a given time.
 */
final class SteadyBareLoop {

  /** What one window did. */
  record Result(long fetches, long ok, long notModified, long failed, long parsed, long items) {}

  private record Validators(String etag, String lastModified) {}

  private final DemoWeb twin;
  private final int concurrency;
  private final List<DemoSource> sources;
  private final ConcurrentHashMap<String, Validators> validators = new ConcurrentHashMap<>();
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final FeedConnector parser = new FeedConnector();

  private final boolean conditional;

  /**
   * @param conditional whether GETs carry the validators of the source's last 200 (as the worker's
   *     do); unconditional ones make every answer a 200 whose document is parsed
   */
  SteadyBareLoop(DemoWeb twin, int concurrency, boolean conditional) {
    this.twin = twin;
    this.conditional = conditional;
    this.concurrency = concurrency;
    this.sources = new ArrayList<>(twin.catalog().sources());
  }

  Result run(Duration length) throws Exception {
    AtomicLong next = new AtomicLong();
    AtomicLong fetches = new AtomicLong();
    AtomicLong ok = new AtomicLong();
    AtomicLong notModified = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicLong parsed = new AtomicLong();
    AtomicLong items = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    long end = System.nanoTime() + length.toNanos();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int w = 0; w < concurrency; w++) {
        pool.submit(
            () -> {
              while (!stop.get() && System.nanoTime() < end) {
                DemoSource s = sources.get((int) (next.getAndIncrement() % sources.size()));
                try {
                  int n = fetch(s);
                  if (n == -304) {
                    notModified.incrementAndGet();
                  } else {
                    ok.incrementAndGet();
                    if (n >= 0) {
                      parsed.incrementAndGet();
                      items.addAndGet(n);
                    }
                  }
                } catch (InterruptedException e) {
                  return null;
                } catch (Exception e) {
                  failed.incrementAndGet();
                }
                fetches.incrementAndGet();
              }
              return null;
            });
      }
    }
    return new Result(
        fetches.get(), ok.get(), notModified.get(), failed.get(), parsed.get(), items.get());
  }

  /** -304 for not modified, -1 for a 200 not parsed, else the items parsed. */
  private int fetch(DemoSource s) throws Exception {
    String url = twin.url(s);
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .header("Accept-Encoding", "gzip");
    Validators v = conditional ? validators.get(s.id()) : null;
    if (v != null && v.etag() != null) {
      b.header("If-None-Match", v.etag());
    }
    if (v != null && v.lastModified() != null) {
      b.header("If-Modified-Since", v.lastModified());
    }
    HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() == 304) {
      return -304;
    }
    if (r.statusCode() != 200) {
      throw new IllegalStateException(url + ": " + r.statusCode());
    }
    validators.put(
        s.id(),
        new Validators(
            r.headers().firstValue("ETag").orElse(null),
            r.headers().firstValue("Last-Modified").orElse(null)));
    byte[] body = r.body();
    if (r.headers().firstValue("Content-Encoding").orElse("").equals("gzip")) {
      body = new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
    }
    Kind k = s.kind();
    if (k == Kind.RSS || k == Kind.ATOM || k == Kind.JSON_FEED) {
      return parser
          .parse(body, r.headers().firstValue("Content-Type").orElse(k.contentType()), r.uri())
          .size();
    }
    return -1;
  }
}
