package io.freshet.stack.demoweb;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The demo web's hub side of WebSub, against a scripted subscriber: announces itself, verifies
 * intent, denies, stays silent, delivers signed notifications (and wrongly signed ones from its bad
 * variant), unsubscribes.
 */
class DemoHubTest {

  static final Instant ORIGIN = Instant.parse("2026-11-22T12:00:00Z");
  static final Instant TRACE_START = Instant.parse("2025-02-18T00:00:00Z");
  static final long T0 = TRACE_START.getEpochSecond();
  static final long DAY = 86_400;

  final MutableClock wall = new MutableClock(ORIGIN);
  final HttpClient http = HttpClient.newHttpClient();
  DemoWeb web;
  HttpServer subscriber;
  final BlockingQueue<Map<String, String>> verifications = new LinkedBlockingQueue<>();
  final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
  volatile boolean echo = true;

  record Delivery(String signature, String link, byte[] body) {}

  @BeforeEach
  void start() throws Exception {
    List<String> feedIds = new ArrayList<>();
    long[][] feedTimes = new long[200][];
    for (int f = 0; f < 200; f++) {
      feedIds.add("feed-" + f);
      feedTimes[f] = new long[] {T0 - DAY, T0 + DAY, T0 + 2 * DAY};
    }
    var settings =
        new DemoWebSettings(
            "0.0.0.0",
            0,
            1000,
            1000,
            3,
            1440,
            TRACE_START,
            ORIGIN,
            false,
            Duration.ofMillis(300),
            Duration.ofSeconds(2));
    Catalog catalog =
        Catalog.build(
            new TraceTimes(feedIds, feedTimes), new TraceTimes(List.of(), new long[0][]), settings);
    web = DemoWeb.start(settings, catalog, wall);
    subscriber = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    subscriber.createContext(
        "/cb",
        ex -> {
          try (ex) {
            if (ex.getRequestMethod().equals("GET")) {
              Map<String, String> q = DemoHub.form(ex.getRequestURI().getRawQuery());
              verifications.add(q);
              byte[] body =
                  echo && q.containsKey("hub.challenge")
                      ? q.get("hub.challenge").getBytes(StandardCharsets.UTF_8)
                      : new byte[0];
              int status = echo || "denied".equals(q.get("hub.mode")) ? 200 : 404;
              ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
              if (body.length > 0) {
                ex.getResponseBody().write(body);
              }
            } else {
              deliveries.add(
                  new Delivery(
                      ex.getRequestHeaders().getFirst("X-Hub-Signature"),
                      ex.getRequestHeaders().getFirst("Link"),
                      ex.getRequestBody().readAllBytes()));
              ex.sendResponseHeaders(202, -1);
            }
          }
        });
    subscriber.start();
  }

  @AfterEach
  void stop() {
    web.close();
    subscriber.stop(0);
  }

  String callback(String name) {
    return "http://127.0.0.1:" + subscriber.getAddress().getPort() + "/cb/" + name;
  }

  DemoSource pushing(DemoHub.Variant variant) {
    return web.catalog().sources().stream()
        .filter(s -> DemoHub.variantOf(s) == variant)
        .findFirst()
        .orElseThrow();
  }

  HttpResponse<String> hubRequest(String hub, Map<String, String> form) throws Exception {
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    return http.send(
        HttpRequest.newBuilder(URI.create(hub))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> subscribe(DemoSource s, String mode, String name) throws Exception {
    return hubRequest(
        web.hubUrl(s),
        Map.of(
            "hub.mode",
            mode,
            "hub.topic",
            web.url(s),
            "hub.callback",
            callback(name),
            "hub.secret",
            "s3cret",
            "hub.lease_seconds",
            "3600"));
  }

  @Test
  void aShareOfTheFeedsAnnouncesTheHubInALinkHeaderAndOthersDoNot() throws Exception {
    var pushing = DemoHub.pushing(List.copyOf(web.catalog().sources()));
    assertThat(pushing).isNotEmpty().hasSizeLessThan(web.catalog().size());
    assertThat(pushing.values()).contains(DemoHub.Variant.GOOD, DemoHub.Variant.DENIES);
    DemoSource s = pushing(DemoHub.Variant.GOOD);
    var feed = http.send(HttpRequest.newBuilder(URI.create(web.url(s))).build(), ofString());
    assertThat(feed.headers().firstValue("Link")).hasValue("<" + web.hubUrl(s) + ">; rel=\"hub\"");
    DemoSource quiet =
        web.catalog().sources().stream()
            .filter(x -> DemoHub.variantOf(x) == null)
            .findFirst()
            .orElseThrow();
    var plain = http.send(HttpRequest.newBuilder(URI.create(web.url(quiet))).build(), ofString());
    assertThat(plain.headers().firstValue("Link")).isEmpty();
  }

  @Test
  void verifiesIntentThenDeliversSignedNotificationsWhenTheFeedPublishesUntilUnsubscribed()
      throws Exception {
    DemoSource s = pushing(DemoHub.Variant.GOOD);
    assertThat(subscribe(s, "subscribe", "good").statusCode()).isEqualTo(202);
    var v = verifications.poll(5, TimeUnit.SECONDS);
    assertThat(v)
        .containsEntry("hub.mode", "subscribe")
        .containsEntry("hub.topic", web.url(s))
        .containsEntry("hub.lease_seconds", "3600")
        .containsKey("hub.challenge");
    awaitSubscriptions(1);

    web.hub().deliver();
    assertThat(deliveries.poll(300, TimeUnit.MILLISECONDS)).as("nothing new yet").isNull();

    wall.advance(Duration.ofSeconds(61)); // a trace day: the feed's next item
    web.hub().deliver();
    Delivery d = deliveries.poll(5, TimeUnit.SECONDS);
    assertThat(d).isNotNull();
    assertThat(d.signature()).isEqualTo("sha256=" + DemoHub.hmacSha256("s3cret", d.body()));
    assertThat(new String(d.body(), StandardCharsets.UTF_8)).contains(s.id() + "-1");
    assertThat(d.link()).contains("rel=\"hub\"").contains(web.url(s));
    web.hub().deliver();
    assertThat(deliveries.poll(300, TimeUnit.MILLISECONDS)).as("once per publication").isNull();

    assertThat(subscribe(s, "unsubscribe", "good").statusCode()).isEqualTo(202);
    assertThat(verifications.poll(5, TimeUnit.SECONDS))
        .containsEntry("hub.mode", "unsubscribe")
        .doesNotContainKey("hub.lease_seconds");
    awaitSubscriptions(0);
    wall.advance(Duration.ofSeconds(61));
    web.hub().deliver();
    assertThat(deliveries.poll(300, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void aSubscriberThatDoesNotEchoTheChallengeIsNotSubscribed() throws Exception {
    echo = false;
    DemoSource s = pushing(DemoHub.Variant.GOOD);
    subscribe(s, "subscribe", "refuses");
    assertThat(verifications.poll(5, TimeUnit.SECONDS)).containsKey("hub.challenge");
    Thread.sleep(200);
    assertThat(web.hub().subscriptions()).isZero();
    assertThat(web.hub().counts()).containsEntry("verifications.subscribe.refused", 1);
  }

  @Test
  void theMisbehavingHubsDenyStaySilentOrSignWrongly() throws Exception {
    subscribe(pushing(DemoHub.Variant.DENIES), "subscribe", "denied");
    assertThat(verifications.poll(5, TimeUnit.SECONDS))
        .containsEntry("hub.mode", "denied")
        .containsKey("hub.reason");

    subscribe(pushing(DemoHub.Variant.SILENT), "subscribe", "silent");
    assertThat(verifications.poll(500, TimeUnit.MILLISECONDS)).isNull();

    DemoSource bad = pushing(DemoHub.Variant.BAD_SIGNATURE);
    subscribe(bad, "subscribe", "bad");
    assertThat(verifications.poll(5, TimeUnit.SECONDS)).containsEntry("hub.mode", "subscribe");
    awaitSubscriptions(1);
    wall.advance(Duration.ofSeconds(61));
    web.hub().deliver();
    Delivery d = deliveries.poll(5, TimeUnit.SECONDS);
    assertThat(d.signature())
        .startsWith("sha256=")
        .isNotEqualTo("sha256=" + DemoHub.hmacSha256("s3cret", d.body()));
  }

  @Test
  void aRequestForATopicThisHubDoesNotServeOrWithoutCallbackIsRefused() throws Exception {
    DemoSource s = pushing(DemoHub.Variant.GOOD);
    var otherTopic =
        hubRequest(
            web.hubUrl(s),
            Map.of(
                "hub.mode",
                "subscribe",
                "hub.topic",
                "http://elsewhere.example/feed",
                "hub.callback",
                callback("x")));
    assertThat(otherTopic.statusCode()).isEqualTo(400);
    var noCallback =
        hubRequest(web.hubUrl(s), Map.of("hub.mode", "subscribe", "hub.topic", web.url(s)));
    assertThat(noCallback.statusCode()).isEqualTo(400);
    // The denying hub's topics are not the good hub's.
    var wrongHub =
        hubRequest(
            web.hubUrl(s).replace("/_hub", "/_hub/denies"),
            Map.of(
                "hub.mode", "subscribe", "hub.topic", web.url(s), "hub.callback", callback("y")));
    assertThat(wrongHub.statusCode()).isEqualTo(400);
    assertThat(verifications.poll(300, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  void theTestHookPushesSignedWithEachMethodUnderAWrongSecretOrUnsigned() throws Exception {
    DemoSource s = pushing(DemoHub.Variant.GOOD);
    assertThat(web.hub().push(s, new byte[] {1}, "sha256", DemoHub.Signing.VALID))
        .as("nobody subscribes yet")
        .isEmpty();
    subscribe(s, "subscribe", "hooks");
    verifications.poll(5, TimeUnit.SECONDS);
    awaitSubscriptions(1);
    assertThat(web.hub().callbacks(s)).containsExactly(URI.create(callback("hooks")));
    byte[] body = "a body".getBytes(StandardCharsets.UTF_8);
    for (String method : DemoHub.SIGNATURE_METHODS) {
      assertThat(web.hub().push(s, body, method, DemoHub.Signing.VALID)).containsExactly(202);
      assertThat(deliveries.poll(5, TimeUnit.SECONDS).signature())
          .isEqualTo(method + "=" + DemoHub.hmac(method, "s3cret", body));
      web.hub().push(s, body, method, DemoHub.Signing.WRONG_SECRET);
      assertThat(deliveries.poll(5, TimeUnit.SECONDS).signature())
          .startsWith(method + "=")
          .isNotEqualTo(method + "=" + DemoHub.hmac(method, "s3cret", body));
      web.hub().push(s, body, method, DemoHub.Signing.NONE);
      assertThat(deliveries.poll(5, TimeUnit.SECONDS).signature()).isNull();
    }
    assertThat(
            DemoHub.hmac("sha1", "key", "The quick brown fox jumps over the lazy dog".getBytes()))
        .as("RFC 2104 / Wikipedia's HMAC-SHA1 example")
        .isEqualTo("de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9");
  }

  @Test
  void pausedDeliveriesNotifyNobodyAndAGrantedLeaseOverridesTheAskedOne() throws Exception {
    web.hub().grantLease(Duration.ofSeconds(100));
    web.hub().pauseDeliveries(true);
    DemoSource s = pushing(DemoHub.Variant.GOOD);
    subscribe(s, "subscribe", "short");
    assertThat(verifications.poll(5, TimeUnit.SECONDS)).containsEntry("hub.lease_seconds", "100");
    awaitSubscriptions(1);
    wall.advance(Duration.ofSeconds(61)); // a trace day: the feed's next item
    web.hub().deliver();
    assertThat(deliveries.poll(300, TimeUnit.MILLISECONDS)).as("paused").isNull();
    web.hub().pauseDeliveries(false);
    web.hub().deliver();
    assertThat(deliveries.poll(5, TimeUnit.SECONDS)).as("resumed").isNotNull();
    wall.advance(Duration.ofSeconds(40));
    web.hub().deliver();
    assertThat(web.hub().subscriptions()).as("the 100 s lease ended").isZero();
  }

  @Test
  void theLapsingHubGrantsAShortLeaseAndNeverVerifiesARenewal() throws Exception {
    DemoSource s = pushing(DemoHub.Variant.LAPSES);
    assertThat(web.hubUrl(s)).endsWith("/_hub/lapses");
    subscribe(s, "subscribe", "lapsing");
    assertThat(verifications.poll(5, TimeUnit.SECONDS))
        .containsEntry("hub.mode", "subscribe")
        .containsEntry("hub.lease_seconds", "120");
    awaitSubscriptions(1);
    assertThat(subscribe(s, "subscribe", "lapsing").statusCode()).isEqualTo(202);
    assertThat(verifications.poll(500, TimeUnit.MILLISECONDS)).as("the renewal").isNull();
    wall.advance(Duration.ofSeconds(121));
    web.hub().deliver();
    assertThat(web.hub().subscriptions()).as("lapsed").isZero();
    subscribe(s, "subscribe", "lapsing");
    assertThat(verifications.poll(5, TimeUnit.SECONDS)).containsEntry("hub.mode", "subscribe");
  }

  @Test
  void aSourceWhoseRenewalsAreRefusedLapsesThenSubscribesAfresh() throws Exception {
    DemoSource s = pushing(DemoHub.Variant.GOOD);
    web.hub().refuseRenewals(s);
    subscribe(s, "subscribe", "lapse");
    assertThat(verifications.poll(5, TimeUnit.SECONDS)).containsEntry("hub.mode", "subscribe");
    awaitSubscriptions(1);
    assertThat(subscribe(s, "subscribe", "lapse").statusCode()).isEqualTo(202);
    assertThat(verifications.poll(500, TimeUnit.MILLISECONDS)).as("the renewal").isNull();
    assertThat(web.hub().counts()).containsEntry("renewals.refused", 1);
    wall.advance(Duration.ofSeconds(3601));
    web.hub().deliver();
    assertThat(web.hub().subscriptions()).as("lapsed").isZero();
    subscribe(s, "subscribe", "lapse");
    assertThat(verifications.poll(5, TimeUnit.SECONDS)).containsEntry("hub.mode", "subscribe");
  }

  private void awaitSubscriptions(int n) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (web.hub().subscriptions() != n && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertThat(web.hub().subscriptions()).isEqualTo(n);
  }

  private static HttpResponse.BodyHandler<String> ofString() {
    return HttpResponse.BodyHandlers.ofString();
  }
}
