package io.freshet.stack.launcher;

import io.freshet.kit.cli.CommandLines;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./freshet push-report [--minutes N] [--grace S]}: watches the running stack for a window
 * of wall minutes and prints, for pushed feeds and polled feeds apart ({@link PushReport}), the
 * feeds, the new items published (the demo web's ground truth), the fetches asked (growth of each
 * source's epoch in the scheduler's API), fetches per new item, and the publish-to-stored delay
 * (median, p95) in wall seconds and in demo time. Stored is the content store's row for the item
 * (the sink's read API); its time is the row's {@code fetched_at}, when the worker read the item.
 * The store is read {@code --grace} seconds after the window; items published in the window with no
 * row by then are reported with their age. Reads with the stack's bootstrap admin key.
 */
@Command(
    name = "push-report",
    description = {
      "Watches the running stack (./freshet up) for --minutes of wall time and prints, for pushed"
          + " and polled feeds apart: new items published, fetches, fetches per new item and the"
          + " publish-to-stored delay (median, p95) in wall and demo time.",
      ""
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done",
      "1:the stack is not running or a service refused",
      "2:bad input: an unknown option, a window under a minute"
    })
final class PushReportCommand implements Callable<Integer> {

  private static final JsonMapper JSON = JsonMapper.shared();

  @Option(
      names = "--minutes",
      defaultValue = "10",
      description = "the window, wall minutes (default ${DEFAULT-VALUE})")
  int minutes;

  @Option(
      names = "--grace",
      defaultValue = "30",
      description =
          "seconds to wait after the window before reading the content store (default"
              + " ${DEFAULT-VALUE})")
  int grace;

  @Mixin CommandLines.Help help;

  @Spec CommandSpec spec;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private StackSettings settings;
  private String key;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (minutes < 1 || grace < 0) {
      throw new ParameterException(
          spec.commandLine(), "push-report: --minutes must be 1 or more, --grace 0 or more");
    }
    settings = LocalStack.settingsFromEnvironment();
    Path tokenFile = settings.home().resolve("secrets").resolve("api-token");
    if (!Files.exists(tokenFile)) {
      throw new StackException("no admin key in " + tokenFile + ": run ./freshet up first");
    }
    key = Files.readString(tokenFile).trim();
    Clock clock = Clock.systemUTC();

    double scale = json(settings.demoWebUrl() + "/_truth", false).get("scale").asDouble();
    Map<String, PushReport.Source> sources = demoSources();
    Map<String, Scheduled> before = scheduled();
    Map<String, Double> metricsBefore = counters();
    double loadBefore = loadAverage();
    Instant start = clock.instant();
    Instant end = start.plus(Duration.ofMinutes(minutes));
    System.out.printf(
        Locale.ROOT,
        "push-report: watching %d min from %s (demo at %s: %s of demo time)%n",
        minutes,
        start,
        number(scale) + "x",
        PushReport.traceSpan(minutes * 60.0 * scale));
    while (clock.instant().isBefore(end)) {
      Thread.sleep(Math.min(60_000, Duration.between(clock.instant(), end).toMillis() + 1));
      long left = Duration.between(clock.instant(), end).toSeconds();
      if (left > 0) {
        System.out.printf(Locale.ROOT, "push-report: %d s left%n", left);
      }
    }
    Map<String, Scheduled> after = scheduled();
    Map<String, Double> metricsAfter = counters();
    double loadAfter = loadAverage();
    Thread.sleep(grace * 1000L);
    Instant readAt = clock.instant();
    List<PushReport.Item> items = items(sources, after, start, end);

    Map<String, Long> fetches = new HashMap<>();
    after.forEach(
        (id, s) -> {
          Scheduled b = before.get(id);
          fetches.put(id, s.epoch() - (b == null ? 0 : b.epoch()));
        });
    var window = new PushReport.Window(start, end, readAt, scale);
    System.out.printf(
        Locale.ROOT,
        "push-report: window %s .. %s (%d wall min = %s), content store read at %s (+%d s);"
            + " load average (1 min) %.2f at the start, %.2f at the end, %d cores%n",
        start,
        end,
        minutes,
        PushReport.traceSpan(minutes * 60.0 * scale),
        readAt,
        grace,
        loadBefore,
        loadAfter,
        Runtime.getRuntime().availableProcessors());
    for (PushReport.Figures f : PushReport.figures(sources, fetches, items, window).values()) {
      System.out.println(PushReport.line(f, scale));
    }
    System.out.println(
        "push-report: fetches = claims (each source's epoch); stored = the item's row in the content"
            + " store, timed by its fetched_at (when the worker read it); calendars, APIs, pages and"
            + " misbehaving hosts left out");
    List<String> deltas = new ArrayList<>();
    metricsAfter.forEach(
        (name, v) -> {
          double d = v - metricsBefore.getOrDefault(name, 0.0);
          if (d > 0) {
            deltas.add(name + " " + Math.round(d));
          }
        });
    System.out.println(
        "push-report: during the window, the services counted: "
            + (deltas.isEmpty() ? "nothing" : String.join("; ", deltas)));
    return 0;
  }

  /** A source as the scheduler holds it. */
  private record Scheduled(String uuid, long epoch) {}

  /** The demo web's sources by demo id. */
  private Map<String, PushReport.Source> demoSources() throws IOException, InterruptedException {
    Map<String, PushReport.Source> out = new LinkedHashMap<>();
    for (String line : text(settings.demoWebUrl() + "/_truth/sources", false).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode n = JSON.readTree(line);
      JsonNode hub = n.get("hub");
      out.put(
          n.get("source_id").asString(),
          new PushReport.Source(
              n.get("source_id").asString(),
              n.get("kind").asString(),
              n.get("behaviour").asString(),
              hub == null || hub.isNull() ? null : hub.asString()));
    }
    return out;
  }

  /** The demo tenant's feed sources in the scheduler, by demo id (the URL's last segment). */
  private Map<String, Scheduled> scheduled() throws IOException, InterruptedException {
    Map<String, Scheduled> out = new HashMap<>();
    for (int page = 0; ; page++) {
      JsonNode list =
          json(
              settings.schedulerUrl()
                  + "/sources?tenant_id="
                  + StackSettings.TENANT
                  + "&connector=feed&size=500&page="
                  + page,
              true);
      JsonNode items = list.get("items");
      for (JsonNode s : items) {
        String url = s.get("url").asString();
        out.put(
            url.substring(url.lastIndexOf('/') + 1),
            new Scheduled(s.get("id").asString(), s.get("schedule").get("epoch").asLong()));
      }
      if (items.isEmpty()
          || (long) (page + 1) * list.get("size").asInt() >= list.get("total").asLong()) {
        return out;
      }
    }
  }

  /**
   * The items published in {@code [start, end)} by the compared feeds, each with its stored row's
   * {@code fetched_at} (null if the store has none).
   */
  private List<PushReport.Item> items(
      Map<String, PushReport.Source> sources,
      Map<String, Scheduled> scheduled,
      Instant start,
      Instant end)
      throws IOException, InterruptedException {
    Map<String, List<JsonNode>> bySource = new LinkedHashMap<>();
    for (String line : text(settings.demoWebUrl() + "/_truth/versions", false).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode v = JSON.readTree(line);
      Instant published = Instant.parse(v.get("published_at").asString());
      String id = v.get("source_id").asString();
      PushReport.Source s = sources.get(id);
      if (s != null
          && PushReport.groupOf(s) != null
          && !published.isBefore(start)
          && published.isBefore(end)) {
        bySource.computeIfAbsent(id, k -> new ArrayList<>()).add(v);
      }
    }
    List<PushReport.Item> out = new ArrayList<>();
    for (var e : bySource.entrySet()) {
      Scheduled s = scheduled.get(e.getKey());
      Map<String, Instant> stored = s == null ? Map.of() : stored(s.uuid(), start);
      for (JsonNode v : e.getValue()) {
        String item = v.get("item_id").asString();
        out.add(
            new PushReport.Item(
                e.getKey(),
                item,
                Instant.parse(v.get("published_at").asString()),
                stored.get(item)));
      }
    }
    return out;
  }

  /**
   * The earliest {@code fetched_at} of each item the store holds of a source since {@code from}.
   */
  private Map<String, Instant> stored(String sourceUuid, Instant from)
      throws IOException, InterruptedException {
    Map<String, Instant> out = new HashMap<>();
    String cursor = null;
    do {
      String url =
          "http://127.0.0.1:"
              + settings.sinkPort()
              + "/sources/"
              + sourceUuid
              + "/content?limit=1000&from="
              + URLEncoder.encode(from.toString(), StandardCharsets.UTF_8)
              + (cursor == null
                  ? ""
                  : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
      JsonNode page = json(url, true);
      if (page == null) {
        return out; // 404: nothing stored of it
      }
      for (JsonNode c : page.get("items")) {
        Instant at = Instant.parse(c.get("fetched_at").asString());
        out.merge(
            PushReport.demoItemId(c.get("item_id").asString()),
            at,
            (a, b) -> a.isBefore(b) ? a : b);
      }
      JsonNode next = page.get("next_cursor");
      cursor = next == null || next.isNull() ? null : next.asString();
    } while (cursor != null);
    return out;
  }

  /** The counters that tell push from poll, summed by name and label, from the scrapes. */
  private Map<String, Double> counters() throws IOException, InterruptedException {
    Map<String, Double> out = new LinkedHashMap<>();
    PrometheusText scheduler =
        PrometheusText.parse(text(settings.metricsUrl(settings.schedulerPort()), true));
    scheduler
        .by("freshet_scheduler_items_new_total", "trigger")
        .forEach((t, v) -> out.put("new items by " + t, v));
    out.put(
        "push fetch-nows requested",
        scheduler.sum(
            "freshet_scheduler_push_fetches_total", l -> "requested".equals(l.get("result"))));
    out.put(
        "polls put off to the safety net",
        scheduler.sum("freshet_scheduler_push_polls_relaxed_total"));
    PrometheusText push =
        PrometheusText.parse(text(settings.metricsUrl(settings.pushPort()), true));
    out.put(
        "notifications accepted",
        push.sum("freshet_push_notifications_total", l -> "accepted".equals(l.get("result"))));
    return out;
  }

  /** The 1-minute load average, NaN where {@code /proc/loadavg} is not. */
  private static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  private JsonNode json(String url, boolean authorized) throws IOException, InterruptedException {
    String body = text(url, authorized);
    return body == null ? null : JSON.readTree(body);
  }

  /** The body of a GET; null for a 404. */
  private String text(String url, boolean authorized) throws IOException, InterruptedException {
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
    if (authorized) {
      request.header("Authorization", "Bearer " + key);
    }
    HttpResponse<String> r;
    try {
      r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new StackException(url + " unreachable (is ./freshet up running?)");
    }
    if (r.statusCode() == 404) {
      return null;
    }
    if (r.statusCode() / 100 != 2) {
      throw new StackException(url + " answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  private static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
