package io.freshet.worker.fetch;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.worker.budget.ParsePool;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.connector.ItemWindow;
import io.freshet.worker.connector.ReadResult;
import io.freshet.worker.connector.ServerHints;
import io.freshet.worker.connector.SourceConnector;
import io.freshet.worker.connector.SourceRequest;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.items.ContentHasher;
import io.freshet.worker.items.ItemIdentity;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.SeenDigest;
import io.freshet.worker.robots.RobotsDecision;
import io.freshet.worker.robots.RobotsGuard;
import io.freshet.worker.signal.Signal;
import io.freshet.worker.signal.SignalClassifier;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Answers one {@code FetchRequested}: the same code path for the Kafka listener and the fetch-once
 * CLI. An expired request is not fetched; a source robots.txt disallows ends {@code failed} with
 * {@code robots} before its URL is requested ({@link RobotsGuard}); otherwise the request's
 * connector reads the source through the shared {@link HttpFetcher}, the items are windowed,
 * limited, identified, hashed, classified and compared with the cursor's {@link SeenDigest}; only
 * new or changed items become {@code ContentFetched} (all with {@code emit: all}), and one {@code
 * FetchCompleted} closes the fetch. Never throws for a source's fault; see {@link
 * UnusableRequestException}.
 */
public final class SourceFetcher {

  /** Cursor keys the worker owns; the scheduler adds {@code last_fetch_at}. */
  private static final int MIN_DIGEST = 64;

  private static final int MAX_DIGEST = 2_000;

  private final Map<Connector, SourceConnector> connectors;
  private final HttpFetcher http;
  private final SignalClassifier classifier;
  private final CredentialsOpener credentials;
  private final ConnectorOptions defaults;
  private final int bodyCap;
  private final ParsePool parsing;
  private final RobotsGuard robots;
  private final Clock clock;

  /** A fetcher that never consults robots.txt (tests of the other steps). */
  public SourceFetcher(
      List<SourceConnector> connectors,
      HttpFetcher http,
      SignalClassifier classifier,
      CredentialsOpener credentials,
      ConnectorOptions defaults,
      int bodyCap,
      ParsePool parsing,
      Clock clock) {
    this(connectors, http, classifier, credentials, defaults, bodyCap, parsing, null, clock);
  }

  /**
   * @param robots consulted before a source's URL is requested; null never to consult robots.txt
   */
  public SourceFetcher(
      List<SourceConnector> connectors,
      HttpFetcher http,
      SignalClassifier classifier,
      CredentialsOpener credentials,
      ConnectorOptions defaults,
      int bodyCap,
      ParsePool parsing,
      RobotsGuard robots,
      Clock clock) {
    this.connectors = new EnumMap<>(Connector.class);
    connectors.forEach(c -> this.connectors.put(c.type(), c));
    this.http = http;
    this.classifier = classifier;
    this.credentials = credentials;
    this.defaults = defaults;
    this.bodyCap = bodyCap;
    this.parsing = parsing;
    this.robots = robots;
    this.clock = clock;
  }

  /**
   * @param unlimited lift the item limit and time window (the CLI's {@code --all-items})
   * @throws UnusableRequestException for a connector symbol this worker does not know
   * @throws InterruptedException when the worker stops meanwhile
   */
  public FetchResult fetch(FetchRequested request, boolean unlimited) throws InterruptedException {
    Instant started = clock.instant();
    if (request.getConnector() == Connector.unknown) {
      throw new UnusableRequestException(
          "request " + request.getRequestId() + " names a connector this worker does not know");
    }
    if (started.isAfter(request.getNotAfter())) {
      return completion(request, started, expired(request, started), List.of(), null);
    }
    SourceConnector connector = connectors.get(request.getConnector());
    if (connector == null) {
      return failed(
          request,
          started,
          new FetchFailure(
              ErrorKind.UNSUPPORTED_CONNECTOR,
              "connector " + request.getConnector() + " is not available in this worker",
              null,
              0,
              null));
    }
    SourceRequest sourceRequest;
    try {
      sourceRequest = sourceRequest(request, started, unlimited);
    } catch (FetchFailure f) {
      return failed(request, started, f);
    }
    RobotsDecision decision = null;
    if (robots != null) {
      try {
        decision =
            robots.check(
                request.getConnector(),
                request.getConfig(),
                sourceRequest.url(),
                request.getNotAfter());
      } catch (FetchFailure f) {
        return failed(request, started, f);
      }
      if (!decision.permits()) {
        // no request to the source's URL: the robots request alone was made
        return failed(
                request,
                started,
                new FetchFailure(ErrorKind.ROBOTS, decision.reason(), null, 0, null))
            .withRobots(decision);
      }
    }
    ReadResult read = connector.read(sourceRequest, http);
    if (read.status() != FetchStatus.ok && read.status() != FetchStatus.partial) {
      return completion(request, started, read, List.of(), null).withRobots(decision);
    }
    return withItems(request, started, sourceRequest.options(), read).withRobots(decision);
  }

  private FetchResult withItems(
      FetchRequested request, Instant started, ConnectorOptions options, ReadResult read) {
    Instant fetchedAt = clock.instant();
    List<RawItem> windowed = ItemWindow.apply(read.items(), options, fetchedAt);
    SeenDigest seen = SeenDigest.parse(request.getCursor().get(SeenDigest.CURSOR_KEY));
    List<FetchedItem> items = new ArrayList<>(windowed.size());
    Set<String> ids = new HashSet<>();
    List<SeenDigest.Entry> entries = new ArrayList<>(windowed.size());
    for (RawItem raw : windowed) {
      String id = ItemIdentity.of(raw);
      if (!ids.add(id)) {
        continue; // a duplicate guid within one document: the first one stands
      }
      // an HTML body's plain text serves the hash and the keyword rules alike
      String plainBody = ContentHasher.normalisedBody(raw);
      String hash = ContentHasher.hash(raw, plainBody);
      Signal signal =
          classifier.classify(
              raw,
              raw.body() == null || ContentHasher.isHtml(raw.contentType()) ? plainBody : null);
      String body = raw.body();
      boolean truncated = body != null && body.length() > bodyCap;
      SeenDigest.Entry entry = new SeenDigest.Entry(id, hash);
      items.add(
          new FetchedItem(
              id,
              hash,
              raw,
              signal,
              seen.noveltyOf(entry),
              truncated ? body.substring(0, bodyCap) : body,
              truncated));
      entries.add(entry);
    }
    int base = options.itemLimit() > 0 ? options.itemLimit() : items.size();
    int capacity = Math.min(MAX_DIGEST, Math.max(MIN_DIGEST, 2 * base));
    Map<String, String> cursor = new HashMap<>(read.cursor());
    cursor.put(SeenDigest.CURSOR_KEY, seen.after(entries, capacity).encode());
    Long retention = retention(request);
    List<ContentFetched> content = new ArrayList<>();
    for (FetchedItem item : items) {
      if (item.emitted(options.emitAll())) {
        content.add(contentFetched(request, item, retention, fetchedAt));
      }
    }
    return completion(request, started, read, items, cursor, content);
  }

  private FetchResult completion(
      FetchRequested request,
      Instant started,
      ReadResult read,
      List<FetchedItem> items,
      Map<String, String> cursor) {
    return completion(request, started, read, items, cursor, List.of());
  }

  private FetchResult completion(
      FetchRequested request,
      Instant started,
      ReadResult read,
      List<FetchedItem> items,
      Map<String, String> cursor,
      List<ContentFetched> content) {
    List<ItemDigest> digests = new ArrayList<>(items.size());
    for (FetchedItem item : items) {
      digests.add(
          ItemDigest.newBuilder()
              .setItemId(item.itemId())
              .setContentHash(item.contentHash())
              .setPublishedAt(item.raw().publishedAt())
              .setSignalType(item.signal().type())
              .setEventAt(item.signal().eventAt())
              .setNovelty(item.novelty())
              .build());
    }
    FetchCompleted completed =
        FetchCompleted.newBuilder()
            .setRequestId(request.getRequestId())
            .setSourceId(request.getSourceId())
            .setTenantId(request.getTenantId())
            .setEpoch(request.getEpoch())
            .setStatus(read.status())
            .setHttpStatus(read.httpStatus())
            .setErrorKind(read.errorKind() == null ? null : read.errorKind().code())
            .setErrorMessage(truncate(read.errorMessage(), 2_000))
            .setAttempts(read.attempts())
            .setStartedAt(started)
            .setFinishedAt(clock.instant())
            .setBytes(read.bytes())
            .setItemCount(content.size())
            .setItems(digests)
            .setCursor(cursor)
            .setRetryAfter(read.retryAfter())
            .setHints(hints(read.hints()))
            .setMovedTo(read.hints().movedTo() == null ? null : read.hints().movedTo().toString())
            .setSelfUrl(selfUrl(request.getUrl(), read.hints()))
            .setHubUrl(read.hints().hubUrl())
            .build();
    return new FetchResult(content, completed, items);
  }

  /**
   * The answer to a request that is not fetched again because worker processes died while it was
   * being fetched alone ({@code crashed_worker}); no cursor, so the scheduler keeps the old one and
   * backs the source off like any failure.
   */
  public FetchResult crashed(FetchRequested request, int crashes) {
    Instant now = clock.instant();
    return failed(
        request,
        now,
        new FetchFailure(
            ErrorKind.CRASHED_WORKER,
            "a worker process died "
                + crashes
                + (crashes == 1 ? " time" : " times")
                + " while fetching this request alone; not fetched again",
            null,
            0,
            null));
  }

  private static io.freshet.schemas.avro.ServerHints hints(ServerHints hints) {
    if (!hints.limitsFreshness()) {
      return null;
    }
    return io.freshet.schemas.avro.ServerHints.newBuilder()
        .setMaxAgeSeconds(hints.maxAge() == null ? null : hints.maxAge().toSeconds())
        .setTtlMinutes(hints.ttlMinutes())
        .setUpdatePeriodSeconds(
            hints.updatePeriod() == null ? null : hints.updatePeriod().toSeconds())
        .setSkipHours(List.copyOf(hints.skipHours()))
        .setSkipDays(List.copyOf(hints.skipDays()))
        .build();
  }

  /** The document's own URL when it is not the one fetched (nor where a move led). */
  private static String selfUrl(String fetched, ServerHints hints) {
    String self = hints.selfUrl();
    if (self == null
        || self.equals(fetched.trim())
        || (hints.movedTo() != null && self.equals(hints.movedTo().toString()))) {
      return null;
    }
    return self;
  }

  private FetchResult failed(FetchRequested request, Instant started, FetchFailure failure) {
    return completion(request, started, ReadResult.failed(failure), List.of(), null);
  }

  private static ReadResult expired(FetchRequested request, Instant now) {
    return new ReadResult(
        FetchStatus.expired,
        null,
        0,
        0,
        List.of(),
        Map.of(),
        null,
        "picked up "
            + Duration.between(request.getNotAfter(), now).toMillis()
            + " ms after not_after; not fetched (the scheduler re-emits)",
        null);
  }

  private SourceRequest sourceRequest(FetchRequested request, Instant now, boolean unlimited)
      throws FetchFailure {
    URI url;
    try {
      url = new URI(request.getUrl().trim());
    } catch (URISyntaxException e) {
      throw new FetchFailure(ErrorKind.BAD_URL, "not a URL: " + e.getReason());
    }
    ConnectorOptions options;
    try {
      options = ConnectorOptions.from(request.getConfig(), defaults);
      RobotsGuard.choice(request.getConfig());
    } catch (IllegalArgumentException e) {
      throw new FetchFailure(ErrorKind.CONFIG, e.getMessage());
    }
    if (unlimited) {
      options = options.unlimited();
    }
    CredentialsOpener.Opened opened = credentials.open(request.getCredentialsEncrypted());
    return new SourceRequest(
        url,
        request.getConfig(),
        request.getCursor(),
        opened.headers(),
        opened.query(),
        options,
        now,
        request.getNotAfter(),
        parsing.budget());
  }

  private static ContentFetched contentFetched(
      FetchRequested request, FetchedItem item, Long retention, Instant fetchedAt) {
    RawItem raw = item.raw();
    return ContentFetched.newBuilder()
        .setRequestId(request.getRequestId())
        .setSourceId(request.getSourceId())
        .setTenantId(request.getTenantId())
        .setConnector(request.getConnector())
        .setRetention(retention)
        .setItemId(item.itemId())
        .setContentHash(item.contentHash())
        .setUrl(raw.url())
        .setTitle(raw.title())
        .setBody(item.body())
        .setTruncated(item.truncated())
        .setContentType(raw.contentType())
        .setPublishedAt(raw.publishedAt())
        .setFetchedAt(fetchedAt)
        .setSignalType(item.signal().type())
        .setEventAt(item.signal().eventAt())
        .setMetadata(new HashMap<>(raw.metadata()))
        .build();
  }

  private static Long retention(FetchRequested request) {
    String days = request.getConfig().get("retention_days");
    if (days == null) {
      return null;
    }
    try {
      long d = Long.parseLong(days.trim());
      return d > 0 ? Duration.ofDays(d).toMillis() : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String truncate(String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max);
  }
}
