package io.freshet.stack.demoweb;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The demo web: every demo source's document over HTTP (JDK {@link HttpServer}), with conditional
 * GET, misbehaving hosts and the ground truth at {@code /_truth}. See the module README for every
 * path.
 */
public final class DemoWeb implements AutoCloseable {

  private static final String LOOP_SUFFIX = "/loop";

  private final DemoWebSettings settings;
  private final Catalog catalog;
  private final ScaledClock clock;
  private final GroundTruth truth;
  private final Renderer renderer;
  private final JsonMapper json = JsonMapper.builder().build();
  private final Map<String, Instant> lastOkByHost = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> requestsBySource = new ConcurrentHashMap<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final HttpServer server;
  private final ExecutorService executor;
  private final DemoHub hub;

  private DemoWeb(DemoWebSettings settings, Catalog catalog, Clock wall) throws IOException {
    this.settings = settings;
    this.catalog = catalog;
    Instant origin = settings.origin() != null ? settings.origin() : wall.instant();
    this.clock = new ScaledClock(wall, origin, settings.traceStart(), settings.scale());
    this.truth = new GroundTruth(catalog, clock);
    this.renderer = new Renderer(clock, json);
    this.server =
        HttpServer.create(
            new InetSocketAddress(InetAddress.getByName(settings.bindAddress()), settings.port()),
            256);
    this.executor = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    this.hub =
        new DemoHub(
            clock,
            this::pushingSourceOf,
            s ->
                renderer.render(
                    s, s.visibleAt(clock.traceNow()), "http://" + s.host() + ":" + port(), 0),
            Duration.ofMillis(250));
  }

  /** The demo source a topic URL names if it pushes, else null. */
  private DemoSource pushingSourceOf(String topic) {
    try {
      String[] parts = URI.create(topic).getPath().split("/", 4);
      DemoSource s = parts.length >= 3 ? catalog.get(parts[2]) : null;
      return s != null
              && s.path().equals(URI.create(topic).getPath())
              && DemoHub.variantOf(s) != null
          ? s
          : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The demo web's WebSub hub ({@link DemoHub}). */
  public DemoHub hub() {
    return hub;
  }

  /** The hub URL a source announces, or null when it does not push. */
  public String hubUrl(DemoSource s) {
    DemoHub.Variant v = DemoHub.variantOf(s);
    return v == null ? null : "http://" + s.host() + ":" + port() + v.path();
  }

  /** Starts the demo web over the traces bundled in this module. */
  public static DemoWeb start(DemoWebSettings settings, Clock wall) throws IOException {
    return start(settings, Catalog.fromBundledTraces(settings), wall);
  }

  public static DemoWeb start(DemoWebSettings settings, Catalog catalog, Clock wall)
      throws IOException {
    DemoWeb web = new DemoWeb(settings, catalog, wall);
    web.server.start();
    return web;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The URL of a source's document, on its own host address. */
  public String url(DemoSource s) {
    return "http://" + s.host() + ":" + port() + s.path();
  }

  public Catalog catalog() {
    return catalog;
  }

  public GroundTruth truth() {
    return truth;
  }

  public ScaledClock clock() {
    return clock;
  }

  /** Requests answered so far (any status). */
  public int requests() {
    return requests.get();
  }

  /**
   * One line per source, in the form the scheduler's {@code POST /sources/import} reads
   * (application/x-ndjson): name, connector, url and, for APIs, the sync-token mapping.
   */
  public String sourcesNdjson() {
    StringBuilder b = new StringBuilder();
    for (DemoSource s : catalog.sources()) {
      ObjectNode line = json.createObjectNode();
      line.put("name", "Demo " + s.kind().name().toLowerCase().replace('_', ' ') + " " + s.id());
      line.put("connector", s.kind().connector());
      line.put("url", url(s));
      if (s.kind() == Kind.JSON_API) {
        ObjectNode config = line.putObject("config");
        config.put("items_pointer", "/items");
        config.put("cursor_mode", "sync_token");
        config.put("sync_token_param", "sync_token");
        config.put("sync_token_pointer", "/next_sync_token");
      }
      b.append(json.writeValueAsString(line)).append('\n');
    }
    return b.toString();
  }

  @Override
  public void close() {
    hub.close();
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange ex) throws IOException {
    requests.incrementAndGet();
    try (ex) {
      if (!ex.getRemoteAddress().getAddress().isLoopbackAddress()) {
        send(ex, 403, "text/plain", "the demo web answers loopback clients only\n");
        return;
      }
      URI uri = ex.getRequestURI();
      String path = uri.getPath();
      if (path.equals("/_health")) {
        send(ex, 200, "text/plain", "ok\n");
      } else if (path.equals("/_sources")) {
        send(ex, 200, "application/x-ndjson", sourcesNdjson());
      } else if (path.equals("/_truth")) {
        send(ex, 200, "application/json", TruthJson.summary(json, truth, clock));
      } else if (path.startsWith("/_hub")) {
        hub.handle(ex, path);
      } else if (path.equals("/_truth/versions")) {
        send(ex, 200, "application/x-ndjson", TruthJson.versions(json, truth, clock));
      } else if (path.equals("/_truth/sources")) {
        send(ex, 200, "application/x-ndjson", TruthJson.sources(json, catalog.sources()));
      } else {
        serveSource(ex, path, uri.getRawQuery());
      }
    } catch (RuntimeException e) {
      send(ex, 500, "text/plain", "demo web error: " + e + "\n");
    }
  }

  private void serveSource(HttpExchange ex, String path, String query) throws IOException {
    String[] parts = path.split("/", 4);
    Kind kind = parts.length >= 3 ? Kind.ofPathSegment(parts[1]) : null;
    DemoSource s = kind == null ? null : catalog.get(parts[2]);
    if (s == null || s.kind() != kind) {
      send(ex, 404, "text/plain", "no demo source at " + path + "\n");
      return;
    }
    boolean loopLeg = path.endsWith(LOOP_SUFFIX);
    if (s.behaviour() == Behaviour.REDIRECT_LOOP) {
      ex.getResponseHeaders().set("Location", loopLeg ? s.path() : s.path() + LOOP_SUFFIX);
      send(ex, 302, "text/plain", "");
      return;
    }
    if (!path.equals(s.path())) {
      send(ex, 404, "text/plain", "no demo document at " + path + "\n");
      return;
    }
    Instant now = clock.wallNow();
    switch (s.behaviour()) {
      case RATE_LIMITED -> {
        Instant last = lastOkByHost.get(s.host());
        if (last != null && last.plus(settings.rateLimitGap()).isAfter(now)) {
          long seconds = Math.max(1, (settings.rateLimitGap().toMillis() + 999) / 1000);
          ex.getResponseHeaders().set("Retry-After", Long.toString(seconds));
          send(ex, 429, "text/plain", "slow down\n");
          return;
        }
      }
      case FLAKY -> {
        int n =
            requestsBySource.computeIfAbsent(s.id(), k -> new AtomicInteger()).incrementAndGet();
        if (n % 3 == 0) {
          send(ex, 503, "text/plain", "temporarily unavailable\n");
          return;
        }
      }
      case SLOW -> sleep(settings.slowDelay().toMillis());
      default -> {}
    }
    long traceNow = clock.traceNow();
    int count = s.publishedCount(traceNow);
    Integer token = s.kind() == Kind.JSON_API ? syncToken(query) : null;
    if (token != null && (token < 0 || token > count)) {
      send(ex, 410, "application/json", "{\"error\":\"sync token expired\"}\n");
      return;
    }
    List<ItemVersion> shown =
        s.kind() == Kind.JSON_API ? s.sinceToken(traceNow, token) : s.visibleAt(traceNow);
    int nextToken =
        shown.isEmpty() || s.kind() != Kind.JSON_API ? count : shown.getLast().index() + 1;
    String etag = "\"" + s.id() + "." + count + "\"";
    String lastModified = lastModified(s, traceNow, now);
    boolean conditional = token == null;
    String hubUrl = hubUrl(s);
    if (hubUrl != null) {
      ex.getResponseHeaders().set("Link", "<" + hubUrl + ">; rel=\"hub\"");
    }
    if (conditional && notModified(ex, etag, lastModified)) {
      ex.getResponseHeaders().set("ETag", etag);
      send(ex, 304, null, "");
      return;
    }
    String body = renderer.render(s, shown, "http://" + s.host() + ":" + port(), nextToken);
    if (s.behaviour() == Behaviour.MALFORMED) {
      send(ex, 200, s.kind().contentType(), body.substring(0, body.length() / 2));
      return;
    }
    ex.getResponseHeaders().set("ETag", etag);
    if (lastModified != null) {
      ex.getResponseHeaders().set("Last-Modified", lastModified);
    }
    if (s.behaviour() == Behaviour.RATE_LIMITED) {
      // before the answer: a client's next request may arrive as soon as it has this one
      lastOkByHost.put(s.host(), now);
    }
    send(ex, 200, s.kind().contentType(), body);
    truth.markServed(shown, now);
  }

  /**
   * Last-Modified of the newest version shown, in HTTP-date seconds — omitted while the current
   * second is not over, since another version could still appear within the same second and an
   * {@code If-Modified-Since} of that second would then hide it.
   */
  private String lastModified(DemoSource s, long traceNow, Instant now) {
    Long newest = s.newestAt(traceNow);
    if (newest == null) {
      return null;
    }
    Instant wall = clock.toWall(newest);
    if (wall.getEpochSecond() >= now.getEpochSecond()) {
      return null;
    }
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(wall.atOffset(ZoneOffset.UTC));
  }

  private static boolean notModified(HttpExchange ex, String etag, String lastModified) {
    String ifNoneMatch = ex.getRequestHeaders().getFirst("If-None-Match");
    if (ifNoneMatch != null) {
      for (String tag : ifNoneMatch.split(",")) {
        String t = tag.trim();
        if (t.startsWith("W/")) {
          t = t.substring(2);
        }
        if (t.equals(etag) || t.equals("*")) {
          return true;
        }
      }
      return false;
    }
    String ims = ex.getRequestHeaders().getFirst("If-Modified-Since");
    if (ims == null || lastModified == null) {
      return false;
    }
    try {
      ZonedDateTime since = ZonedDateTime.parse(ims, DateTimeFormatter.RFC_1123_DATE_TIME);
      ZonedDateTime modified =
          ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME);
      return !modified.isAfter(since);
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  static Integer syncToken(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.startsWith("sync_token=")) {
        try {
          return Integer.valueOf(pair.substring("sync_token=".length()));
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return null;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void send(HttpExchange ex, int status, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    if (contentType != null) {
      ex.getResponseHeaders().set("Content-Type", contentType);
    }
    boolean noBody = status == 304 || "HEAD".equals(ex.getRequestMethod());
    ex.sendResponseHeaders(status, noBody ? -1 : (bytes.length == 0 ? -1 : bytes.length));
    if (!noBody && bytes.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
