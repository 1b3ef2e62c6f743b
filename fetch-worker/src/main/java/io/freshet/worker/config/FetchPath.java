package io.freshet.worker.config;

import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.worker.budget.BudgetLimits;
import io.freshet.worker.budget.ParsePool;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.connector.SourceConnector;
import io.freshet.worker.connector.feed.FeedConnector;
import io.freshet.worker.connector.feed.ParseObserver;
import io.freshet.worker.connector.html.HtmlConnector;
import io.freshet.worker.connector.ical.IcalConnector;
import io.freshet.worker.connector.json.JsonApiConnector;
import io.freshet.worker.fetch.CredentialsOpener;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.AddressResolver;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.HttpSettings;
import io.freshet.worker.http.Sleeper;
import io.freshet.worker.http.SsrfGuard;
import io.freshet.worker.politeness.HostPoliteness;
import io.freshet.worker.politeness.PolitenessSettings;
import io.freshet.worker.robots.RobotsGuard;
import io.freshet.worker.robots.RobotsSettings;
import io.freshet.worker.signal.RuleSignalClassifier;
import io.freshet.worker.signal.SignalRules;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The fetch path assembled from the settings: one for the service, one for the fetch-once CLI, the
 * same classes either way.
 */
public record FetchPath(
    HostPoliteness politeness,
    HttpFetcher http,
    RobotsGuard robots,
    ParsePool parsing,
    SourceFetcher fetcher)
    implements AutoCloseable {

  public static FetchPath create(WorkerProperties props, Clock clock) {
    return create(props, clock, ParseObserver.NONE);
  }

  /** The service's path: {@code observer} is told of each feed read only after healing. */
  public static FetchPath create(WorkerProperties props, Clock clock, ParseObserver observer) {
    return create(props, clock, Sleeper.SYSTEM, AddressResolver.SYSTEM, observer);
  }

  public static FetchPath create(
      WorkerProperties props, Clock clock, Sleeper sleeper, AddressResolver resolver) {
    return create(props, clock, sleeper, resolver, ParseObserver.NONE);
  }

  private static FetchPath create(
      WorkerProperties props,
      Clock clock,
      Sleeper sleeper,
      AddressResolver resolver,
      ParseObserver observer) {
    var p = props.politeness();
    var politeness =
        new HostPoliteness(
            new PolitenessSettings(
                p.minDelay(),
                p.maxConcurrent(),
                p.coolDownBase(),
                p.coolDownMax(),
                p.hostMinDelays()),
            clock,
            sleeper);
    var h = props.http();
    var http =
        new HttpFetcher(
            new HttpSettings(
                h.connectTimeout(),
                h.totalTimeout(),
                h.maxRetries(),
                h.retryBase(),
                h.maxRetryWait(),
                h.maxBodyBytes(),
                h.maxDecompressedBytes(),
                h.maxRedirects(),
                h.userAgent()),
            new SsrfGuard(resolver, h.allowLoopback(), h.allowPrivate()),
            politeness,
            clock,
            sleeper);
    var r = props.robots();
    var robots =
        new RobotsGuard(
            new RobotsSettings(
                RobotsSettings.connectors(r.connectors()),
                r.cacheTtl(),
                r.unreachableTtl(),
                r.maxBytes(),
                r.maxHosts(),
                r.maxCrawlDelay(),
                r.productToken().isBlank()
                    ? RobotsSettings.productTokenOf(h.userAgent())
                    : r.productToken().trim().toLowerCase(java.util.Locale.ROOT)),
            http,
            politeness,
            clock);
    var s = props.signals();
    var i = props.items();
    String key = props.worker().credentialsKey();
    var b = props.budget();
    var parsing =
        new ParsePool(
            b.parseThreads() > 0
                ? b.parseThreads()
                : Math.max(2, Runtime.getRuntime().availableProcessors()),
            new BudgetLimits(b.cpu(), b.allocatedBytes(), b.wall()));
    var fetcher =
        new SourceFetcher(
            connectors(observer),
            http,
            new RuleSignalClassifier(new SignalRules(s.eventWords(), s.askWords(), s.giveWords())),
            new CredentialsOpener(key.isBlank() ? null : CredentialCipher.fromBase64Key(key)),
            new ConnectorOptions(
                i.itemLimit(), days(i.windowDays()), days(i.windowAheadDays()), i.emitAll()),
            i.bodyCapChars(),
            parsing,
            robots,
            clock);
    return new FetchPath(politeness, http, robots, parsing, fetcher);
  }

  /** Every connector this worker has. */
  public static List<SourceConnector> connectors() {
    return connectors(ParseObserver.NONE);
  }

  static List<SourceConnector> connectors(ParseObserver observer) {
    return List.of(
        new FeedConnector(observer),
        new HtmlConnector(),
        new IcalConnector(),
        new JsonApiConnector());
  }

  private static Duration days(int days) {
    return days == 0 ? null : Duration.ofDays(days);
  }

  @Override
  public void close() {
    http.close();
    parsing.close();
  }
}
