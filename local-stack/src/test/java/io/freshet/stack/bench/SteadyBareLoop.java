package io.freshet.stack.bench;

import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWeb;
import io.freshet.stack.demoweb.Kind;
import io.freshet.worker.connector.feed.FeedConnector;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 *
 * <p>It runs in a JVM of its own ({@link #main}, started by {@link BareLoopProcess}) with the
 * worker's JVM options, so that its figure depends neither on the benchmark's JVM — which serves
 * the demo webs and holds the ground truth of every item published, growing through the run — nor
 * on what that JVM did in the pipeline window before.
 */
final class SteadyBareLoop {

  /** What one window did. */
  record Result(long fetches, long ok, long notModified, long failed, long parsed, long items) {

    /** One line of the process's answer: the six counts, space-separated. */
    String line() {
      return fetches + " " + ok + " " + notModified + " " + failed + " " + parsed + " " + items;
    }

    static Result parse(String line) {
      String[] f = line.trim().split(" ");
      if (f.length != 6) {
        throw new IllegalArgumentException("not a bare loop result: " + line);
      }
      long[] v = new long[6];
      for (int i = 0; i < 6; i++) {
        v[i] = Long.parseLong(f[i]);
      }
      return new Result(v[0], v[1], v[2], v[3], v[4], v[5]);
    }
  }

  /**
   * One source as the loop sees it: its URL, the content type to assume without a header, and
   * whether its documents are feeds (parsed) or not (read only).
   */
  record Target(String id, String url, String contentType, boolean feed) {

    static Target of(DemoWeb twin, DemoSource s) {
      Kind k = s.kind();
      return new Target(
          s.id(),
          twin.url(s),
          k.contentType(),
          k == Kind.RSS || k == Kind.ATOM || k == Kind.JSON_FEED);
    }

    /** A tab-separated line (no field holds a tab or a line break). */
    String line() {
      return id + "\t" + url + "\t" + contentType + "\t" + feed;
    }

    static Target parse(String line) {
      String[] f = line.split("\t");
      return new Target(f[0], f[1], f[2], Boolean.parseBoolean(f[3]));
    }
  }

  private record Validators(String etag, String lastModified) {}

  private final int concurrency;
  private final List<Target> sources;
  private final ConcurrentHashMap<String, Validators> validators = new ConcurrentHashMap<>();
  // Several clients, each with its own selector thread: one client's selector, which also handles
  // every new connection (a source per host: most requests open one), held the loop to 1.5 of 2
  // cores with mostly 304s.
  private final List<HttpClient> clients;
  private final FeedConnector parser = new FeedConnector();

  private final boolean conditional;

  /**
   * @param conditional whether GETs carry the validators of the source's last 200 (as the worker's
   *     do); unconditional ones make every answer a 200 whose document is parsed
   */
  SteadyBareLoop(List<Target> sources, int concurrency, int clients, boolean conditional) {
    this.clients = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      this.clients.add(
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .followRedirects(HttpClient.Redirect.NEVER)
              .build());
    }
    this.conditional = conditional;
    this.concurrency = concurrency;
    this.sources = new ArrayList<>(sources);
  }

  /**
   * The loop's own JVM: {@code main <targets file> <concurrency> <clients> <conditional>}; then,
   * for each line {@code run <millis>} on standard input, runs that long and answers one line
   * {@link Result#line()} on standard output. Ends at the end of its input.
   */
  public static void main(String[] args) throws Exception {
    List<Target> targets =
        Files.readAllLines(Path.of(args[0])).stream().map(Target::parse).toList();
    SteadyBareLoop loop =
        new SteadyBareLoop(
            targets,
            Integer.parseInt(args[1]),
            Integer.parseInt(args[2]),
            Boolean.parseBoolean(args[3]));
    var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.startsWith("run ")) {
        Result r = loop.run(Duration.ofMillis(Long.parseLong(line.substring(4).trim())));
        System.out.println(r.line());
        System.out.flush();
      }
    }
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
        HttpClient client = clients.get(w % clients.size());
        pool.submit(
            () -> {
              while (!stop.get() && System.nanoTime() < end) {
                Target s = sources.get((int) (next.getAndIncrement() % sources.size()));
                try {
                  int n = fetch(client, s);
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
  private int fetch(HttpClient client, Target s) throws Exception {
    String url = s.url();
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
    if (s.feed()) {
      return parser
          .parse(body, r.headers().firstValue("Content-Type").orElse(s.contentType()), r.uri())
          .size();
    }
    return -1;
  }
}
