package io.freshet.scheduler.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.freshet.cadence.CadenceEngine;
import io.freshet.scheduler.claims.FetchRequestFactory;
import io.freshet.scheduler.schedule.BudgetPlanner;
import io.freshet.scheduler.schedule.CadenceTimeScale;
import io.freshet.scheduler.schedule.ClaimedSource;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.OutcomeRules;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.scheduler.schedule.ServerRules;
import io.freshet.scheduler.testing.Settings;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.worker.budget.BudgetLimits;
import io.freshet.worker.budget.ParsePool;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.fetch.CredentialsOpener;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.AddressResolver;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.HttpSettings;
import io.freshet.worker.http.SsrfGuard;
import io.freshet.worker.politeness.HostPoliteness;
import io.freshet.worker.politeness.PolitenessSettings;
import io.freshet.worker.robots.RobotsGuard;
import io.freshet.worker.robots.RobotsSettings;
import io.freshet.worker.signal.RuleSignalClassifier;
import io.freshet.worker.signal.SignalRules;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Freshet as a client of one server, over a simulated day: a scripted server plays a feed (new
 * items every two hours, a 90-minute {@code <ttl>}, a 429 with {@code Retry-After}, a permanent
 * move, then 410 Gone) and records every request; the real fetch path (fetch-worker's {@code
 * SourceFetcher}, HTTP over loopback) and the real outcome rules and cadence (this module's {@code
 * OutcomeRules}, {@code NextDue}) decide what is requested when, on a simulated clock. What a
 * server's operator would check of a polite client is asserted on the request log.
 */
class WellBehavedClientTest {

  private static final Instant START = Instant.parse("2026-11-24T00:00:00Z");
  private static final Instant END = START.plus(Duration.ofDays(1));
  private static final Instant THROTTLED_FROM = START.plus(Duration.ofHours(6));
  private static final Instant THROTTLED_UNTIL = START.plus(Duration.ofHours(8));
  private static final Instant MOVED_FROM = START.plus(Duration.ofHours(9));
  private static final Instant GONE_FROM = START.plus(Duration.ofHours(18));
  private static final Duration TTL = Duration.ofMinutes(90);

  private final SimClock clock = new SimClock(START);
  private final List<Hit> hits = new ArrayList<>();
  private final List<Instant> robotsRequests = new ArrayList<>();
  private HttpServer server;
  private HttpFetcher http;

  /** One request as the server saw it. */
  record Hit(Instant at, String path, String ifNoneMatch) {}

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    if (http != null) {
      http.close();
    }
  }

  @Test
  void aSimulatedDayOfRequestsIsWhatAPoliteClientSends() throws Exception {
    String base = "http://127.0.0.1:" + server.getAddress().getPort();
    Row row = new Row(base + "/feed-a");
    SourceFetcher fetcher = fetcher();
    NextDue nextDue = nextDue();

    int fetches = 0;
    while (row.enabled && row.nextDue.isBefore(END)) {
      clock.set(row.nextDue.isAfter(clock.instant()) ? row.nextDue : clock.instant());
      row.epoch++;
      Instant now = clock.instant();
      FetchCompleted done =
          fetcher
              .fetch(
                  FetchRequestFactory.create(row.claimed(), now, now.plus(Duration.ofMinutes(5))),
                  false)
              .completed();
      fetches++;
      var decision =
          OutcomeRules.decide(
              row.scheduleRow(now.plus(Duration.ofMinutes(5))),
              done,
              clock.instant(),
              nextDue::afterOutcome,
              ServerRules.DEFAULTS);
      row.apply((OutcomeRules.Apply) decision);
    }

    List<Hit> log = List.copyOf(hits);
    System.out.printf(
        "well-behaved client: %d fetches, %d requests over a simulated day (a 15-minute cadence"
            + " alone would make 96)%n",
        fetches, log.size());
    log.forEach(h -> System.out.printf("  %s %s %s%n", h.at(), h.path(), h.ifNoneMatch()));

    // Conditional headers on every request after the first.
    assertThat(log.subList(1, log.size())).allSatisfy(h -> assertThat(h.ifNoneMatch()).isNotNull());

    // Nothing before Retry-After.
    Instant throttled =
        log.stream()
            .map(Hit::at)
            .filter(t -> !t.isBefore(THROTTLED_FROM))
            .findFirst()
            .orElseThrow();
    assertThat(log).noneMatch(h -> h.at().isAfter(throttled) && h.at().isBefore(THROTTLED_UNTIL));

    // Nothing more often than the ttl allows (a redirect's hops, a second apart, are one fetch).
    List<Instant> fetchTimes = new ArrayList<>();
    for (Hit h : log) {
      if (fetchTimes.isEmpty()
          || Duration.between(fetchTimes.getLast(), h.at()).compareTo(Duration.ofSeconds(10)) > 0) {
        fetchTimes.add(h.at());
      }
    }
    for (int i = 1; i < fetchTimes.size(); i++) {
      assertThat(Duration.between(fetchTimes.get(i - 1), fetchTimes.get(i)))
          .as("gap before %s", fetchTimes.get(i))
          .isGreaterThanOrEqualTo(TTL);
    }

    // After a 301: the old URL at most twice more (the move is confirmed by a second fetch), then
    // only the new one.
    List<Hit> oldAfterMove =
        log.stream()
            .filter(h -> h.path().equals("/feed-a") && !h.at().isBefore(MOVED_FROM))
            .toList();
    assertThat(oldAfterMove).hasSizeLessThanOrEqualTo(2);
    Instant confirmed = oldAfterMove.getLast().at();
    assertThat(log)
        .filteredOn(h -> h.at().isAfter(confirmed))
        .allMatch(h -> h.path().equals("/feed-b"));
    assertThat(row.url).isEqualTo(base + "/feed-b");

    // robots.txt (the source asks for it to be obeyed): once per host per cache period (24 h).
    System.out.printf("  robots.txt requested at %s%n", robotsRequests);
    assertThat(robotsRequests).hasSize(1);

    // Nothing after a 410.
    Instant gone =
        log.stream().map(Hit::at).filter(t -> !t.isBefore(GONE_FROM)).findFirst().orElseThrow();
    assertThat(log).noneMatch(h -> h.at().isAfter(gone));
    assertThat(row.enabled).isFalse();
    assertThat(row.disabledReason).isEqualTo("gone");
  }

  // --- the scripted server

  private void answer(HttpExchange exchange) throws IOException {
    Instant now = clock.instant();
    String path = exchange.getRequestURI().getPath();
    if (path.equals("/robots.txt")) {
      synchronized (robotsRequests) {
        robotsRequests.add(now);
      }
      send(exchange, 200, "User-agent: *\nDisallow: /private/\n");
      return;
    }
    String ifNoneMatch = exchange.getRequestHeaders().getFirst("If-None-Match");
    synchronized (hits) {
      hits.add(new Hit(now, path, ifNoneMatch));
    }
    if (path.equals("/feed-a") && !now.isBefore(MOVED_FROM)) {
      exchange.getResponseHeaders().add("Location", "/feed-b");
      send(exchange, 301, "");
      return;
    }
    if (path.equals("/feed-b") && !now.isBefore(GONE_FROM)) {
      send(exchange, 410, "gone");
      return;
    }
    if (!now.isBefore(THROTTLED_FROM) && now.isBefore(THROTTLED_UNTIL)) {
      exchange
          .getResponseHeaders()
          .add(
              "Retry-After",
              DateTimeFormatter.RFC_1123_DATE_TIME.format(
                  THROTTLED_UNTIL.atOffset(ZoneOffset.UTC)));
      send(exchange, 429, "slow down");
      return;
    }
    long items = Duration.between(START, now).toHours() / 2 + 1;
    String etag = "\"v" + items + "\"";
    exchange.getResponseHeaders().add("ETag", etag);
    if (etag.equals(ifNoneMatch)) {
      send(exchange, 304, "");
      return;
    }
    StringBuilder rss =
        new StringBuilder("<rss version=\"2.0\"><channel><title>t</title><ttl>90</ttl>");
    for (long i = items; i >= 1; i--) {
      rss.append("<item><guid>item-")
          .append(i)
          .append("</guid><title>Item ")
          .append(i)
          .append("</title></item>");
    }
    rss.append("</channel></rss>");
    exchange.getResponseHeaders().add("Content-Type", "application/rss+xml");
    send(exchange, 200, rss.toString());
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  // --- Freshet's parts

  private SourceFetcher fetcher() {
    HttpSettings settings =
        new HttpSettings(
            Duration.ofSeconds(2),
            Duration.ofSeconds(5),
            3,
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            1 << 20,
            4 << 20,
            5,
            "Freshet-test");
    var politeness =
        new HostPoliteness(
            new PolitenessSettings(
                Duration.ofSeconds(1), 4, Duration.ofSeconds(1), Duration.ofHours(1)),
            clock,
            clock::advance);
    http =
        new HttpFetcher(
            settings,
            new SsrfGuard(AddressResolver.SYSTEM, true, false),
            politeness,
            clock,
            clock::advance);
    var robots = new RobotsGuard(RobotsSettings.defaults("freshet-test"), http, politeness, clock);
    return new SourceFetcher(
        FetchPath.connectors(),
        http,
        new RuleSignalClassifier(new SignalRules(List.of(), List.of(), List.of())),
        new CredentialsOpener(
            CredentialCipher.fromBase64Key(Base64.getEncoder().encodeToString(new byte[32]))),
        new ConnectorOptions(50, Duration.ofDays(30), Duration.ofDays(60), false),
        10_000,
        new ParsePool(1, new BudgetLimits(Duration.ofSeconds(5), 1L << 30, Duration.ofSeconds(20))),
        robots,
        clock);
  }

  private NextDue nextDue() {
    CadenceEngine engine = new CadenceEngine(clock);
    var props = Settings.defaults().build();
    return new NextDue(
        engine, new BudgetPlanner(null, engine, props, clock), CadenceTimeScale.identity());
  }

  /** The source's row as the scheduler keeps it, applied as {@code ScheduleRepository} does. */
  private static final class Row {
    final UUID id = UUID.fromString("6f1d4c3e-0000-4000-8000-000000000001");
    final String config =
        "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":15},\"robots\":\"obey\"}";
    String url;
    String cursorJson = "{}";
    long epoch;
    int misses;
    Instant nextDue = START;
    Instant retryAfter;
    String movedTo;
    String hintsJson;
    boolean enabled = true;
    String disabledReason;

    Row(String url) {
      this.url = url;
    }

    ClaimedSource claimed() {
      return new ClaimedSource(
          id, "acme", "feed", url, "127.0.0.1", config, cursorJson, null, epoch, 0, nextDue, false);
    }

    ScheduleRow scheduleRow(Instant leaseUntil) {
      return new ScheduleRow(
          id,
          "pro",
          null,
          enabled,
          config,
          cursorJson,
          leaseUntil,
          leaseUntil,
          epoch,
          false,
          retryAfter,
          misses,
          0,
          0,
          null,
          null,
          "{}",
          null,
          null,
          List.of(),
          null,
          null,
          null,
          url,
          false,
          movedTo,
          hintsJson);
    }

    void apply(OutcomeRules.Apply a) {
      cursorJson = a.cursorJson();
      misses = a.misses();
      nextDue = a.nextDue();
      retryAfter = a.retryAfter();
      if (a.facts() != null) {
        movedTo = a.facts().movedTo();
        hintsJson = a.facts().hintsJson();
      }
      if (a.move() != null) {
        url = a.move().to();
      }
      if (a.disabledReason() != null) {
        enabled = false;
        disabledReason = a.disabledReason();
      }
    }
  }

  /** A clock the test moves; the worker's waits advance it instead of sleeping. */
  static final class SimClock extends Clock {
    private volatile Instant now;

    SimClock(Instant start) {
      now = start;
    }

    void set(Instant t) {
      now = t;
    }

    synchronized void advance(Duration d) {
      if (!d.isNegative()) {
        now = now.plus(d);
      }
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
