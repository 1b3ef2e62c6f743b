package io.freshet.stack.demoweb;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The demo web as a WebSub hub (W3C WebSub, the hub's side) for a share of its feeds: a feed that
 * pushes announces {@code Link: <…/_hub…>; rel="hub"}; the hub accepts {@code hub.mode=subscribe}
 * and {@code unsubscribe} (202), verifies the intent against the callback ({@code hub.challenge}
 * must come back), and when the feed's timeline publishes, POSTs the feed's document to every
 * verified, unexpired subscriber, signed {@code X-Hub-Signature: sha256=<hex HMAC of the body>}
 * with the subscriber's {@code hub.secret}.
 *
 * <p>Misbehaving variants, each at its own path, for a few push feeds ({@link Variant}): a hub that
 * denies every subscription, one that never verifies, one that signs with the wrong key, one that
 * grants short leases and never verifies a renewal (the lease lapses; a subscribe after it ended is
 * verified as a new one).
 *
 * <p>Test hooks (none changes anything until called): {@link #grantLease} (a short lease, so a
 * subscriber renews within a test), {@link #refuseRenewals} (a source's renewals go unanswered and
 * its lease lapses), {@link #pauseDeliveries} (the timelines notify no one; leases still end), and
 * {@link #push} (one notification now, signed with a chosen algorithm, a wrong secret, or not at
 * all) — how {@code DemoHubSubscriberIT} runs the WebSub subscriber cases against this hub.
 */
public final class DemoHub implements AutoCloseable {

  /** The longest lease the {@link Variant#LAPSES} hub grants. */
  public static final Duration LAPSING_LEASE = Duration.ofMinutes(2);

  /**
   * What the Atom documents put before an item's id in its {@code <id>} (a URN, as Atom asks), so
   * what a reader of them stores as the item's id: {@code urn:freshet-demo:<item id>}.
   */
  public static final String ATOM_ID_PREFIX = "urn:freshet-demo:";

  /** Out of every 100 feeds (RSS, Atom, JSON Feed on a well-behaved host), how many push. */
  public static final int PUSH_PERCENT = 40;

  /** How a hub behaves; each answers at its own path. */
  public enum Variant {
    /** Verifies, delivers, signs correctly. */
    GOOD("/_hub"),
    /** Answers every subscription with {@code hub.mode=denied}. */
    DENIES("/_hub/denies"),
    /** Accepts requests (202) and never verifies them. */
    SILENT("/_hub/silent"),
    /** Verifies, delivers, but signs with another key than the subscriber's secret. */
    BAD_SIGNATURE("/_hub/bad-signature"),
    /**
     * Grants at most {@link #LAPSING_LEASE} and leaves every renewal unverified: each lease lapses,
     * and the subscriber must subscribe afresh once it has.
     */
    LAPSES("/_hub/lapses");

    private final String path;

    Variant(String path) {
      this.path = path;
    }

    public String path() {
      return path;
    }

    static Variant ofPath(String path) {
      for (Variant v : values()) {
        if (v.path.equals(path)) {
          return v;
        }
      }
      return null;
    }
  }

  /**
   * The hub a source announces, or null when it does not push: {@link #PUSH_PERCENT} % of the feeds
   * on well-behaved hosts, chosen by a stable hash of the id; of those, one in ten each announces a
   * denying, a silent, a wrongly signing and a lapsing hub.
   */
  public static Variant variantOf(DemoSource s) {
    if (s.behaviour() != Behaviour.NORMAL
        || !(s.kind() == Kind.RSS || s.kind() == Kind.ATOM || s.kind() == Kind.JSON_FEED)) {
      return null;
    }
    int h = Math.floorMod(s.id().hashCode() * 0x9E3779B1, 1000);
    if (h >= PUSH_PERCENT * 10) {
      return null;
    }
    return switch (h % 10) {
      case 0 -> Variant.DENIES;
      case 1 -> Variant.SILENT;
      case 3 -> Variant.BAD_SIGNATURE; // 3: PushEndToEndIT's 60 sources then hold every variant
      case 9 -> Variant.LAPSES; // 9: as 3, and 4 of those 60 still on the good hub
      default -> Variant.GOOD;
    };
  }

  /** One verified subscription. */
  record Subscription(
      DemoSource source, String topic, URI callback, String secret, Instant leaseEnd, int seen) {}

  private final ScaledClock clock;
  private final Function<String, DemoSource> sourceOfTopic;
  private final Function<DemoSource, String> document;
  private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();
  private final ScheduledExecutorService ticker =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "demo-hub");
            t.setDaemon(true);
            return t;
          });
  private final SecureRandom random = new SecureRandom();
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> deliveredBySource = new ConcurrentHashMap<>();
  private volatile Duration grantedLease;
  private volatile boolean deliveriesPaused;
  private final Set<String> refusingRenewals = ConcurrentHashMap.newKeySet();
  private final Map<String, String> topicBySourceId = new ConcurrentHashMap<>();

  /** How {@link #push} signs a notification. */
  public enum Signing {
    /** {@code X-Hub-Signature: <method>=<HMAC of the body with the subscriber's secret>} */
    VALID,
    /** the header of the method, but the HMAC under another key */
    WRONG_SECRET,
    /** no {@code X-Hub-Signature} at all */
    NONE
  }

  /** The {@code X-Hub-Signature} methods of the WebSub Recommendation. */
  public static final List<String> SIGNATURE_METHODS =
      List.of("sha1", "sha256", "sha384", "sha512");

  /**
   * @param sourceOfTopic the push-enabled demo source a topic URL names, or null
   * @param document the feed document of a source as it is now
   */
  DemoHub(
      ScaledClock clock,
      Function<String, DemoSource> sourceOfTopic,
      Function<DemoSource, String> document,
      Duration tick) {
    this.clock = clock;
    this.sourceOfTopic = sourceOfTopic;
    this.document = document;
    ticker.scheduleWithFixedDelay(
        this::deliverSafely, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Counters: requests, verifications, denials, deliveries and their answers, by name. */
  public Map<String, Integer> counts() {
    Map<String, Integer> out = new HashMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  /**
   * Notifications of {@code source}'s timeline its subscribers accepted (a 2xx) so far; the test
   * hooks' {@link #push} calls are not counted.
   */
  public int delivered(DemoSource source) {
    AtomicInteger n = deliveredBySource.get(source.id());
    return n == null ? 0 : n.get();
  }

  /** Verified subscriptions now. */
  public int subscriptions() {
    return subscriptions.size();
  }

  /**
   * Test hook: every subscription verified from now on is granted {@code lease} whatever the
   * subscriber asked (null: what it asked, within 60 s to 10 days, the default).
   */
  public void grantLease(Duration lease) {
    this.grantedLease = lease;
  }

  /**
   * Test hook: a renewal (a subscribe while the same callback's lease runs another second) for
   * {@code source} is accepted (202) and never verified, so the lease lapses; a subscribe after it
   * ended is verified as a new one.
   */
  public void refuseRenewals(DemoSource source) {
    refusingRenewals.add(source.id());
  }

  /** Test hook: while paused the timelines notify no one (leases still end). */
  public void pauseDeliveries(boolean paused) {
    this.deliveriesPaused = paused;
  }

  /** The callbacks of the verified, unexpired subscriptions to {@code source}'s topic now. */
  public List<URI> callbacks(DemoSource source) {
    Instant now = clock.wallNow();
    return subscriptions.values().stream()
        .filter(s -> s.source().id().equals(source.id()) && s.leaseEnd().isAfter(now))
        .map(Subscription::callback)
        .toList();
  }

  /**
   * Test hook: POSTs {@code body} now to every verified subscriber of {@code source}, signed with
   * {@code method} (sha1, sha256, sha384, sha512) as {@code signing} says; returns each answer's
   * status (empty when nobody subscribes).
   */
  public List<Integer> push(DemoSource source, byte[] body, String method, Signing signing)
      throws IOException, InterruptedException {
    Instant now = clock.wallNow();
    List<Integer> statuses = new ArrayList<>();
    for (Subscription s : List.copyOf(subscriptions.values())) {
      if (s.source().id().equals(source.id()) && s.leaseEnd().isAfter(now)) {
        String key =
            switch (signing) {
              case VALID -> s.secret();
              case WRONG_SECRET -> "not-" + s.secret();
              case NONE -> null;
            };
        statuses.add(post(s.callback(), s.topic(), s.source(), body, method, key));
      }
    }
    return statuses;
  }

  /**
   * Test hook: POSTs {@code body} to {@code callback} (any URL, e.g. a callback nobody was given)
   * as a notification of {@code source}'s topic, signed with {@code method} under {@code secret}
   * (null: unsigned); returns the answer's status.
   */
  public int push(URI callback, DemoSource source, byte[] body, String method, String secret)
      throws IOException, InterruptedException {
    return post(callback, topicOf(source), source, body, method, secret);
  }

  /** The topic URL last subscribed to (or unsubscribed from) for {@code source}. */
  private String topicOf(DemoSource source) {
    String topic = topicBySourceId.get(source.id());
    if (topic == null) {
      throw new IllegalStateException("nobody ever subscribed to " + source.id());
    }
    return topic;
  }

  private void count(String name) {
    counts.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
  }

  /** A request to {@code /_hub…}: subscribe or unsubscribe (form-encoded POST). */
  void handle(HttpExchange ex, String path) throws IOException {
    Variant variant = Variant.ofPath(path);
    if (variant == null || !"POST".equals(ex.getRequestMethod())) {
      DemoWeb.send(ex, variant == null ? 404 : 405, "text/plain", "a WebSub hub: POST a form\n");
      return;
    }
    Map<String, String> form =
        form(new String(ex.getRequestBody().readNBytes(64 * 1024), StandardCharsets.UTF_8));
    String mode = form.get("hub.mode");
    String topic = form.get("hub.topic");
    String callback = form.get("hub.callback");
    DemoSource source = topic == null ? null : sourceOfTopic.apply(topic);
    URI callbackUri = callbackUri(callback);
    if (!("subscribe".equals(mode) || "unsubscribe".equals(mode))
        || source == null
        || variantOf(source) != variant
        || callbackUri == null) {
      count("requests.refused");
      DemoWeb.send(ex, 400, "text/plain", "bad request: mode, a topic of this hub, a callback\n");
      return;
    }
    count("requests." + mode);
    topicBySourceId.put(source.id(), topic);
    DemoWeb.send(ex, 202, "text/plain", "");
    String secret = form.get("hub.secret");
    long lease = leaseSeconds(form.get("hub.lease_seconds"));
    requests.submit(() -> verify(variant, mode, source, topic, callbackUri, secret, lease));
  }

  private void verify(
      Variant variant,
      String mode,
      DemoSource source,
      String topic,
      URI callback,
      String secret,
      long lease) {
    String key = callback + " " + topic;
    try {
      switch (variant) {
        case SILENT -> {
          count("verifications.never");
          return;
        }
        case DENIES -> {
          get(
              callback,
              Map.of(
                  "hub.mode", "denied", "hub.topic", topic, "hub.reason", "this hub denies all"));
          subscriptions.remove(key);
          count("denials");
          return;
        }
        default -> {}
      }
      if (mode.equals("subscribe")
          && (variant == Variant.LAPSES || refusingRenewals.contains(source.id()))) {
        // A renewal: the lease still runs for more than a second. A subscriber that saw its
        // lease end subscribes again at once: that is a new subscription. The hub's lease counts
        // from when it sent the verification, so it never ends after the subscriber's (which
        // counts from receiving it) however slow the round trip on a loaded machine.
        Subscription running = subscriptions.get(key);
        if (running != null && running.leaseEnd().isAfter(clock.wallNow().plusSeconds(1))) {
          count("renewals.refused");
          return;
        }
      }
      String challenge = HexFormat.of().formatHex(bytes(16));
      Map<String, String> query = new HashMap<>();
      query.put("hub.mode", mode);
      query.put("hub.topic", topic);
      query.put("hub.challenge", challenge);
      Duration granted = grantedLease;
      long leaseGiven =
          granted != null
              ? granted.toSeconds()
              : variant == Variant.LAPSES ? Math.min(lease, LAPSING_LEASE.toSeconds()) : lease;
      if (mode.equals("subscribe")) {
        query.put("hub.lease_seconds", Long.toString(leaseGiven));
      }
      Instant sentAt = clock.wallNow();
      HttpResponse<String> answer = get(callback, query);
      boolean confirmed = answer.statusCode() / 100 == 2 && challenge.equals(answer.body());
      count("verifications." + mode + (confirmed ? ".confirmed" : ".refused"));
      if (!confirmed) {
        return;
      }
      if (mode.equals("unsubscribe")) {
        subscriptions.remove(key);
        return;
      }
      String signingKey =
          secret == null ? null : variant == Variant.BAD_SIGNATURE ? "not-" + secret : secret;
      int seen = source.publishedCount(clock.traceNow());
      subscriptions.put(
          key,
          new Subscription(
              source, topic, callback, signingKey, sentAt.plusSeconds(leaseGiven), seen));
    } catch (IOException e) {
      count("verifications.failed");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void deliverSafely() {
    try {
      deliver();
    } catch (RuntimeException e) {
      count("deliveries.error");
    }
  }

  /** Notifies every subscriber whose feed published since its last notification. */
  void deliver() {
    long traceNow = clock.traceNow();
    Instant now = clock.wallNow();
    for (var entry : subscriptions.entrySet()) {
      Subscription s = entry.getValue();
      if (!s.leaseEnd().isAfter(now)) {
        subscriptions.remove(entry.getKey(), s);
        count("leases.ended");
        continue;
      }
      int published = s.source().publishedCount(traceNow);
      if (deliveriesPaused || published <= s.seen()) {
        continue;
      }
      subscriptions.replace(
          entry.getKey(),
          s,
          new Subscription(
              s.source(), s.topic(), s.callback(), s.secret(), s.leaseEnd(), published));
      requests.submit(() -> notify(s));
    }
  }

  private void notify(Subscription s) {
    byte[] body = document.apply(s.source()).getBytes(StandardCharsets.UTF_8);
    try {
      int status = post(s.callback(), s.topic(), s.source(), body, "sha256", s.secret());
      if (status / 100 == 2) {
        deliveredBySource
            .computeIfAbsent(s.source().id(), k -> new AtomicInteger())
            .incrementAndGet();
      }
      if (status == 410) {
        subscriptions.remove(s.callback() + " " + s.topic());
      }
    } catch (IOException e) {
      count("deliveries.failed");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One notification: {@code body} signed {@code method=<HMAC under key>}, unsigned if no key. */
  private int post(
      URI callback, String topic, DemoSource source, byte[] body, String method, String key)
      throws IOException, InterruptedException {
    var request =
        HttpRequest.newBuilder(callback)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", source.kind().contentType())
            .header("Link", "<" + topic + ">; rel=\"self\", <" + hubUrlOf(topic) + ">; rel=\"hub\"")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (key != null) {
      request.header("X-Hub-Signature", method + "=" + hmac(method, key, body));
    }
    int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    count("deliveries." + status);
    return status;
  }

  private String hubUrlOf(String topic) {
    URI t = URI.create(topic);
    DemoSource s = sourceOfTopic.apply(topic);
    Variant v = s == null ? Variant.GOOD : variantOf(s);
    return t.getScheme() + "://" + t.getAuthority() + (v == null ? Variant.GOOD : v).path();
  }

  /** {@code sha256} HMAC of {@code body} under {@code secret}, lower-case hex. */
  static String hmacSha256(String secret, byte[] body) {
    return hmac("sha256", secret, body);
  }

  /** The HMAC of {@code body} under {@code secret} with {@code method} (sha1…sha512), hex. */
  static String hmac(String method, String secret, byte[] body) {
    String algorithm =
        switch (method) {
          case "sha1" -> "HmacSHA1";
          case "sha256" -> "HmacSHA256";
          case "sha384" -> "HmacSHA384";
          case "sha512" -> "HmacSHA512";
          default -> throw new IllegalArgumentException("not a WebSub signature method: " + method);
        };
    try {
      Mac mac = Mac.getInstance(algorithm);
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), algorithm));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<String> get(URI callback, Map<String, String> query)
      throws IOException, InterruptedException {
    StringBuilder q = new StringBuilder();
    for (var e : query.entrySet()) {
      q.append(q.isEmpty() ? "" : "&")
          .append(enc(e.getKey()))
          .append('=')
          .append(enc(e.getValue()));
    }
    String sep = callback.getRawQuery() == null ? "?" : "&";
    return http.send(
        HttpRequest.newBuilder(URI.create(callback + sep + q))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A callback the demo hub calls: http(s) on a loopback address (the demo web's own rule). */
  private static URI callbackUri(String callback) {
    if (callback == null) {
      return null;
    }
    try {
      URI uri = URI.create(callback);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        return null;
      }
      return uri;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static long leaseSeconds(String asked) {
    try {
      long v = asked == null ? 86_400 : Long.parseLong(asked);
      return Math.clamp(v, 60, 864_000);
    } catch (NumberFormatException e) {
      return 86_400;
    }
  }

  static Map<String, String> form(String body) {
    Map<String, String> out = new HashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  /** The demo sources that push, with the hub each announces. */
  public static Map<DemoSource, Variant> pushing(List<DemoSource> sources) {
    Map<DemoSource, Variant> out = new HashMap<>();
    for (DemoSource s : sources) {
      Variant v = variantOf(s);
      if (v != null) {
        out.put(s, v);
      }
    }
    return out;
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    requests.shutdownNow();
    http.close();
  }
}
