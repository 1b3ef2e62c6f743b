package io.freshet.worker.cli;

import io.freshet.kit.cli.CommandLines;
import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ServerHints;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.config.WorkerProperties;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.FetchedItem;
import io.freshet.worker.robots.RobotsDecision;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code fetch --connector feed URL [--config JSON] [--cursor JSON] [--allow-loopback]
 * [--all-items]}: fetches one source with exactly the service's fetch path (HTTP, politeness, SSRF
 * guard, parser, hashing, signals) and prints one JSON line per item read, then one with the
 * outcome. No Kafka, no registry. Settings are the service's ({@code freshet.*}, defaults from
 * {@link WorkerProperties}, overridable from the environment). Exit code 0 on ok, partial and
 * not_modified; 2 on failure or bad arguments, with the error on stderr (bad arguments: one line
 * ending with the {@code --help} to read).
 */
@Command(
    name = "fetch",
    sortOptions = false,
    sortSynopsis = false,
    description = {
      "Fetches URL once with exactly the fetch-worker's fetch path (HTTP, politeness, SSRF guard,"
          + " parser, hashing, signals) and prints one JSON line per item read, then one with the"
          + " outcome. No Kafka, no registry. Settings are the service's: the freshet.* keys, from"
          + " the environment as the service reads them.",
      ""
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:fetched: outcome ok, partial or not_modified",
      "2:the fetch failed (outcome failed or expired, the error on stderr), or bad arguments"
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  fetch --connector feed https://example.org/feed.xml --config '{\"item_limit\": 5}'"
    })
public final class FetchOnceCommand implements Callable<Integer> {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Parameters(index = "0", paramLabel = "URL", description = "the source's URL")
  String url;

  @Option(
      names = "--connector",
      required = true,
      paramLabel = "feed|ical|json|html",
      converter = ConnectorName.class,
      description = "how to read it, as a source's connector")
  Connector connector;

  @Option(
      names = "--config",
      paramLabel = "JSON",
      converter = JsonObject.class,
      description = "the source's config, a JSON object (e.g. {\"item_limit\": 5}; default: none)")
  JsonObject.Entries config = new JsonObject.Entries(Map.of());

  @Option(
      names = "--cursor",
      paramLabel = "JSON",
      converter = JsonObject.class,
      description =
          "the cursor of a previous fetch, a JSON object (the outcome line's \"cursor\"), to"
              + " fetch conditionally (default: none)")
  JsonObject.Entries cursor = new JsonObject.Entries(Map.of());

  @Option(
      names = "--allow-loopback",
      description = "let the SSRF guard allow loopback addresses (a server on this machine)")
  boolean allowLoopback;

  @Option(
      names = "--all-items",
      description = "lift the item limit and window: print every item read")
  boolean allItems;

  @Mixin CommandLines.Help help;

  private final PrintStream out;
  private final PrintStream err;

  private FetchOnceCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Runs the command; returns the exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    QuietLogging.toStderr();
    return CommandLines.create(new FetchOnceCommand(out, err), "fetch", out, err).execute(args);
  }

  @Override
  public Integer call() {
    var environment = new StandardEnvironment();
    Map<String, Object> overrides = new LinkedHashMap<>();
    if (allowLoopback) {
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
            .setConnector(connector)
            .setUrl(url)
            .setConfig(config.map())
            .setCursor(cursor.map())
            .setEpoch(0)
            .setRequestedAt(now)
            .setDueAt(now)
            .setNotAfter(now.plus(Duration.ofDays(1)))
            .build();
    FetchResult result;
    List<String> recovered = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (FetchPath path = FetchPath.create(props, clock, recovered::addAll)) {
      result = path.fetcher().fetch(request, allItems);
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
    ObjectNode outcome = outcomeLine(completed, result.content().size());
    robotsField(outcome, result.robots());
    serverFields(outcome, completed, recovered);
    out.println(JSON.writeValueAsString(outcome));
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

  /**
   * What the server said, as the scheduler will read it: the freshness hints and the earliest next
   * fetch they allow (the scheduler caps each hint at a day, skips the skipped hours and days, and
   * its cadence may wait longer), the move it would record after a second such fetch, the feed's
   * own and hub URLs, and the repairs a lenient parse needed.
   */
  private static void serverFields(
      ObjectNode line, FetchCompleted completed, List<String> recovered) {
    ServerHints hints = completed.getHints();
    if (hints == null) {
      line.putNull("hints");
    } else {
      ObjectNode h = line.putObject("hints");
      h.put("max_age_seconds", hints.getMaxAgeSeconds());
      h.put("ttl_minutes", hints.getTtlMinutes());
      h.put("update_period_seconds", hints.getUpdatePeriodSeconds());
      hints.getSkipHours().forEach(h.putArray("skip_hours")::add);
      hints.getSkipDays().forEach(h.putArray("skip_days")::add);
      long longest =
          Math.max(
              hints.getMaxAgeSeconds() == null ? 0 : hints.getMaxAgeSeconds(),
              Math.max(
                  hints.getTtlMinutes() == null ? 0 : hints.getTtlMinutes() * 60L,
                  hints.getUpdatePeriodSeconds() == null ? 0 : hints.getUpdatePeriodSeconds()));
      long capped = Math.min(longest, Duration.ofDays(1).toSeconds());
      h.put("next_fetch_not_before", iso(completed.getFinishedAt().plusSeconds(capped)));
    }
    line.put("moved_to", completed.getMovedTo());
    line.put("self_url", completed.getSelfUrl());
    line.put("hub_url", completed.getHubUrl());
    recovered.stream().distinct().forEach(line.putArray("recovered_by")::add);
  }

  // what robots.txt decided: allowed, disallowed, unreachable_disallowed, waived or not_applied,
  // the robots.txt asked and why; null when the fetch ended before robots.txt was consulted
  private static void robotsField(ObjectNode line, RobotsDecision decision) {
    if (decision == null) {
      line.putNull("robots");
      return;
    }
    ObjectNode robots = line.putObject("robots");
    robots.put("decision", decision.verdict().code());
    robots.put("robots_url", decision.robotsUrl());
    robots.put("reason", decision.reason());
  }

  private static String iso(Instant t) {
    return t == null ? null : t.toString();
  }

  /** A connector by its name, as a source's. */
  static final class ConnectorName implements ITypeConverter<Connector> {
    @Override
    public Connector convert(String name) {
      for (Connector c : Connector.values()) {
        if (c != Connector.unknown && c.name().equals(name)) {
          return c;
        }
      }
      throw new TypeConversionException(
          "unknown connector '" + name + "'; allowed: feed, ical, json, html");
    }
  }

  /** A JSON object's entries as strings, structured values as JSON text (as the scheduler does). */
  static final class JsonObject implements ITypeConverter<JsonObject.Entries> {

    /** The entries (a type of its own: picocli would read a map option as KEY=VALUE pairs). */
    record Entries(Map<String, String> map) {}

    @Override
    public Entries convert(String json) {
      JsonNode root;
      try {
        root = JSON.readTree(json);
      } catch (RuntimeException e) {
        throw new TypeConversionException("not valid JSON");
      }
      if (root == null || !root.isObject()) {
        throw new TypeConversionException("must be a JSON object");
      }
      Map<String, String> out = new LinkedHashMap<>();
      for (var e : root.properties()) {
        JsonNode v = e.getValue();
        if (!v.isNull()) {
          out.put(e.getKey(), v.isString() ? v.asString() : JSON.writeValueAsString(v));
        }
      }
      return new Entries(out);
    }
  }
}
