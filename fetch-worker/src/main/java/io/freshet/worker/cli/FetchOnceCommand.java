package io.freshet.worker.cli;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.config.WorkerProperties;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.FetchedItem;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code fetch --connector feed URL [--config JSON] [--cursor JSON] [--allow-loopback]
 * [--all-items]}: fetches one source with exactly the service's fetch path (HTTP, politeness, SSRF
 * guard, parser, hashing, signals) and prints one JSON line per item read, then one with the
 * outcome. No Kafka, no registry. Settings are the service's ({@code freshet.*}, defaults from
 * {@link WorkerProperties}, overridable from the environment). Exit code 0 on ok, partial and
 * not_modified; 2 on failure or bad arguments, with the error on stderr.
 */
public final class FetchOnceCommand {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String USAGE =
      "usage: fetch --connector feed|ical|json|html URL [--config JSON] [--cursor JSON]"
          + " [--allow-loopback] [--all-items]";

  private FetchOnceCommand() {}

  /** Runs the command; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    QuietLogging.toStderr();
    Arguments parsed;
    try {
      parsed = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return 2;
    }
    var environment = new StandardEnvironment();
    Map<String, Object> overrides = new LinkedHashMap<>();
    if (parsed.allowLoopback()) {
      overrides.put("freshet.http.allow-loopback", "true");
    }
    environment.getPropertySources().addFirst(new MapPropertySource("cli", overrides));
    WorkerProperties props =
        Binder.get(environment).bindOrCreate("freshet", WorkerProperties.class);
    Clock clock = Clock.systemUTC();
    Instant now = clock.instant();
    FetchRequested request =
        FetchRequested.newBuilder()
            .setRequestId(UUID.randomUUID().toString())
            .setSourceId("cli")
            .setTenantId("cli")
            .setConnector(parsed.connector())
            .setUrl(parsed.url())
            .setConfig(parsed.config())
            .setCursor(parsed.cursor())
            .setEpoch(0)
            .setRequestedAt(now)
            .setDueAt(now)
            .setNotAfter(now.plus(Duration.ofDays(1)))
            .build();
    FetchResult result;
    try (FetchPath path = FetchPath.create(props, clock)) {
      result = path.fetcher().fetch(request, parsed.allItems());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("interrupted");
      return 2;
    } catch (RuntimeException e) {
      err.println("cannot fetch: " + e.getMessage());
      return 2;
    }
    for (FetchedItem item : result.items()) {
      out.println(JSON.writeValueAsString(itemLine(item)));
    }
    FetchCompleted completed = result.completed();
    out.println(JSON.writeValueAsString(outcomeLine(completed, result.content().size())));
    out.flush();
    if (completed.getStatus() == FetchStatus.failed
        || completed.getStatus() == FetchStatus.expired) {
      err.println(
          "fetch failed: "
              + completed.getErrorKind()
              + (completed.getErrorMessage() == null ? "" : ": " + completed.getErrorMessage()));
      return 2;
    }
    return 0;
  }

  private static ObjectNode itemLine(FetchedItem item) {
    ObjectNode line = JSON.createObjectNode();
    line.put("item_id", item.itemId());
    line.put("content_hash", item.contentHash());
    line.put("published_at", iso(item.raw().publishedAt()));
    line.put("title", item.raw().title());
    line.put("url", item.raw().url());
    line.put("signal_type", item.signal().type().name());
    line.put("event_at", iso(item.signal().eventAt()));
    line.put("novelty", item.novelty().name());
    line.put("truncated", item.truncated());
    return line;
  }

  private static ObjectNode outcomeLine(FetchCompleted completed, int emitted) {
    ObjectNode line = JSON.createObjectNode();
    line.put("outcome", completed.getStatus().name());
    line.put("http_status", completed.getHttpStatus());
    line.put("error_kind", completed.getErrorKind());
    line.put("error_message", completed.getErrorMessage());
    line.put("attempts", completed.getAttempts());
    line.put("bytes", completed.getBytes());
    line.put("items_read", completed.getItems().size());
    line.put("items_new_or_changed", emitted);
    line.put("retry_after", iso(completed.getRetryAfter()));
    if (completed.getCursor() == null) {
      line.putNull("cursor");
    } else {
      ObjectNode cursor = line.putObject("cursor");
      completed.getCursor().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> cursor.put(e.getKey(), e.getValue()));
    }
    return line;
  }

  private static String iso(Instant t) {
    return t == null ? null : t.toString();
  }

  /** The parsed command line. */
  record Arguments(
      Connector connector,
      String url,
      Map<String, String> config,
      Map<String, String> cursor,
      boolean allowLoopback,
      boolean allItems) {

    static Arguments parse(String[] args) {
      Connector connector = null;
      String url = null;
      Map<String, String> config = Map.of();
      Map<String, String> cursor = Map.of();
      boolean loopback = false;
      boolean all = false;
      List<String> rest = new ArrayList<>(List.of(args));
      for (int i = 0; i < rest.size(); i++) {
        String a = rest.get(i);
        switch (a) {
          case "--connector" -> connector = connector(value(rest, ++i, a));
          case "--config" -> config = flatten(value(rest, ++i, a), a);
          case "--cursor" -> cursor = flatten(value(rest, ++i, a), a);
          case "--allow-loopback" -> loopback = true;
          case "--all-items" -> all = true;
          default -> {
            if (a.startsWith("--")) {
              throw new IllegalArgumentException("unknown option " + a);
            }
            if (url != null) {
              throw new IllegalArgumentException("one URL only, got " + url + " and " + a);
            }
            url = a;
          }
        }
      }
      if (connector == null) {
        throw new IllegalArgumentException("--connector is required");
      }
      if (url == null) {
        throw new IllegalArgumentException("the source URL is required");
      }
      return new Arguments(connector, url, config, cursor, loopback, all);
    }

    private static String value(List<String> args, int i, String option) {
      if (i >= args.size()) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args.get(i);
    }

    private static Connector connector(String name) {
      for (Connector c : Connector.values()) {
        if (c != Connector.unknown && c.name().equals(name)) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown connector '" + name + "'");
    }

    /**
     * A JSON object's entries as strings, structured values as JSON text (as the scheduler does).
     */
    private static Map<String, String> flatten(String json, String option) {
      JsonNode root;
      try {
        root = JSON.readTree(json);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(option + " is not valid JSON");
      }
      if (root == null || !root.isObject()) {
        throw new IllegalArgumentException(option + " must be a JSON object");
      }
      Map<String, String> out = new LinkedHashMap<>();
      for (var e : root.properties()) {
        JsonNode v = e.getValue();
        if (!v.isNull()) {
          out.put(e.getKey(), v.isString() ? v.asString() : JSON.writeValueAsString(v));
        }
      }
      return out;
    }
  }
}
