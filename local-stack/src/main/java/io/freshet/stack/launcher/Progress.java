package io.freshet.stack.launcher;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live figures, read from the services' metrics (their Prometheus scrapes on the management
 * ports), never from their tables: sources by state, the due backlog and leases in flight, failing
 * sources and hosts and the distribution of current intervals (the scheduler's census gauges;
 * intervals in the cadence model's time when the scheduler runs on the demo's clock, and said so);
 * fetches by status, items by novelty and errors by kind (the workers' counters); rows stored (the
 * sink's counters); push subscriptions by state and notifications (the push receiver's), and new
 * items by what asked for their fetch, a push or a poll (the scheduler's). Between two reads the
 * counters become rates per minute; a first read shows them as totals since the services started.
 */
public final class Progress {

  static final String SCHEDULER = "scheduler-producer";
  static final String WORKER = "fetch-worker";
  static final String SINK = "content-sink";
  static final String PUSH = "push-receiver";

  private static final long[] LIMITS = {15 * 60, 3_600, 6 * 3_600, 24 * 3_600};
  private static final String[] NAMES = {"15m", "1h", "6h", "24h"};

  /** The scheduler's interval buckets (its {@code SourceCensus}), in order. */
  static final List<String> BUCKETS = List.of("lt_15m", "15m_1h", "1h_6h", "6h_24h", "ge_24h");

  private final StackSettings s;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Map<String, PrometheusText> previous;
  private long previousNanos;

  public Progress(StackSettings settings) {
    this.s = settings;
  }

  /**
   * Scrapes the services now and returns the figures: rates against the previous call's scrape,
   * totals on the first call.
   */
  public Map<String, Object> figures() {
    Map<String, PrometheusText> now = new LinkedHashMap<>();
    List<String> unreachable = new ArrayList<>();
    String key = adminKey();
    scrape(now, unreachable, SCHEDULER, s.schedulerPort(), key);
    scrape(now, unreachable, WORKER, s.workerPort(), key);
    scrape(now, unreachable, SINK, s.sinkPort(), key);
    scrape(now, unreachable, PUSH, s.pushPort(), key);
    long nanos = System.nanoTime();
    double seconds = previous == null ? 0 : (nanos - previousNanos) / 1e9;
    Map<String, Object> out = figures(now, previous, seconds, cadenceScale());
    if (!unreachable.isEmpty()) {
      out.put("unreachable", unreachable);
    }
    previous = now;
    previousNanos = nanos;
    return out;
  }

  /**
   * The figures from scrapes {@code now} and, {@code seconds} earlier, {@code before} (null on a
   * first read: counters are then shown as totals).
   */
  static Map<String, Object> figures(
      Map<String, PrometheusText> now,
      Map<String, PrometheusText> before,
      double seconds,
      double scale) {
    PrometheusText scheduler = now.getOrDefault(SCHEDULER, PrometheusText.EMPTY);
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Object> sources = new LinkedHashMap<>();
    Map<String, Double> states = scheduler.by("freshet_scheduler_sources", "state");
    sources.put(
        "total", whole(states.getOrDefault("enabled", 0.0) + states.getOrDefault("disabled", 0.0)));
    states.forEach((state, n) -> sources.put(state, whole(n)));
    sources.put("due_backlog", whole(scheduler.sum("freshet_scheduler_due_backlog")));
    sources.put("in_flight", whole(scheduler.sum("freshet_scheduler_leases_in_flight")));
    out.put("sources", sources);

    boolean rates = before != null && seconds > 0;
    String per = rates ? "_per_minute" : "_since_start";
    out.put(
        "fetches" + per,
        counts(now, before, seconds, WORKER, "freshet_worker_fetches_total", "status"));
    out.put(
        "items" + per,
        counts(now, before, seconds, WORKER, "freshet_worker_items_total", "novelty"));
    Map<String, Object> stored = new LinkedHashMap<>();
    for (String what : List.of("inserted", "versions", "duplicates")) {
      stored.put(what, counter(now, before, seconds, SINK, "freshet_sink_rows_" + what + "_total"));
    }
    out.put("stored" + per, stored);
    out.put(
        "errors" + per,
        counts(now, before, seconds, WORKER, "freshet_worker_failures_total", "error_kind"));

    if (now.containsKey(PUSH) || scheduler.has("freshet_scheduler_items_new_total")) {
      Map<String, Object> push = new LinkedHashMap<>();
      now.getOrDefault(PUSH, PrometheusText.EMPTY)
          .by("freshet_push_subscriptions", "state")
          .forEach(
              (state, n) -> {
                if (n > 0) {
                  push.put("subscriptions_" + state, whole(n));
                }
              });
      counts(now, before, seconds, PUSH, "freshet_push_notifications_total", "result")
          .forEach((result, n) -> push.put("notifications_" + result + per, n));
      // new items by what asked for their fetch: push (a notification), poll, manual (the API)
      counts(now, before, seconds, SCHEDULER, "freshet_scheduler_items_new_total", "trigger")
          .forEach((trigger, n) -> push.put("new_items_by_" + trigger + per, n));
      out.put("push", push);
    }
    Map<String, Object> failing = new LinkedHashMap<>();
    failing.put("sources", whole(states.getOrDefault("failing", 0.0)));
    failing.put("hosts", whole(scheduler.sum("freshet_scheduler_failing_hosts")));
    failing.put(
        "hosts_cooling_down",
        whole(
            now.getOrDefault(WORKER, PrometheusText.EMPTY)
                .sum("freshet_worker_hosts_cooling_down")));
    scheduler
        .by("freshet_scheduler_sources_failing", "last_status")
        .forEach(
            (status, n) -> {
              if (n > 0) {
                failing.put("last_" + status, whole(n));
              }
            });
    out.put("failing", failing);

    if (scale != 1.0) {
      out.put("cadence_clock", clockNote(scale));
    }
    Map<String, Object> intervals = new LinkedHashMap<>();
    Map<String, Double> buckets = scheduler.by("freshet_scheduler_sources_interval", "bucket");
    for (int k = 0; k < BUCKETS.size(); k++) {
      intervals.put(bucketLabel(k, scale), whole(buckets.getOrDefault(BUCKETS.get(k), 0.0)));
    }
    out.put(scale == 1.0 ? "current_intervals" : "current_intervals_model_time", intervals);
    return out;
  }

  /** A counter's value summed over its series, as a rate per minute when there is a before. */
  private static long counter(
      Map<String, PrometheusText> now,
      Map<String, PrometheusText> before,
      double seconds,
      String service,
      String name) {
    double current = now.getOrDefault(service, PrometheusText.EMPTY).sum(name);
    if (before == null || seconds <= 0) {
      return whole(current);
    }
    if (!before.containsKey(service)) {
      return 0; // unreachable last time: its counters since start are no rate of this interval
    }
    return perMinute(current, before.get(service).sum(name), seconds);
  }

  /** A counter's values by one label, as rates per minute when there is a before. */
  private static Map<String, Object> counts(
      Map<String, PrometheusText> now,
      Map<String, PrometheusText> before,
      double seconds,
      String service,
      String name,
      String label) {
    Map<String, Double> current = now.getOrDefault(service, PrometheusText.EMPTY).by(name, label);
    if (before != null && seconds > 0 && !before.containsKey(service)) {
      return new LinkedHashMap<>(); // unreachable last time: no rate for this interval
    }
    Map<String, Double> earlier = before == null ? Map.of() : before.get(service).by(name, label);
    Map<String, Object> out = new LinkedHashMap<>();
    current.forEach(
        (value, n) -> {
          long figure =
              before == null || seconds <= 0
                  ? whole(n)
                  : perMinute(n, earlier.getOrDefault(value, 0.0), seconds);
          if (figure > 0) {
            out.put(value, figure);
          }
        });
    return out;
  }

  /** A counter's rate per minute; a counter that went down restarted, so all of it is new. */
  static long perMinute(double now, double before, double seconds) {
    double delta = now >= before ? now - before : now;
    return Math.round(delta * 60 / seconds);
  }

  private static long whole(double v) {
    return Math.round(v);
  }

  private void scrape(
      Map<String, PrometheusText> into,
      List<String> unreachable,
      String service,
      int port,
      String key) {
    var request =
        HttpRequest.newBuilder(URI.create(s.metricsUrl(port))).timeout(Duration.ofSeconds(3));
    if (key != null) {
      request.header("Authorization", "Bearer " + key);
    }
    try {
      HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200) {
        into.put(service, PrometheusText.parse(r.body()));
        return;
      }
      unreachable.add(service + " (metrics answered " + r.statusCode() + ")");
    } catch (IOException e) {
      unreachable.add(service + " (" + e.getClass().getSimpleName() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      unreachable.add(service + " (interrupted)");
    }
  }

  /** The stack's bootstrap admin key, which reads every service's metrics; null if none yet. */
  private String adminKey() {
    Path file = s.home().resolve("secrets").resolve("api-token");
    try {
      return Files.exists(file) ? Files.readString(file).trim() : null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The scale the scheduler's cadence runs at: the one the running {@code up} recorded next to the
   * demo web's origin, else {@code FRESHET_DEMO_SCALE} (so {@code status} from a shell with another
   * setting still reads the intervals right).
   */
  double cadenceScale() {
    Path recorded = s.home().resolve("demo-web/scale");
    try {
      if (Files.exists(recorded)) {
        return Double.parseDouble(Files.readString(recorded).trim());
      }
    } catch (IOException | NumberFormatException e) {
      // fall through to the setting
    }
    return s.demoScale();
  }

  static String clockNote(double scale) {
    return "model time = wall time x "
        + number(scale)
        + " (the demo's trace time; a model day is "
        + duration(86_400 / scale)
        + " of wall time); failure back-off and Retry-After are wall time";
  }

  /** E.g. "15m-1h (wall 0.6s-2.5s)" at 1440; without the wall part at scale 1. */
  static String bucketLabel(int k, double scale) {
    String model =
        k == 0
            ? "<" + NAMES[0]
            : k == LIMITS.length ? ">=" + NAMES[k - 1] : NAMES[k - 1] + "-" + NAMES[k];
    if (scale == 1.0) {
      return model;
    }
    String wall =
        k == 0
            ? "<" + duration(LIMITS[0] / scale)
            : k == LIMITS.length
                ? ">=" + duration(LIMITS[k - 1] / scale)
                : duration(LIMITS[k - 1] / scale) + "-" + duration(LIMITS[k] / scale);
    return model + " (wall " + wall + ")";
  }

  /** A span for people: 0.6s, 15s, 24min, 1.5h. */
  static String duration(double seconds) {
    if (seconds < 60) {
      return number(Math.round(seconds * 10) / 10.0) + "s";
    }
    if (seconds < 3_600) {
      return number(Math.round(seconds / 6) / 10.0) + "min";
    }
    return number(Math.round(seconds / 360) / 10.0) + "h";
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(Locale.ROOT, "%s", v);
  }

  public static String json(Map<String, Object> figures) {
    return JsonMapper.builder().build().writeValueAsString(figures);
  }

  private static final int BAR = 30;

  /**
   * The figures as one screen: a label column, then each section's figures as {@code name value}
   * pairs (underscores as spaces); the interval distribution as bars scaled to its largest bucket.
   */
  public static List<String> screen(Map<String, Object> figures) {
    List<String> lines = new ArrayList<>();
    figures.forEach(
        (section, value) -> {
          String label = section.replace('_', ' ');
          if (section.startsWith("current_intervals") && value instanceof Map<?, ?> buckets) {
            lines.add(label);
            long max = 1;
            int width = 0;
            for (var e : buckets.entrySet()) {
              max = Math.max(max, ((Number) e.getValue()).longValue());
              width = Math.max(width, e.getKey().toString().length());
            }
            for (var e : buckets.entrySet()) {
              long n = ((Number) e.getValue()).longValue();
              int bar = (int) Math.round((double) n * BAR / max);
              lines.add(
                  String.format(
                      Locale.ROOT,
                      "  %-" + width + "s %s%s %,d",
                      e.getKey(),
                      "#".repeat(bar),
                      " ".repeat(BAR - bar),
                      n));
            }
          } else {
            lines.add(String.format(Locale.ROOT, "%-24s %s", label, pairs(value)));
          }
        });
    return lines;
  }

  /** The figures on one line, for output that is not a terminal (CI, a pipe, a log file). */
  public static String line(Map<String, Object> figures) {
    List<String> parts = new ArrayList<>();
    figures.forEach(
        (section, value) -> {
          if (!section.equals("cadence_clock")) {
            parts.add(section.replace('_', ' ') + ": " + pairs(value));
          }
        });
    return String.join(" | ", parts);
  }

  /** {@code a 1 · b 2} for a map (none if empty), the value itself otherwise. */
  private static String pairs(Object value) {
    if (value instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        return "none";
      }
      List<String> out = new ArrayList<>();
      m.forEach(
          (k, v) ->
              out.add(
                  k.toString().replace('_', ' ')
                      + " "
                      + (v instanceof Number n
                          ? String.format(Locale.ROOT, "%,d", n.longValue())
                          : v)));
      return String.join(" · ", out);
    }
    if (value instanceof List<?> l) {
      return String.join(", ", l.stream().map(Object::toString).toList());
    }
    return String.valueOf(value);
  }
}
